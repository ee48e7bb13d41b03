import { type BigIntStats, type Dirent, lstatSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { pathCovers, type SecretFileRule } from "../scope/rules.js";

/** What kind of thing a directory entry is, as far as a scan cares. */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** A secret-named file or directory found by a scan (canonical path). */
export interface FoundSecret {
  path: string;
  isDirectory: boolean;
}

/** An entry named `.git` in any case, found by a scan: which one, and what it is. */
export interface FoundRepository {
  path: string;
  kind: EntryKind;
  /** `dev:ino` of the entry itself (not followed): a replaced entry has another. */
  identity: string;
  /** Inside a secret directory: masked whole, so not to be bound (a bind would show it). */
  hidden: boolean;
}

export interface ProjectScan {
  /** Secret-named files and directories, and the other names of a hard-linked secret file. */
  secrets: FoundSecret[];
  /** Every `.git` (any case) under the roots, except inside secret or skipped directories. */
  repositories: FoundRepository[];
}

/** Directory reads in flight at once: enough to keep the disk busy, few enough for the thread pool. */
const CONCURRENCY = 16;
/**
 * A directory whose ctime is younger than this when it is read may change again within the same
 * clock tick, invisibly to a later ctime comparison (file systems stamp times at tick granularity):
 * it is not cached. The same precaution as git's "racy" index entries.
 */
const RACY_NS = 2_000_000_000n;

/**
 * One directory as last read, its entries sorted by what a scan does with them; valid while its
 * identity and ctime are unchanged.
 */
interface CachedDirectory {
  /** `dev:ino:ctime`. */
  stamp: string;
  /** Directories to walk (not links, not secret). */
  subdirectories: string[];
  secrets: { name: string; isDirectory: boolean }[];
  repositories: { name: string; kind: EntryKind }[];
  /** Regular files, for the other names of a hard-linked secret. */
  files: string[];
  /** `name → dev:ino` of `files`, filled in only when a hard-linked secret needs them. */
  fileIdentities?: Map<string, string>;
}

/**
 * Walks directory trees for secret-named entries (`scope.secret_files`, matched by the file
 * tools' own matcher) and for `.git` entries, without following symbolic links (a link named
 * `.env` leads to a file that is not one; a link to a `.env` leads to its masked path).
 *
 * Every directory is walked, hidden files and `node_modules` included, except a skipped one
 * (masked already by a deny rule) and a repository's `objects` (names are hashes, and whatever was
 * committed is readable through git anyway). Inside a secret directory (masked whole) only `.git`
 * entries are reported, as `hidden`. A directory seen twice (a bind mount looping back) is walked
 * once.
 *
 * A directory's entries are cached while its `dev:ino` and ctime stay the same: adding, removing
 * or renaming an entry changes the directory's ctime, which no process can set back (unlike the
 * mtime). So a later scan costs one `lstat` per directory instead of a `readdir`.
 *
 * A secret file with more than one hard link is found under its other names too (they are masked
 * as the file tools refuse them): the file identities of the walked trees are then read, and cached
 * the same way.
 */
export class ProjectScanner {
  private readonly cache = new Map<string, CachedDirectory>();

  constructor(private readonly secretRuleOf: (realPath: string) => SecretFileRule | undefined) {}

  /**
   * Scans `roots` (canonical, absolute directories; roots inside other roots are walked once),
   * skipping everything under `skip`.
   */
  async scan(roots: readonly string[], skip: readonly string[]): Promise<ProjectScan> {
    const startedNs = BigInt(Date.now()) * 1_000_000n;
    const tops = roots.filter((root, i) => !roots.some((other, j) => j !== i && covers(other, root, j < i)));
    const secrets: FoundSecret[] = [];
    const repositories: FoundRepository[] = [];
    const linkedSecrets = new Set<string>();
    const visited = new Set<string>();
    const walked: { dir: string; directory: CachedDirectory }[] = [];

    const visit = async ({ dir, inRepository, hidden }: Pending): Promise<Pending[]> => {
      const read = await this.read(dir, startedNs);
      if (read === undefined || visited.has(read.identity)) return [];
      const { directory } = read;
      visited.add(read.identity);
      if (!hidden) walked.push({ dir, directory });
      const skipped = (full: string) => skip.some((s) => pathCovers(s, true, full));
      for (const { name, kind } of directory.repositories) {
        const full = path.join(dir, name);
        const identity = skipped(full) ? undefined : await identityOf(full);
        if (identity !== undefined) repositories.push({ path: full, kind, identity, hidden });
      }
      const children: Pending[] = [];
      for (const { name, isDirectory } of directory.secrets) {
        const full = path.join(dir, name);
        if (skipped(full)) continue;
        // A secret directory is masked whole; it is still walked for repositories, which a
        // command may have made in it while it did not exist yet (so was not masked).
        if (isDirectory) children.push({ dir: full, inRepository, hidden: true });
        if (hidden) continue;
        secrets.push({ path: full, isDirectory });
        if (isDirectory) continue;
        const info = await lstat(full).catch(() => undefined);
        if (info !== undefined && info.nlink > 1) linkedSecrets.add(`${info.dev}:${info.ino}`);
      }
      for (const name of directory.subdirectories) {
        if (inRepository && name === "objects") continue;
        const full = path.join(dir, name);
        if (!skipped(full))
          children.push({ dir: full, inRepository: inRepository || isRepositoryName(name), hidden });
      }
      return children;
    };
    await drain(
      tops.map((dir) => ({ dir, inRepository: false, hidden: false })),
      visit,
    );

    if (linkedSecrets.size > 0) {
      const named = new Set(secrets.map((secret) => secret.path));
      for (const { dir, directory } of walked) {
        for (const [name, identity] of await this.fileIdentities(directory, dir)) {
          const full = path.join(dir, name);
          if (linkedSecrets.has(identity) && !named.has(full))
            secrets.push({ path: full, isDirectory: false });
        }
      }
    }
    return { secrets, repositories };
  }

  /** A directory's entries, from the cache when it has not changed; undefined when unreadable. */
  private async read(
    dir: string,
    startedNs: bigint,
  ): Promise<{ identity: string; directory: CachedDirectory } | undefined> {
    // Synchronous: a few microseconds, against tens for a round trip through the thread pool, and
    // on an unchanged tree this is all a scan does per directory.
    const info = statOrUndefined(dir);
    if (info === undefined || !info.isDirectory()) return undefined;
    const identity = `${info.dev}:${info.ino}`;
    const stamp = `${identity}:${info.ctimeNs}`;
    const cached = this.cache.get(dir);
    if (cached !== undefined && cached.stamp === stamp) return { identity, directory: cached };
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      // What this process cannot read, a sandboxed one (the same user, fewer rights) cannot either.
      this.cache.delete(dir);
      return undefined;
    }
    const directory: CachedDirectory = {
      stamp,
      subdirectories: [],
      secrets: [],
      repositories: [],
      files: [],
    };
    for (const entry of dirents) {
      const kind = kindOf(entry);
      if (isRepositoryName(entry.name)) directory.repositories.push({ name: entry.name, kind });
      if (kind === "file") directory.files.push(entry.name);
      const secret =
        (kind === "file" || kind === "directory") &&
        this.secretRuleOf(path.join(dir, entry.name)) !== undefined;
      if (secret) directory.secrets.push({ name: entry.name, isDirectory: kind === "directory" });
      else if (kind === "directory") directory.subdirectories.push(entry.name);
    }
    if (startedNs - info.ctimeNs > RACY_NS) this.cache.set(dir, directory);
    else this.cache.delete(dir);
    return { identity, directory };
  }

  /** `name → dev:ino` of the regular files in `dir`, cached with its entries. */
  private async fileIdentities(directory: CachedDirectory, dir: string): Promise<Map<string, string>> {
    if (directory.fileIdentities !== undefined) return directory.fileIdentities;
    const identities = new Map<string, string>();
    for (const name of directory.files) {
      const identity = await identityOf(path.join(dir, name));
      if (identity !== undefined) identities.set(name, identity);
    }
    directory.fileIdentities = identities;
    return identities;
  }
}

/** `.git` in any case: on a case-insensitive file system `.GIT` is the repository too. */
export function isRepositoryName(name: string): boolean {
  return name.toLowerCase() === ".git";
}

/** `dev:ino` of the entry at `full` (not followed), or undefined when it is gone. */
export async function identityOf(full: string): Promise<string | undefined> {
  const info = await lstat(full).catch(() => undefined);
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

function statOrUndefined(dir: string): BigIntStats | undefined {
  try {
    return lstatSync(dir, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function kindOf(entry: Dirent): EntryKind {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  if (entry.isFile()) return "file";
  return "other";
}

/** `outer` covers `inner`; of two equal roots only the first (`firstWins`) is kept. */
function covers(outer: string, inner: string, firstWins: boolean): boolean {
  return outer === inner ? firstWins : pathCovers(outer, true, inner);
}

/** A directory to walk, and whether it is inside a repository's `.git`. */
interface Pending {
  dir: string;
  inRepository: boolean;
  /** Inside a secret directory. */
  hidden: boolean;
}

/** Visits every directory, starting from `roots` and going on with what each visit returns, CONCURRENCY at once. */
function drain(roots: Pending[], visit: (pending: Pending) => Promise<Pending[]>): Promise<void> {
  const queue = [...roots];
  let active = 0;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      if (queue.length === 0 && active === 0) {
        resolve();
        return;
      }
      while (active < CONCURRENCY && queue.length > 0) {
        const next = queue.pop() as Pending;
        active++;
        visit(next)
          .then((children) => queue.push(...children), reject)
          .finally(() => {
            active--;
            pump();
          });
      }
    };
    pump();
  });
}
