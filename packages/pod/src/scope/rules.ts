import path from "node:path";

/** What an operation needs: `read` (read a file, list a directory, stat) or `write` (create, replace). */
export type Access = "read" | "write";

/** Whether a rule widens the scope (`allow`) or cuts a hole in it (`deny`). */
export type RuleKind = "allow" | "deny";

/**
 * One scope rule as configured.
 *
 * - An allow rule with access `read` grants reading; with `write` it grants writing *and* reading
 *   (a file the agent may replace is one it may see: editing needs a read first).
 * - A deny rule with access `read` refuses everything (what may not be seen may not be written
 *   either); with `write` it refuses writes only, leaving the path readable.
 *
 * Effective permission = allow minus deny: a deny rule always wins over an allow rule.
 */
export interface ScopeRule {
  /** Relative to the project root, or absolute. Symbolic links in it are resolved when the ScopedFs is built. */
  path: string;
  access: Access;
  /** `true`: the path and everything below it. `false`: the path itself and its direct children only. */
  recursive: boolean;
  /** Where the rule came from (a manifest file, `defaults`, `overrides`), quoted in refusals. */
  source?: string;
}

/**
 * A file-name pattern (`*` any run of characters, `?` one, case ignored) of files that are never
 * read nor written wherever they are: a deny rule by name rather than by place (`.env`, `*.pem`).
 */
export interface SecretFileRule {
  pattern: string;
  /** Where the pattern came from, quoted in refusals. */
  source?: string;
}

/** The scope of one Pod: the project root that relative paths start from, and its rules. */
export interface Scope {
  /** Absolute path of the project root. */
  root: string;
  allow: readonly ScopeRule[];
  deny: readonly ScopeRule[];
  /** Names refused in every directory, above every allow rule; absent: none. */
  secretFiles?: readonly SecretFileRule[];
}

/** Does an allow rule with `granted` access permit an operation that needs `wanted`? */
export function allowGrants(granted: Access, wanted: Access): boolean {
  return granted === "write" || wanted === "read";
}

/** Does a deny rule with `denied` access refuse an operation that needs `wanted`? */
export function denyRefuses(denied: Access, wanted: Access): boolean {
  return denied === "read" || wanted === "write";
}

/**
 * Whether a rule rooted at `root` covers `target`. Both must be canonical absolute paths (no `..`,
 * no symbolic links, the same case folding): this is a string comparison, nothing more.
 */
export function pathCovers(root: string, recursive: boolean, target: string): boolean {
  if (target === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (!target.startsWith(prefix)) return false;
  return recursive || !target.includes(path.sep, prefix.length);
}

/** A rule as a refusal message quotes it: `deny write ".git" (recursive, from defaults)`. */
export function describeRule(kind: RuleKind, rule: ScopeRule): string {
  const details = [rule.recursive ? "recursive" : "not recursive"];
  if (rule.source !== undefined) details.push(`from ${rule.source}`);
  return `${kind} ${rule.access} ${JSON.stringify(rule.path)} (${details.join(", ")})`;
}
