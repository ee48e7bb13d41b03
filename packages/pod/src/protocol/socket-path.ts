import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, realpath, unlink } from "node:fs/promises";
import { connect } from "node:net";
import { homedir, tmpdir, userInfo } from "node:os";
import path from "node:path";
import { yoakeStateDir } from "../manifest/data-dir.js";
import { findProjectRoot } from "../manifest/project-root.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The longest socket path that fits `sockaddr_un` on every platform (104 bytes on macOS, with its NUL). */
const MAX_SOCKET_PATH = 103;

/**
 * Where the Pod of a project listens: `$XDG_RUNTIME_DIR/yoake/<hash>.sock`, else in Yoake's state
 * directory (`~/.local/state/yoake/run/<hash>.sock`: inside the user's home, where no other user can
 * make the directory first), else — when that path is too long for a socket — `<tmpdir>/yoake-<uid>/`.
 * The hash is the first 16 hex digits of the SHA-256 of the project root: a Unix socket path must
 * stay short; one per project root, so a client finds the Pod of the project it is in. Wherever it
 * is, server and client accept only a directory and a socket of this user's, private
 * (`checkPrivateSocket`).
 */
export function podSocketPath(projectRoot: string, env: Env = process.env): string {
  const name = `${createHash("sha256").update(projectRoot).digest("hex").slice(0, 16)}.sock`;
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir !== undefined && runtimeDir !== "") return path.join(runtimeDir, "yoake", name);
  const private_ = path.join(yoakeStateDir(env), "run", name);
  if (Buffer.byteLength(private_) <= MAX_SOCKET_PATH) return private_;
  return path.join(tmpdir(), `yoake-${userInfo().uid}`, name);
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
  await checkPrivateSocket(socketPath);
  return (await answers(socketPath)) ? socketPath : undefined;
}

/** A Pod socket that another user could have made or could reach: never talked to. */
export class ForeignSocketError extends Error {
  constructor(
    readonly socketPath: string,
    readonly reason: string,
  ) {
    super(`not connecting to ${socketPath}: ${reason}; it may not be your Pod (remove it if it is yours)`);
    this.name = "ForeignSocketError";
  }
}

/**
 * Refuses (`ForeignSocketError`) a socket whose directory or file is not this user's own, or whose
 * directory others may enter: whoever made it first could listen there and read a prompt and the
 * piped input, and answer with anything. Checked with `lstat`, so a link to someone else's socket
 * counts as theirs. Node cannot read a Unix socket's peer credentials; the directory check stands in:
 * only its owner can bind a socket in a 0700 directory.
 */
export async function checkPrivateSocket(socketPath: string): Promise<void> {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const dir = path.dirname(socketPath);
  const dirStats = await lstat(dir);
  if (!dirStats.isDirectory()) throw new ForeignSocketError(socketPath, `${dir} is not a directory`);
  if (dirStats.uid !== uid) throw new ForeignSocketError(socketPath, `${dir} belongs to another user`);
  if ((dirStats.mode & 0o077) !== 0)
    throw new ForeignSocketError(socketPath, `other users can enter ${dir} (mode ${modeOf(dirStats.mode)})`);
  const stats = await lstat(socketPath);
  if (!stats.isSocket()) throw new ForeignSocketError(socketPath, "it is not a socket");
  if (stats.uid !== uid) throw new ForeignSocketError(socketPath, "it belongs to another user");
}

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, "0");
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
