import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Options for every git process of a worker. A run's tree is thrown away after its branch is
 * pushed, and the mirror is only a cache, so git's fsyncs there only cost time (the receiving
 * repository keeps its own); no automatic maintenance (a `git gc` in the middle of a run would cost
 * more than the run, and must never prune objects a run's tree borrows from the mirror).
 */
export const GIT_OPTIONS = [
  "-c",
  "user.name=yoake",
  "-c",
  "user.email=yoake@localhost",
  "-c",
  "core.fsync=none",
  "-c",
  "maintenance.auto=false",
  "-c",
  "gc.auto=0",
];

export async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", [...GIT_OPTIONS, ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** A fresh working tree of one run; `dispose` deletes it. */
export interface RunTree {
  dir: string;
  dispose(): Promise<void>;
}

/**
 * A worker machine's cache of the repositories its runs work on: one bare mirror per repository
 * URL, so a run does not clone. Each run gets a new repository of its own whose object store
 * borrows the mirror's (git alternates): it fetches the requested ref from the repository itself
 * (so it sees whatever was pushed a moment ago; only objects the mirror lacks cross the wire) and
 * checks it out: three git processes (one of them the server's) instead of a clone's five.
 * Nothing a run does is written to the mirror, so runs in one process or in several never contend
 * for it, and nothing of a run survives into the next. The mirror is brought up to date in the
 * background after a run had to fetch objects it lacked; it only ever gains objects (never gc'd),
 * so a tree borrowing from it never loses one.
 *
 * A worker killed mid-run leaves its run's directory (named after its process id) and maybe a
 * half-made mirror in a temporary name; the next cache opened on the same root deletes those of
 * processes that are gone. The root must be on a local disk of one machine.
 */
export class RepositoryCache {
  private readonly mirrors = new Map<string, Promise<string>>();
  private readonly refreshing = new Map<string, Promise<void>>();

  private constructor(readonly root: string) {}

  /** The default root: `$XDG_CACHE_HOME/yoake/repos` (`~/.cache/yoake/repos`). */
  static defaultRoot(env: Readonly<Record<string, string | undefined>>): string {
    return join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), ".cache"), "yoake", "repos");
  }

  static async open(root: string): Promise<RepositoryCache> {
    await mkdir(join(root, "runs"), { recursive: true });
    const cache = new RepositoryCache(root);
    await cache.deleteLeftoversOfDeadProcesses();
    return cache;
  }

  /** A new working tree of `url` at `ref` (the repository's HEAD when absent), detached. */
  async checkout(url: string, ref: string | undefined): Promise<RunTree> {
    if (ref !== undefined && !/^[^-+:\s~^?*[\\][^:\s~^?*[\\]*$/.test(ref))
      throw new Error(`cannot check out ${url} at ${ref}: not a branch or tag name`);
    const mirror = await this.mirror(url);
    const scratch = await mkdtemp(join(this.root, "runs", `${process.pid}-`));
    const dir = join(scratch, "repo");
    const dispose = () => rm(scratch, { recursive: true, force: true });
    try {
      await mkdir(join(dir, ".git", "objects", "info"), { recursive: true });
      await mkdir(join(dir, ".git", "refs", "heads"), { recursive: true });
      await mkdir(join(dir, ".git", "refs", "tags"));
      await writeFile(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
      await writeFile(join(dir, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
      await writeFile(join(dir, ".git", "objects", "info", "alternates"), `${join(mirror, "objects")}\n`);
      // "--" keeps a repository URL that starts with "-" from being read as an option.
      await git(dir, ["fetch", "--quiet", "--no-tags", "--", url, ref ?? "HEAD"]);
      await git(dir, ["checkout", "--quiet", "--detach", "FETCH_HEAD"]);
      if (await fetchedObjects(dir)) this.refresh(url, mirror);
    } catch (error) {
      await dispose();
      throw new Error(
        `cannot clone ${url}${ref === undefined ? "" : ` at ${ref}`}: ${(error as Error).message.split("\n")[0]}`,
      );
    }
    return { dir, dispose };
  }

  /** Waits for the mirrors' background updates. */
  async close(): Promise<void> {
    await Promise.all([...this.refreshing.values()]);
  }

  /** The mirror of `url`, cloned on first use (into a temporary name, renamed when complete). */
  private mirror(url: string): Promise<string> {
    let mirror = this.mirrors.get(url);
    if (mirror === undefined) {
      mirror = this.openMirror(url);
      this.mirrors.set(url, mirror);
      mirror.catch(() => this.mirrors.delete(url));
    }
    return mirror;
  }

  private async openMirror(url: string): Promise<string> {
    const mirror = join(this.root, `${createHash("sha256").update(url).digest("hex").slice(0, 24)}.git`);
    if (await exists(join(mirror, "objects"))) return mirror;
    const partial = `${mirror}.${process.pid}-${randomUUID()}.partial`;
    try {
      await git(this.root, ["clone", "--bare", "--quiet", "--no-tags", "--", url, partial]);
      await rename(partial, mirror).catch(async (error: NodeJS.ErrnoException) => {
        // Another process finished the same mirror first: theirs is as good.
        if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      });
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
    return mirror;
  }

  /** Fetches every branch into the mirror, one update at a time per mirror; a failure only costs speed. */
  private refresh(url: string, mirror: string): void {
    if (this.refreshing.has(mirror)) return;
    const update = git(mirror, ["fetch", "--quiet", "--no-tags", "--", url, "+refs/heads/*:refs/heads/*"])
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.refreshing.delete(mirror));
    this.refreshing.set(mirror, update);
  }

  /**
   * A dead worker's git processes may outlive it for a moment and still be writing there: what
   * cannot be deleted now is left for the next cache opened on this root.
   */
  private async deleteLeftoversOfDeadProcesses(): Promise<void> {
    const stale = async (dir: string, name: string, pid: string | undefined) => {
      if (pid !== undefined && !isAlive(Number(pid)))
        await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
    };
    for (const name of await readdir(join(this.root, "runs")))
      await stale(join(this.root, "runs"), name, /^(\d+)-/.exec(name)?.[1]);
    for (const name of await readdir(this.root))
      await stale(this.root, name, /\.git\.(\d+)-[^/]*\.partial$/.exec(name)?.[1]);
  }
}

/** Whether the run's fetch had to bring objects the mirror lacks (they land in the run's own store). */
async function fetchedObjects(dir: string): Promise<boolean> {
  const objects = join(dir, ".git", "objects");
  const entries = await readdir(objects);
  if (entries.some((name) => name !== "info" && name !== "pack")) return true;
  return entries.includes("pack") && (await readdir(join(objects, "pack"))).length > 0;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
