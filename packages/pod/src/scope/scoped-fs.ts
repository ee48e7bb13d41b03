import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  stat,
  unlink,
} from "node:fs/promises";
import path from "node:path";
import { canonicalize } from "./canonical-path.js";
import { foldCase, isCaseInsensitiveAt } from "./case-sensitivity.js";
import {
  type Access,
  allowGrants,
  denyRefuses,
  pathCovers,
  type RuleKind,
  type Scope,
  type ScopeRule,
} from "./rules.js";
import { ScopeError, type ScopeRefusal } from "./scope-error.js";
import { compileSecretFiles } from "./secret-files.js";

export interface ScopedFsOptions {
  /**
   * Compare paths case-folded (`true`) or exactly (`false`) instead of probing each rule's file
   * system. For tests and for file systems the probe cannot read.
   */
  caseInsensitive?: boolean;
}

/** What a directory entry or a path is. `symlink` only appears in listings, which do not follow links. */
export type EntryType = "file" | "directory" | "symlink" | "other";

/** One readable entry of a directory listing. */
export interface DirEntry {
  name: string;
  type: EntryType;
}

/** What `stat` tells about a path, after following links. */
export interface FileInfo {
  /** The canonical path the information is about. */
  realPath: string;
  type: EntryType;
  size: number;
  mtimeMs: number;
}

/** The first bytes of a file and its whole size, from one open of the file. */
export interface FilePrefix {
  bytes: Buffer;
  totalBytes: number;
}

/** The verdict on one canonical path, with the rule that decided it. */
export type ScopeDecision = { allowed: true; rule: ScopeRule } | { allowed: false; refusal: ScopeRefusal };

interface CompiledRule {
  kind: RuleKind;
  rule: ScopeRule;
  recursive: boolean;
  /** The canonical root, case-folded when its file system ignores case. */
  key: string;
  foldCase: boolean;
}

interface Located {
  real: string;
  exists: boolean;
}

/**
 * Reads refuse to follow a link in the last component (the path was canonical a moment ago, so a
 * link there means it was swapped since) and do not block on FIFOs, which are then refused as
 * "not a regular file".
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Keeps temporary names under NAME_MAX whatever the target's name. */
const TEMP_NAME_STEM = 64;

/**
 * The only way a tool or a resolver touches the disk. Every operation canonicalizes its path
 * first (`..`, symbolic links, including dangling ones and links among the parents, and case on
 * case-insensitive file systems), decides on that real path with the scope rules, then operates on
 * the real path it decided on, never on the path it was given.
 *
 * Relative paths are relative to the project root. Rule roots are canonicalized once, when the
 * ScopedFs is created: a rule naming a symbolic link covers where the link pointed then; a rule
 * whose path runs into a link loop covers nothing.
 *
 * Residual risk (time of check to time of use): between the decision and the operation another
 * process could swap a directory on the real path for a symbolic link. Reads open with
 * O_NOFOLLOW, so a swapped last component fails instead of being followed; writes create the
 * temporary file with O_EXCL, check that the parent directory is still the real one just before
 * the rename, and rename never follows a link in the last component. A swap of a parent directory
 * within that window is not prevented: doing so needs openat2(RESOLVE_BENEATH), which Node does not
 * offer. Hard links are not detectable either: a hard link inside the scope to a file outside reads
 * that file (writes replace the link, leaving the outside file untouched).
 */
export class ScopedFs {
  private constructor(
    /** The canonical project root. */
    readonly root: string,
    private readonly allowRules: readonly CompiledRule[],
    private readonly denyRules: readonly CompiledRule[],
    private readonly secretFileOf: ReturnType<typeof compileSecretFiles>,
  ) {}

  static async create(scope: Scope, options: ScopedFsOptions = {}): Promise<ScopedFs> {
    const root = (await canonicalize(path.resolve(scope.root))).real;
    const probes = new Map<string, Promise<boolean>>();
    const caseInsensitive = (canonical: string): Promise<boolean> => {
      if (options.caseInsensitive !== undefined) return Promise.resolve(options.caseInsensitive);
      let probe = probes.get(canonical);
      if (probe === undefined) {
        probe = isCaseInsensitiveAt(canonical);
        probes.set(canonical, probe);
      }
      return probe;
    };
    const compile = async (kind: RuleKind, rule: ScopeRule): Promise<CompiledRule> => {
      const canonical = await canonicalRuleRoot(path.resolve(root, rule.path));
      const fold = await caseInsensitive(canonical);
      return {
        kind,
        rule,
        recursive: rule.recursive,
        key: fold ? foldCase(canonical) : canonical,
        foldCase: fold,
      };
    };
    const allow = await Promise.all(scope.allow.map((rule) => compile("allow", rule)));
    const deny = await Promise.all(scope.deny.map((rule) => compile("deny", rule)));
    return new ScopedFs(root, allow, deny, compileSecretFiles(scope.secretFiles ?? []));
  }

  /**
   * Decides on a path that is already canonical (from `resolve`, or a directory walk below a
   * resolved directory that does not follow links). Deny rules win; a write needs an allow rule
   * with write access.
   */
  decide(realPath: string, access: Access): ScopeDecision {
    const secret = this.secretFileOf(realPath);
    if (secret !== undefined) return { allowed: false, refusal: { reason: "secret", rule: secret } };
    for (const deny of this.denyRules) {
      if (denyRefuses(deny.rule.access, access) && covers(deny, realPath)) {
        return { allowed: false, refusal: { reason: "denied", rule: deny.rule } };
      }
    }
    let readOnly: ScopeRule | undefined;
    for (const allow of this.allowRules) {
      if (!covers(allow, realPath)) continue;
      if (allowGrants(allow.rule.access, access)) return { allowed: true, rule: allow.rule };
      readOnly ??= allow.rule;
    }
    if (readOnly !== undefined) return { allowed: false, refusal: { reason: "read-only", rule: readOnly } };
    return { allowed: false, refusal: { reason: "outside", allowRules: this.allowRules.map((a) => a.rule) } };
  }

  /** `decide(realPath, access).allowed`. */
  permits(realPath: string, access: Access): boolean {
    return this.decide(realPath, access).allowed;
  }

  /** The canonical path `requestedPath` leads to, or a ScopeError naming the rule that refused it. */
  async resolve(requestedPath: string, access: Access): Promise<string> {
    return (await this.locate(requestedPath, access)).real;
  }

  /** `resolve(requestedPath, "read")`. */
  async realpath(requestedPath: string): Promise<string> {
    return this.resolve(requestedPath, "read");
  }

  /** A canonical path as tools show it: relative to the project root when inside it. */
  displayPath(realPath: string): string {
    if (realPath === this.root) return ".";
    return pathCovers(this.root, true, realPath) ? path.relative(this.root, realPath) : realPath;
  }

  /** Whether something readable exists there. Out-of-scope paths are refused, not reported missing. */
  async exists(requestedPath: string): Promise<boolean> {
    return (await this.locate(requestedPath, "read")).exists;
  }

  async stat(requestedPath: string): Promise<FileInfo> {
    const { real } = await this.locate(requestedPath, "read");
    const stats = await stat(real);
    return { realPath: real, type: entryTypeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
  }

  /** The entries the scope lets the caller read, sorted by name. Links are listed, not followed. */
  async readdir(requestedPath: string): Promise<DirEntry[]> {
    const { real } = await this.locate(requestedPath, "read");
    const entries = await readdir(real, { withFileTypes: true });
    const visible: DirEntry[] = [];
    for (const entry of entries) {
      if (!this.permits(path.join(real, entry.name), "read")) continue;
      visible.push({ name: entry.name, type: entryTypeOf(entry) });
    }
    return visible.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A whole regular file as UTF-8 text (invalid sequences become U+FFFD). */
  async readFile(requestedPath: string): Promise<string> {
    return (await this.readFileBytes(requestedPath)).toString("utf8");
  }

  /** A whole regular file. */
  async readFileBytes(requestedPath: string): Promise<Buffer> {
    return this.withReadableFile(requestedPath, (handle) => handle.readFile());
  }

  /** At most `maxBytes` from the start of a regular file, and its total size. */
  async readFilePrefix(requestedPath: string, maxBytes: number): Promise<FilePrefix> {
    return this.withReadableFile(requestedPath, async (handle, stats) => {
      const wanted = Math.max(0, Math.min(maxBytes, stats.size));
      const buffer = Buffer.alloc(wanted);
      let filled = 0;
      while (filled < wanted) {
        const { bytesRead } = await handle.read(buffer, filled, wanted - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: buffer.subarray(0, filled), totalBytes: stats.size };
    });
  }

  /**
   * Replaces or creates a file atomically: the data goes to a temporary file beside the target,
   * which is then renamed over it, so readers see the old content or the new, never a mix.
   * Missing parent directories are created when the scope grants write on each of them. An
   * existing file keeps its permission bits. Returns the canonical path written.
   */
  async writeFile(requestedPath: string, data: string | Uint8Array): Promise<string> {
    const target = await this.locate(requestedPath, "write");
    const directory = path.dirname(target.real);
    await this.createDirectories(requestedPath, directory);

    const previousMode = target.exists ? await regularFileMode(target.real) : undefined;
    const stem = path.basename(target.real).slice(0, TEMP_NAME_STEM);
    const temporary = path.join(directory, `.${stem}.${randomBytes(6).toString("hex")}.tmp`);
    const handle = await open(temporary, "wx", 0o666);
    try {
      try {
        if (previousMode !== undefined) await handle.chmod(previousMode);
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Narrows the check-to-use window: the directory must still be the real one we decided on.
      if ((await realpath(directory)) !== directory) {
        throw new Error(
          `write of ${JSON.stringify(requestedPath)} aborted: ${directory} changed during the write`,
        );
      }
      await rename(temporary, target.real);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
    return target.real;
  }

  private async locate(requestedPath: string, access: Access): Promise<Located> {
    if (requestedPath.includes("\0"))
      throw new TypeError(`path ${JSON.stringify(requestedPath)} contains a NUL byte`);
    const lexical = path.resolve(this.root, requestedPath);
    const { real, exists } = await canonicalize(lexical);
    const decision = this.decide(real, access);
    if (!decision.allowed) {
      throw new ScopeError({
        requestedPath,
        realPath: real,
        redirected: real !== lexical,
        access,
        refusal: decision.refusal,
      });
    }
    return { real, exists };
  }

  private async withReadableFile<T>(
    requestedPath: string,
    use: (handle: FileHandle, stats: Stats) => Promise<T>,
  ): Promise<T> {
    const { real } = await this.locate(requestedPath, "read");
    const handle = await open(real, READ_FLAGS);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw notRegularFile(real, stats);
      return await use(handle, stats);
    } finally {
      await handle.close();
    }
  }

  /** Checks every missing directory against the scope before creating any, so a refusal leaves nothing behind. */
  private async createDirectories(requestedPath: string, directory: string): Promise<void> {
    const missing: string[] = [];
    for (let current = directory; ; ) {
      const stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      if (stats !== undefined) {
        if (!stats.isDirectory()) throw errnoError("ENOTDIR", `not a directory: ${current}`, current);
        break;
      }
      missing.push(current);
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    missing.reverse();
    for (const dir of missing) {
      const decision = this.decide(dir, "write");
      if (!decision.allowed) {
        throw new ScopeError({
          requestedPath,
          realPath: dir,
          redirected: false,
          access: "write",
          refusal: decision.refusal,
          role: "parent directory",
        });
      }
    }
    for (const dir of missing) {
      // Not recursive: if something appeared meanwhile it must be a real directory, not a link.
      await mkdir(dir).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST" || !(await lstat(dir)).isDirectory()) throw error;
      });
    }
  }
}

/**
 * A rule root through a link loop stays lexical: no canonical path passes through a link, so such
 * a rule covers nothing, which is what it can mean. Other failures (permissions) fail closed.
 */
async function canonicalRuleRoot(absolute: string): Promise<string> {
  try {
    return (await canonicalize(absolute)).real;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return absolute;
    throw error;
  }
}

function covers(rule: CompiledRule, realPath: string): boolean {
  return pathCovers(rule.key, rule.recursive, rule.foldCase ? foldCase(realPath) : realPath);
}

function entryTypeOf(entry: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): EntryType {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  if (entry.isSymbolicLink()) return "symlink";
  return "other";
}

async function regularFileMode(realPath: string): Promise<number | undefined> {
  const stats = await stat(realPath);
  return stats.isFile() ? stats.mode & 0o7777 : undefined;
}

function notRegularFile(realPath: string, stats: Stats): NodeJS.ErrnoException {
  return stats.isDirectory()
    ? errnoError("EISDIR", `is a directory: ${realPath}`, realPath)
    : errnoError("EINVAL", `not a regular file: ${realPath}`, realPath);
}

function errnoError(code: string, message: string, errorPath: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${message}`);
  error.code = code;
  error.path = errorPath;
  return error;
}
