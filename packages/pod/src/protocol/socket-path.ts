import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, realpath, unlink } from "node:fs/promises";
import { connect } from "node:net";
import { homedir, tmpdir, userInfo } from "node:os";
import path from "node:path";
import { findProjectRoot } from "../manifest/project-root.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where the Pod of a project listens: `$XDG_RUNTIME_DIR/yoake/<hash>.sock`, else
 * `<tmpdir>/yoake-<uid>/<hash>.sock`, the hash being the first 16 hex digits of the SHA-256 of the
 * project root. A hash, not the path, because a Unix socket path must stay under about 100 bytes;
 * one per project root, so a client finds the Pod of the project it is in.
 */
export function podSocketPath(projectRoot: string, env: Env = process.env): string {
  const hash = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
  const runtimeDir = env.XDG_RUNTIME_DIR;
  const dir =
    runtimeDir !== undefined && runtimeDir !== ""
      ? path.join(runtimeDir, "yoake")
      : path.join(tmpdir(), `yoake-${userInfo().uid}`);
  return path.join(dir, `${hash}.sock`);
}

/**
 * The socket of the project around `cwd` (found as the manifest finds it, then made real, so a
 * symbolic link or a subdirectory leads to the same Pod): where `yoake serve` listens and where
 * `yoake` looks for a Pod to attach to.
 */
export async function projectSocketPath(cwd: string, env: Env = process.env): Promise<string> {
  const root = await findProjectRoot(cwd, path.resolve(env.HOME ?? homedir()));
  return podSocketPath(await realpath(root).catch(() => root), env);
}

/**
 * The socket of the Pod serving the project around `cwd`, or undefined when none does. A socket
 * file nobody listens on (its Pod died) counts as none and is left for the next server to remove.
 */
export async function findServedPod(cwd: string, env: Env = process.env): Promise<string | undefined> {
  const socketPath = await projectSocketPath(cwd, env);
  const stats = await lstat(socketPath).catch(() => undefined);
  if (stats === undefined || !stats.isSocket()) return undefined;
  return (await answers(socketPath)) ? socketPath : undefined;
}

/** Another Pod answers on the socket path: this one must not take it over. */
export class SocketInUseError extends Error {
  constructor(readonly socketPath: string) {
    super(`a Pod is already serving on ${socketPath}; connect to it, or stop it first`);
    this.name = "SocketInUseError";
  }
}

/**
 * Makes `socketPath` ready to listen on: its directory exists, belongs to this user and is private
 * (0700: only this user can reach the socket at all); a socket file left by a Pod that died is
 * removed. Whether it is stale is decided by connecting to it: refused means nobody listens. A
 * live Pod raises `SocketInUseError`; a file there that is not a socket is never removed.
 */
export async function prepareSocketPath(socketPath: string): Promise<void> {
  await ensurePrivateDir(path.dirname(socketPath));
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (!stats.isSocket())
    throw new Error(`${socketPath} exists and is not a socket; remove it if it is not needed`);
  if (await answers(socketPath)) throw new SocketInUseError(socketPath);
  await unlink(socketPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

/** Only the owner may reach the socket: 0600 on the file, inside a 0700 directory. */
export async function restrictSocket(socketPath: string): Promise<void> {
  await chmod(socketPath, 0o600);
}

async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stats = await lstat(dir);
  if (!stats.isDirectory()) throw new Error(`${dir} is not a directory`);
  const uid = process.getuid?.();
  // Someone else's directory (e.g. made in a shared /tmp to intercept): never put our socket there.
  if (uid !== undefined && stats.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((stats.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** Whether something accepts connections on the socket (a live Pod). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = connect(socketPath);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", (error: NodeJS.ErrnoException) => {
      probe.destroy();
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(false);
      else reject(error);
    });
  });
}
