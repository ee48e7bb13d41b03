import type { Dirent, Stats } from "node:fs";
import { type FileHandle, readdir } from "node:fs/promises";
import path from "node:path";
import { errnoError, holdDirectory, writeAtomically } from "./atomic-write.js";
import { canonicalize } from "./canonical-path.js";
import { foldCase, isCaseInsensitiveAt } from "./case-sensitivity.js";
import { isInsideRepositoryFiles, NESTED_REPOSITORY_RULE } from "./repository-files.js";
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
import {
  DIRECTORY_FLAGS,
  inDirectory,
  OpenedElsewhereError,
  openVerified,
  PATH_ONLY_FLAGS,
  READ_FILE_FLAGS,
  type VerifiedHandle,
} from "./verified-open.js";

export interface ScopedFsOptions {
  /**
   * Compare paths case-folded (`true`) or exactly (`false`) instead of probing each rule's file
   * system. For tests and for file systems the probe cannot read.
   */
  caseInsensitive?: boolean;
  /**
   * Read and write files that have more than one hard link (default `false`: refused, since
   * another name of such a file may be outside the scope). The manifest's `[scope] hard_links`.
   */
  allowHardLinks?: boolean;
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

/** A regular file open for reading, verified to be at `realPath` (see `ScopedFs.openReadableFile`). */
export interface ReadableFile {
  handle: FileHandle;
  stats: Stats;
  realPath: string;
  close(): Promise<void>;
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
 * The only way a tool or a resolver touches the disk. Every operation canonicalizes its path
 * first (`..`, symbolic links, including dangling ones and links among the parents, and case on
 * case-insensitive file systems) and decides on that real path with the scope rules. It then opens
 * the real path with O_NOFOLLOW and asks the kernel where the opened file is (`/proc/self/fd/N`,
 * see `verified-open.ts`): anything but the path decided on is closed unread and refused
 * ("changed"), so a directory swapped for a link between the check and the use cannot redirect
 * it. Content is read only through the verified fd; writes create their temporary file and rename
 * it inside a verified directory fd (`atomic-write.ts`). Files with more than one hard link are
 * refused for reading and writing unless `allowHardLinks`.
 *
 * Relative paths are relative to the project root. Rule roots are canonicalized once, when the
 * ScopedFs is created: a rule naming a symbolic link covers where the link pointed then; a rule
 * whose path runs into a link loop covers nothing.
 *
 * Where `/proc/self/fd` is missing (macOS, Linux without /proc) every file operation is refused.
 * `resolve`, `exists` and `decide` only check paths: they open nothing, and what they answer can
 * be stale a moment later.
 */
export class ScopedFs {
  private constructor(
    /** The canonical project root. */
    readonly root: string,
    private readonly allowRules: readonly CompiledRule[],
    private readonly denyRules: readonly CompiledRule[],
    private readonly allowHardLinks: boolean,
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
    return new ScopedFs(
      root,
      allow,
      deny,
      options.allowHardLinks ?? false,
      compileSecretFiles(scope.secretFiles ?? []),
    );
  }

  /**
   * Decides on a path that is already canonical (from `resolve`, or a directory walk below a
   * resolved directory that does not follow links). Deny rules win; a write into a `.git` at any
   * depth is refused (`NESTED_REPOSITORY_RULE`); a write needs an allow rule with write access.
   */
  decide(realPath: string, access: Access): ScopeDecision {
    const secret = this.secretFileOf(realPath);
    if (secret !== undefined) return { allowed: false, refusal: { reason: "secret", rule: secret } };
    for (const deny of this.denyRules) {
      if (denyRefuses(deny.rule.access, access) && covers(deny, realPath)) {
        return { allowed: false, refusal: { reason: "denied", rule: deny.rule } };
      }
    }
    // After the configured rules, so that the top `.git` is refused by its own.
    if (access === "write" && isInsideRepositoryFiles(realPath))
      return { allowed: false, refusal: { reason: "denied", rule: NESTED_REPOSITORY_RULE } };
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

  /** Type, size and times of what the path leads to, from the verified open file (not followed, not read). */
  async stat(requestedPath: string): Promise<FileInfo> {
    const { real } = await this.locate(requestedPath, "read");
    const { handle, stats } = await this.open(requestedPath, "read", real, PATH_ONLY_FLAGS);
    await handle.close();
    return { realPath: real, type: entryTypeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
  }

  /** The entries the scope lets the caller read, sorted by name. Links are listed, not followed. */
  async readdir(requestedPath: string): Promise<DirEntry[]> {
    const { real } = await this.locate(requestedPath, "read");
    const { handle } = await this.open(requestedPath, "read", real, DIRECTORY_FLAGS);
    let entries: Dirent[];
    try {
      // Listed through the fd: the directory verified, wherever its path leads now.
      entries = await readdir(inDirectory(handle, "."), { withFileTypes: true });
    } finally {
      await handle.close();
    }
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
   * Opens a regular file for reading: the handle is verified to be the file at the real path the
   * scope allowed (see the class comment), and refused if it has more than one hard link. The
   * caller must `close` it. For a child process that must read exactly this file, pass
   * `handle.fd` in its stdio (it opens `/dev/fd/<n>`, never the path).
   */
  async openReadableFile(requestedPath: string): Promise<ReadableFile> {
    const { real } = await this.locate(requestedPath, "read");
    const { handle, stats } = await this.open(requestedPath, "read", real, READ_FILE_FLAGS);
    try {
      if (!stats.isFile()) throw notRegularFile(real, stats);
      this.requireSingleLink(requestedPath, real, "read", stats.nlink);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return { handle, stats, realPath: real, close: () => handle.close() };
  }

  private async withReadableFile<T>(
    requestedPath: string,
    use: (handle: FileHandle, stats: Stats) => Promise<T>,
  ): Promise<T> {
    const file = await this.openReadableFile(requestedPath);
    try {
      return await use(file.handle, file.stats);
    } finally {
      await file.close();
    }
  }

  /**
   * Replaces or creates a file atomically: the data goes to a temporary file beside the target,
   * which is then renamed over it, so readers see the old content or the new, never a mix.
   * Missing parent directories are created when the scope grants write on each of them. An
   * existing file keeps its permission bits. Returns the canonical path written. Every step
   * happens inside directories verified through their fds (`atomic-write.ts`): a directory
   * swapped for a link on the way fails the write, leaving nothing behind.
   */
  async writeFile(requestedPath: string, data: string | Uint8Array): Promise<string> {
    const target = await this.locate(requestedPath, "write");
    return this.verifying(requestedPath, "write", target.real, async () => {
      const directory = await holdDirectory(path.dirname(target.real), (missing) =>
        this.requireCreatable(requestedPath, missing),
      );
      try {
        return await writeAtomically(directory, path.basename(target.real), data, {
          ...(!this.allowHardLinks && {
            refuseHardLinks: (links: number) =>
              this.hardLinkRefusal(requestedPath, target.real, "write", links),
          }),
          permitsWrite: (landed) => this.permits(landed, "write"),
        });
      } finally {
        await directory.handle.close();
      }
    });
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

  /** Opens the canonical `real` with `flags` and verifies it is what was opened (see `openVerified`). */
  private open(requestedPath: string, access: Access, real: string, flags: number): Promise<VerifiedHandle> {
    return this.verifying(requestedPath, access, real, () => openVerified(real, real, flags));
  }

  /** Runs `operation`, turning "what was opened is elsewhere" into the scope's refusal. */
  private async verifying<T>(
    requestedPath: string,
    access: Access,
    real: string,
    operation: () => Promise<T>,
  ): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof OpenedElsewhereError)) throw error;
      throw new ScopeError({
        requestedPath,
        realPath: real,
        redirected: false,
        access,
        refusal: { reason: "changed", openedPath: error.opened },
      });
    }
  }

  private requireSingleLink(requestedPath: string, real: string, access: Access, links: number): void {
    if (links > 1 && !this.allowHardLinks) throw this.hardLinkRefusal(requestedPath, real, access, links);
  }

  private hardLinkRefusal(requestedPath: string, real: string, access: Access, links: number): ScopeError {
    return new ScopeError({
      requestedPath,
      realPath: real,
      redirected: false,
      access,
      refusal: { reason: "hard-link", links },
    });
  }

  /** A directory a write must create needs write access itself; checked for all before any is made. */
  private requireCreatable(requestedPath: string, directory: string): void {
    const decision = this.decide(directory, "write");
    if (decision.allowed) return;
    throw new ScopeError({
      requestedPath,
      realPath: directory,
      redirected: false,
      access: "write",
      refusal: decision.refusal,
      role: "parent directory",
    });
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

function notRegularFile(realPath: string, stats: Stats): NodeJS.ErrnoException {
  return stats.isDirectory()
    ? errnoError("EISDIR", `is a directory: ${realPath}`, realPath)
    : errnoError("EINVAL", `not a regular file: ${realPath}`, realPath);
}
