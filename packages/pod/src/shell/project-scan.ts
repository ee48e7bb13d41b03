import type { Dirent } from "node:fs";
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

/** One directory as last read, valid while its identity and ctime are unchanged. */
interface CachedDirectory {
  key: string;
  entries: { name: string; kind: EntryKind }[];
  /** `dev:ino` of each regular file, filled in only when a hard-linked secret needs them. */
  fileIdentities?: Map<string, string>;
}

/**
 * Walks directory trees for secret-named entries (`scope.secret_files`, matched by the file
 * tools' own matcher) and for `.git` entries, without following symbolic links (a link named
 * `.env` leads to a file that is not one; a link to a `.env` leads to its masked path).
 *
 * Every directory is walked, hidden files and `node_modules` included; not inside a secret
 * directory (it is masked whole), a skipped one (masked already by a deny rule) or a repository's
 * `objects` (names are hashes, and whatever was committed is readable through git anyway). A
 * directory seen twice (a bind mount looping back) is walked once.
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

    const visit = async ({ dir, inRepository }: Pending): Promise<Pending[]> => {
      const directory = await this.read(dir, startedNs);
      if (directory === undefined || visited.has(directory.key)) return [];
      visited.add(directory.key);
      walked.push({ dir, directory });
      const children: Pending[] = [];
      for (const { name, kind } of directory.entries) {
        const full = path.join(dir, name);
        if (skip.some((s) => pathCovers(s, true, full))) continue;
        const repository = isRepositoryName(name);
        if (repository) {
          const identity = await identityOf(full);
          if (identity !== undefined) repositories.push({ path: full, kind, identity });
        }
        if ((kind === "file" || kind === "directory") && this.secretRuleOf(full) !== undefined) {
          secrets.push({ path: full, isDirectory: kind === "directory" });
          if (kind === "file") {
            const info = await lstat(full).catch(() => undefined);
            if (info !== undefined && info.nlink > 1) linkedSecrets.add(`${info.dev}:${info.ino}`);
          }
          continue;
        }
        if (kind === "directory" && !(inRepository && name === "objects"))
          children.push({ dir: full, inRepository: inRepository || repository });
      }
      return children;
    };
    await drain(
      tops.map((dir) => ({ dir, inRepository: false })),
      visit,
    );

    if (linkedSecrets.size > 0) {
      const named = new Set(secrets.map((secret) => secret.path));
      for (const { dir, directory } of walked) {
        for (const [name, identity] of await this.fileIdentities(dir, directory)) {
          const full = path.join(dir, name);
          if (linkedSecrets.has(identity) && !named.has(full))
            secrets.push({ path: full, isDirectory: false });
        }
      }
    }
    return { secrets, repositories };
  }

  /** A directory's entries, from the cache when it has not changed; undefined when unreadable. */
  private async read(dir: string, startedNs: bigint): Promise<CachedDirectory | undefined> {
    const info = await lstat(dir, { bigint: true }).catch(() => undefined);
    if (info === undefined || !info.isDirectory()) return undefined;
    const key = `${info.dev}:${info.ino}`;
    const stamp = `${key}:${info.ctimeNs}`;
    const cached = this.cache.get(dir);
    if (cached !== undefined && cached.key === stamp) return { ...cached, key };
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      // What this process cannot read, a sandboxed one (the same user, fewer rights) cannot either.
      this.cache.delete(dir);
      return undefined;
    }
    const entries = dirents.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    const fresh: CachedDirectory = { key: stamp, entries };
    if (startedNs - info.ctimeNs > RACY_NS) this.cache.set(dir, fresh);
    else this.cache.delete(dir);
    return { ...fresh, key };
  }

  /** `name → dev:ino` of the regular files in `dir`, cached with its entries. */
  private async fileIdentities(dir: string, directory: CachedDirectory): Promise<Map<string, string>> {
    const cached = this.cache.get(dir);
    if (cached?.fileIdentities !== undefined && cached.entries === directory.entries)
      return cached.fileIdentities;
    const identities = new Map<string, string>();
    for (const { name, kind } of directory.entries) {
      if (kind !== "file") continue;
      const identity = await identityOf(path.join(dir, name));
      if (identity !== undefined) identities.set(name, identity);
    }
    if (cached !== undefined && cached.entries === directory.entries) cached.fileIdentities = identities;
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
