import { createHash, randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { BranchPusher } from "./branch-pusher.js";
import { git, gitScript } from "./git.js";

/**
 * A working tree of one run. `dispose` deletes it, or keeps it to be reset for a later run of the
 * repository when everything its store holds is in the repository (its branch was pushed).
 */
export interface RunTree {
  dir: string;
  /** The commit checked out. */
  commit: string;
  /** The mirror's object store, which the tree's repository borrows (git alternates). */
  objectStore: string;
  dispose(): Promise<void>;
}

/** A run tree kept for reuse: its directory, and how many runs it served. */
interface KeptTree {
  scratch: string;
  dir: string;
  uses: number;
}

/** A fetch of one repository's ref by this process: when it began, and the commit it found. */
interface Fetch {
  startedAt: Date;
  commit: Promise<string>;
}

/** A tree checked out ahead, from which fetch. */
interface Spare {
  tree: RunTree;
  fetch: Fetch;
  mirror: string;
}

/** Repositories and refs for which a spare tree is kept. */
const MAX_SPARES = 4;
/**
 * Trees kept per repository (a busy worker has one running, up to four delivering, one spare),
 * and how many runs one serves before it is deleted (its store keeps every run's commits).
 */
const MAX_KEPT = 8;
const MAX_USES = 32;

/**
 * Makes sure the mirror has commit `$2` of the repository `$1`, fetching it as `$3` (a ref of this
 * process's own) when it has not.
 */
const FETCH_COMMIT = `git cat-file -e "$2^{commit}" 2>/dev/null && exit 0
git fetch --quiet --no-tags --no-write-fetch-head -- "$1" "+$2:$3"`;

/** Resets a kept tree to commit `$1`: tracked files as committed, nothing else (ignored files too). */
const RESET = `git reset --quiet --hard "$1"
git clean --quiet -ffdx`;

/**
 * Fetches `$2` of the repository `$1` into the mirror as `$3` (a ref of this process's own) and
 * prints the commit. Only this process writes under its refs, and git writes objects atomically,
 * so processes sharing the mirror need no lock; no FETCH_HEAD (it is shared by everyone).
 */
const FETCH = `git fetch --quiet --no-tags --no-write-fetch-head -- "$1" "+$2:$3"
git rev-parse --verify "$3^{commit}"`;

/**
 * A worker machine's cache of the repositories its runs work on: one bare mirror per repository
 * URL, cloned by the machine's first run of it, so a run does not clone. A run's ref is fetched
 * from the repository itself into the mirror (only objects the mirror lacks cross the wire), and
 * the run gets a repository of its own whose object store borrows the mirror's (git alternates),
 * checked out at that commit. A tree whose run's branch was pushed is kept and reset (`RESET`) for
 * a later run of the repository, which saves making and deleting a checkout per run: its store then
 * holds only what the repository has, and nothing of the earlier run is in its files, index, refs
 * or reflog (none is written). Any other tree is deleted. One fetch serves every run submitted
 * before it began (a busy worker's queued runs fetch once), so a run starts from its ref as it was
 * at some moment after it was submitted. Branches are pushed in batches, from the mirror
 * (`BranchPusher`).
 *
 * The mirror only ever gains objects (never gc'd), so a tree borrowing from it never loses one.
 * A worker killed mid-run leaves its run's directory, its refs in the mirrors (both named after
 * its process id) and maybe a half-made mirror in a temporary name; the next cache opened on the
 * same root deletes those of processes that are gone. The root must be on a local disk of one
 * machine.
 */
export class RepositoryCache {
  private readonly mirrors = new Map<string, Promise<string>>();
  private readonly fetches = new Map<string, Promise<Fetch>>();
  private readonly pushers = new Map<string, Promise<BranchPusher>>();
  /** One tree checked out ahead per repository and ref (the most recently used ones). */
  private readonly spares = new Map<string, Promise<Spare | undefined>>();
  private readonly discarding = new Set<Promise<void>>();
  /** Kept trees by mirror. */
  private readonly kept = new Map<string, KeptTree[]>();
  /** Trees that may be kept when disposed: not yet given to a run, or their run's branch pushed. */
  private readonly reusable = new WeakSet<RunTree>();
  private closed = false;

  private constructor(
    readonly root: string,
    private readonly clock: () => Promise<Date>,
  ) {}

  /** The default root: `$XDG_CACHE_HOME/yoake/repos` (`~/.cache/yoake/repos`). */
  static defaultRoot(env: Readonly<Record<string, string | undefined>>): string {
    return join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), ".cache"), "yoake", "repos");
  }

  /**
   * `clock` tells the time a fetch begins, to compare with `checkout`'s `notBefore`: give the
   * clock the submission times come from (the fleet's database) when it is not this machine's.
   */
  static async open(root: string, options: { clock?: () => Promise<Date> } = {}): Promise<RepositoryCache> {
    await mkdir(join(root, "runs"), { recursive: true });
    const cache = new RepositoryCache(root, options.clock ?? (async () => new Date()));
    await cache.deleteLeftoversOfDeadProcesses();
    return cache;
  }

  /**
   * A new working tree of `url` at `ref` (the repository's HEAD when absent), detached, showing
   * the ref as it was at some moment no earlier than `notBefore` (default: now, so it is fetched
   * at once; a run passes its submission time, and a fetch that began after it serves it). When a
   * run was served by an earlier run's fetch, runs are queueing up: the cache then checks out the
   * next tree from that fetch ahead of time, and the next run takes it if the fetch serves it too.
   */
  async checkout(url: string, ref: string | undefined, notBefore?: Date): Promise<RunTree> {
    if (ref !== undefined && !/^[^-+:\s~^?*[\\][^:\s~^?*[\\]*$/.test(ref))
      throw new Error(`cannot check out ${url} at ${ref}: not a branch or tag name`);
    const key = `${ref ?? "HEAD"} ${url}`;
    const spare = this.spares.get(key);
    this.spares.delete(key);
    const ready = notBefore === undefined ? undefined : await spare;
    if (ready !== undefined && notBefore !== undefined && ready.fetch.startedAt >= notBefore) {
      this.prepareSpare(key, ready.mirror, ready.fetch);
      this.reusable.delete(ready.tree);
      return ready.tree;
    }
    this.discard(spare);
    try {
      const mirror = await this.mirror(url);
      const { fetch, shared } = await this.fetch(key, url, ref, mirror, notBefore);
      const tree = await this.makeTree(mirror, await fetch.commit);
      if (shared) this.prepareSpare(key, mirror, fetch);
      this.reusable.delete(tree);
      return tree;
    } catch (error) {
      throw new Error(
        `cannot clone ${url}${ref === undefined ? "" : ` at ${ref}`}: ${gitReason((error as Error).message)}`,
      );
    }
  }

  /**
   * A new working tree of `url` at `commit` exactly (a run continued where an earlier attempt
   * left it), fetched when the mirror lacks it.
   */
  async checkoutCommit(url: string, commit: string): Promise<RunTree> {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit)) throw new Error(`${commit} is not a commit id`);
    try {
      const mirror = await this.mirror(url);
      await gitScript(mirror, FETCH_COMMIT, [url, commit, `refs/yoake/${process.pid}/commits/${commit}`]);
      const tree = await this.makeTree(mirror, commit);
      this.reusable.delete(tree);
      return tree;
    } catch (error) {
      throw new Error(`cannot check out ${url} at ${commit}: ${(error as Error).message.split("\n")[0]}`);
    }
  }

  /**
   * Pushes `commit`, made in the run tree `tree` of `url`, to `refs/heads/<branch>` there, with
   * the branches of other runs that end meanwhile (`BranchPusher`).
   */
  async push(url: string, tree: RunTree, commit: string, branch: string): Promise<void> {
    let pusher = this.pushers.get(url);
    if (pusher === undefined) {
      pusher = this.mirror(url).then((mirror) => new BranchPusher(url, mirror));
      this.pushers.set(url, pusher);
      pusher.catch(() => this.pushers.delete(url));
    }
    await (await pusher).push(tree.dir, commit, branch);
    this.reusable.add(tree);
  }

  /** Pushes what waits, deletes the spare trees and this process's refs in the mirrors. */
  async close(): Promise<void> {
    this.closed = true;
    for (const spare of this.spares.values()) this.discard(spare);
    this.spares.clear();
    const kept = [...this.kept.values()].flat();
    this.kept.clear();
    await Promise.all([
      ...kept.map(({ scratch }) => rm(scratch, { recursive: true, force: true })),
      ...this.discarding,
      ...[...this.pushers.values()].map((pusher) =>
        pusher.then(
          (p) => p.close(),
          () => undefined,
        ),
      ),
    ]);
    const mirrors = await Promise.all(
      [...this.mirrors.values()].map((mirror) => mirror.catch(() => undefined)),
    );
    for (const mirror of mirrors)
      if (mirror !== undefined) await rm(ownRefs(mirror, process.pid), { recursive: true, force: true });
  }

  /**
   * The fetch that tells which commit `ref` of `url` names: the newest one when it began at or
   * after `notBefore` (`shared`), else a new one (which later runs may share).
   */
  private async fetch(
    key: string,
    url: string,
    ref: string | undefined,
    mirror: string,
    notBefore?: Date,
  ): Promise<{ fetch: Fetch; shared: boolean }> {
    const last = await this.fetches.get(key)?.catch(() => undefined);
    if (last !== undefined && notBefore !== undefined && last.startedAt >= notBefore)
      return { fetch: last, shared: true };
    const name = `refs/yoake/${process.pid}/${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
    const started = this.clock().then((startedAt) => ({
      startedAt,
      commit: gitScript(mirror, FETCH, [url, ref ?? "HEAD", name]).then((out) => (out ?? "").trim()),
    }));
    this.fetches.set(key, started);
    const fetch = await started;
    // A failed fetch serves nobody after it.
    fetch.commit.catch(() => {
      if (this.fetches.get(key) === started) this.fetches.delete(key);
    });
    return { fetch, shared: false };
  }

  /**
   * A repository borrowing the mirror's objects with `commit` checked out (detached): a kept tree
   * of that mirror reset to it, else a new one.
   */
  private async makeTree(mirror: string, commit: string): Promise<RunTree> {
    for (let kept = this.kept.get(mirror)?.pop(); kept !== undefined; kept = this.kept.get(mirror)?.pop()) {
      const reset = await gitScript(kept.dir, RESET, [commit]).then(
        () => true,
        () => false,
      );
      if (reset) return this.runTree(mirror, commit, { ...kept, uses: kept.uses + 1 });
      await rm(kept.scratch, { recursive: true, force: true });
    }
    const scratch = await mkdtemp(join(this.root, "runs", `${process.pid}-`));
    const dir = join(scratch, "repo");
    try {
      await mkdir(join(dir, ".git", "objects", "info"), { recursive: true });
      await mkdir(join(dir, ".git", "refs", "heads"), { recursive: true });
      await mkdir(join(dir, ".git", "refs", "tags"));
      await writeFile(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
      await writeFile(join(dir, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
      await writeFile(join(dir, ".git", "objects", "info", "alternates"), `${join(mirror, "objects")}\n`);
      await git(dir, ["checkout", "--quiet", "--detach", commit]);
      return this.runTree(mirror, commit, { scratch, dir, uses: 1 });
    } catch (error) {
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
  }

  /** A tree whose `dispose` keeps it for `makeTree` when it is reusable and may be kept. */
  private runTree(mirror: string, commit: string, kept: KeptTree): RunTree {
    const tree: RunTree = {
      dir: kept.dir,
      commit,
      objectStore: join(mirror, "objects"),
      dispose: async () => {
        const trees = this.kept.get(mirror) ?? [];
        if (this.reusable.has(tree) && !this.closed && kept.uses < MAX_USES && trees.length < MAX_KEPT)
          this.kept.set(mirror, [...trees, kept]);
        else await rm(kept.scratch, { recursive: true, force: true });
      },
    };
    this.reusable.add(tree);
    return tree;
  }

  /** Checks out the next tree of `key` from `fetch` in the background. */
  private prepareSpare(key: string, mirror: string, fetch: Fetch): void {
    if (this.closed) return;
    const spare = fetch.commit
      .then((commit) => this.makeTree(mirror, commit))
      .then(
        (tree) => ({ tree, fetch, mirror }),
        () => undefined,
      );
    this.spares.set(key, spare);
    for (const [oldest, dropped] of this.spares) {
      if (this.spares.size <= MAX_SPARES) break;
      this.spares.delete(oldest);
      this.discard(dropped);
    }
  }

  /** Deletes a spare tree that will not be used, once it is made. */
  private discard(spare: Promise<Spare | undefined> | undefined): void {
    if (spare === undefined) return;
    const deleted = spare
      .then((unused) => unused?.tree.dispose())
      .finally(() => this.discarding.delete(deleted));
    this.discarding.add(deleted);
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

  /**
   * A dead worker's git processes may outlive it for a moment and still be writing there: what
   * cannot be deleted now is left for the next cache opened on this root.
   */
  private async deleteLeftoversOfDeadProcesses(): Promise<void> {
    const dead = (pid: string | undefined) => pid !== undefined && !isAlive(Number(pid));
    const remove = (path: string) => rm(path, { recursive: true, force: true }).catch(() => undefined);
    for (const name of await readdir(join(this.root, "runs")))
      if (dead(/^(\d+)-/.exec(name)?.[1])) await remove(join(this.root, "runs", name));
    for (const name of await readdir(this.root)) {
      if (dead(/\.git\.(\d+)-[^/]*\.partial$/.exec(name)?.[1])) await remove(join(this.root, name));
      else if (name.endsWith(".git"))
        for (const pid of await readdir(join(this.root, name, "refs", "yoake")).catch(() => []))
          if (dead(pid)) await remove(ownRefs(join(this.root, name), pid));
    }
  }
}

/** Where a process's fetched refs are in a mirror. */
function ownRefs(mirror: string, pid: number | string): string {
  return join(mirror, "refs", "yoake", String(pid));
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

/**
 * The line of what git said that says why: its first `fatal:` or `error:` line, else its first
 * line that is not blank. Git ends a failed clone with advice after a blank line ("Please make
 * sure you have the correct access rights"), so its first or last line alone may say nothing.
 */
export function gitReason(said: string): string {
  const lines = said.split("\n").map((line) => line.trim());
  return (
    lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.find((line) => line !== "") ?? "git failed"
  );
}
