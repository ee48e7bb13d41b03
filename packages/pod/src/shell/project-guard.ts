import { execFile } from "node:child_process";
import { open, rm, stat } from "node:fs/promises";
import path from "node:path";
import { canonicalize } from "../scope/canonical-path.js";
import { pathCovers, type Scope, type ScopeRule } from "../scope/rules.js";
import { compileSecretFiles } from "../scope/secret-files.js";
import { type FoundRepository, identityOf, ProjectScanner } from "./project-scan.js";

/** A path the sandbox must hide or keep read-only, beyond what the scope's rules name. */
export interface GuardedPath {
  path: string;
  isDirectory: boolean;
}

/** What one command's sandbox must add: secrets to mask, repositories to bind read-only. */
export interface GuardedPaths {
  masks: GuardedPath[];
  readOnly: GuardedPath[];
}

/** Why the sweep removes a `.git`, as the model reads it. */
export const NESTED_REPOSITORY_REASON =
  "nested repositories cannot be created by sandboxed commands (the user's own git would run their configuration outside the sandbox); ask the user to create it";

/** The longest gitlink file (`gitdir: …`) or `commondir` read. */
const MAX_POINTER_BYTES = 4096;
/** How long `git rev-parse` may take to tell where the hooks are. */
const GIT_TIMEOUT_MS = 10_000;

interface Roots {
  project: string;
  /** Where the sandbox may write: recursive write rules no deny rule covers. */
  writable: string[];
  /** Where secrets are looked for: the project, allow rules inside it, and the writable roots. */
  readable: string[];
  /** Masked whole by a deny-read rule: nothing inside is seen. */
  skip: string[];
}

/**
 * What the sandbox sees and leaves inside the project, beyond the scope's rules.
 *
 * At each launch (`beginCommand`) one scan of the project finds the files and directories named
 * by `scope.secretFiles` (masked, as the file tools refuse them) and every `.git` under a writable
 * root, at any depth (bound read-only, with the repository a gitlink file or a symbolic link points
 * to when that is writable too, so it cannot be edited or replaced), and the top repository's hooks
 * directory when `core.hooksPath` puts it in a writable root (the user's git runs it).
 *
 * A `.git` that a command creates cannot be stopped by a mount (there is nothing to mount on yet),
 * so after every command (`endCommand`) a sweep of the writable roots removes each `.git`, in any
 * case, that was not there before, or that is not the entry that was (a replaced symbolic link),
 * and a hooks directory that appeared. "Before" is the state at the last launch when no command
 * was running: one the user makes meanwhile (while a background command runs) is removed as well.
 * Launches and sweeps run one at a time.
 */
export class ProjectGuard {
  private readonly scanner: ProjectScanner;
  private queue: Promise<unknown> = Promise.resolve();
  private active = 0;
  /** `path → dev:ino` of the `.git` entries under the writable roots at the baseline. */
  private baseline = new Map<string, string>();
  /** The hooks directory, when it is in a writable root and did not exist at the baseline. */
  private missingHooks: string | undefined;

  constructor(private readonly scope: Scope) {
    this.scanner = new ProjectScanner(compileSecretFiles(scope.secretFiles ?? []));
  }

  /** Scans before a command starts; every call must be followed by one `endCommand`. */
  beginCommand(): Promise<GuardedPaths> {
    return this.serially(async () => {
      const roots = await this.roots();
      const [scan, hooks] = await Promise.all([
        this.scanner.scan(roots.readable, roots.skip),
        hooksDirectory(roots.project),
      ]);
      const inWritable = (p: string) => roots.writable.some((root) => pathCovers(root, true, p));
      const repositories = scan.repositories.filter((repository) => inWritable(repository.path));
      const readOnly: GuardedPath[] = [];
      for (const repository of repositories.filter((found) => !found.hidden))
        readOnly.push(...(await repositoryPaths(repository)).filter((guarded) => inWritable(guarded.path)));
      // Hooks inside a repository (`.git/hooks`) are read-only with it.
      const hooksInside =
        hooks !== undefined &&
        inWritable(hooks.path) &&
        !readOnly.some((guarded) => pathCovers(guarded.path, true, hooks.path))
          ? hooks
          : undefined;
      if (this.active === 0) {
        this.baseline = new Map(repositories.map((repository) => [repository.path, repository.identity]));
        this.missingHooks = hooksInside !== undefined && !hooksInside.exists ? hooksInside.path : undefined;
      }
      this.active++;
      if (hooksInside?.exists === true) readOnly.push({ path: hooksInside.path, isDirectory: true });
      return { masks: scan.secrets, readOnly };
    });
  }

  /** After a command ended: removes what it must not leave; returns what was removed, one line each. */
  endCommand(): Promise<string[]> {
    return this.serially(async () => {
      this.active = Math.max(0, this.active - 1);
      const roots = await this.roots();
      // Nothing skipped: a deny-read path that did not exist at the launch was not masked, and a
      // command could make a repository there.
      const scan = await this.scanner.scan(roots.writable, []);
      const removed: string[] = [];
      const describe = (full: string) => path.relative(roots.project, full) || full;
      for (const repository of scan.repositories) {
        if (!roots.writable.some((root) => pathCovers(root, true, repository.path))) continue;
        const before = this.baseline.get(repository.path);
        if (before === repository.identity) continue;
        await rm(repository.path, { recursive: true, force: true });
        const what = before === undefined ? "new" : "replaced";
        removed.push(
          `removed ${describe(repository.path)} (${what} ${repository.kind}): ${NESTED_REPOSITORY_REASON}`,
        );
      }
      if (this.missingHooks !== undefined && (await identityOf(this.missingHooks)) !== undefined) {
        await rm(this.missingHooks, { recursive: true, force: true });
        removed.push(
          `removed ${describe(this.missingHooks)} (the repository's core.hooksPath, which the user's git runs): hooks cannot be created by sandboxed commands; ask the user`,
        );
      }
      return removed;
    });
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const result = this.queue.then(step);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The roots, resolved at every scan: a rule's path may appear or change between commands. */
  private async roots(): Promise<Roots> {
    const project = await canonicalOrUndefined(path.resolve(this.scope.root));
    if (project === undefined) throw new Error(`the project root ${this.scope.root} cannot be resolved`);
    const resolve = async (rule: ScopeRule) => {
      const real = await canonicalOrUndefined(path.resolve(project, rule.path));
      const isDirectory =
        real !== undefined && (await stat(real).catch(() => undefined))?.isDirectory() === true;
      return { rule, real, isDirectory };
    };
    const allow = await Promise.all(this.scope.allow.map(resolve));
    const deny = await Promise.all(this.scope.deny.map(resolve));
    const denied = (real: string) =>
      deny.some((d) => d.real !== undefined && pathCovers(d.real, d.rule.recursive, real));
    const writable: string[] = [];
    const readable: string[] = [project];
    for (const { rule, real, isDirectory } of allow) {
      if (real === undefined || !isDirectory) continue;
      if (rule.access === "write" && rule.recursive && !denied(real)) writable.push(real);
      if (pathCovers(project, true, real) && !readable.includes(real)) readable.push(real);
    }
    for (const root of writable) if (!readable.includes(root)) readable.push(root);
    const skip = deny.flatMap((d) => (d.rule.access === "read" && d.real !== undefined ? [d.real] : []));
    return { project, writable, readable, skip };
  }
}

/**
 * The `.git` entry itself, and the repository it leads to: the target of a symbolic link, the
 * `gitdir:` of a gitlink file, and a worktree's `commondir`.
 */
async function repositoryPaths(repository: FoundRepository): Promise<GuardedPath[]> {
  const guarded: GuardedPath[] = [];
  let gitDir: string | undefined;
  if (repository.kind === "directory") {
    guarded.push({ path: repository.path, isDirectory: true });
    gitDir = repository.path;
  } else if (repository.kind === "file") {
    guarded.push({ path: repository.path, isDirectory: false });
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await readStart(repository.path)) ?? "")?.[1];
    if (pointer !== undefined)
      gitDir = await canonicalOrUndefined(path.resolve(path.dirname(repository.path), pointer));
  } else if (repository.kind === "symlink") {
    gitDir = await canonicalOrUndefined(repository.path);
  }
  if (gitDir === undefined) return guarded;
  const info = await stat(gitDir).catch(() => undefined);
  if (info === undefined) return guarded;
  if (gitDir !== repository.path) guarded.push({ path: gitDir, isDirectory: info.isDirectory() });
  if (!info.isDirectory()) return guarded;
  const common = (await readStart(path.join(gitDir, "commondir")))?.trim();
  if (common !== undefined && common !== "") {
    const commonDir = await canonicalOrUndefined(path.resolve(gitDir, common));
    if (commonDir !== undefined && (await stat(commonDir).catch(() => undefined))?.isDirectory())
      guarded.push({ path: commonDir, isDirectory: true });
  }
  return guarded;
}

/** The first bytes of a regular file as text, or undefined (missing, not a file, unreadable). */
async function readStart(file: string): Promise<string | undefined> {
  try {
    const handle = await open(file, "r");
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      const buffer = Buffer.alloc(MAX_POINTER_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, MAX_POINTER_BYTES, 0);
      return buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Where the user's git looks for the hooks of the repository holding the project (`core.hooksPath`,
 * or `.git/hooks`), canonical, and whether it exists; undefined without git or a repository.
 */
function hooksDirectory(project: string): Promise<{ path: string; exists: boolean } | undefined> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["rev-parse", "--path-format=absolute", "--git-path", "hooks"],
      // Not `hostGitEnv`: its core.hooksPath is the answer it would give. `rev-parse` only reads
      // configuration, the user's own (the top repository's `.git` is read-only to commands).
      { cwd: project, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" }, timeout: GIT_TIMEOUT_MS },
      (error, stdout) => {
        const said = String(stdout).trim();
        if (error !== null || said === "" || !path.isAbsolute(said)) return resolve(undefined);
        canonicalize(said).then(
          ({ real, exists }) => resolve({ path: real, exists }),
          () => resolve(undefined),
        );
      },
    );
  });
}

async function canonicalOrUndefined(absolute: string): Promise<string | undefined> {
  try {
    return (await canonicalize(absolute)).real;
  } catch {
    return undefined;
  }
}
