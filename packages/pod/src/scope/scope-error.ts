import { type Access, describeRule, type ScopeRule, type SecretFileRule } from "./rules.js";

/**
 * Why an operation was refused: a deny rule covers the real path, only a read rule covers it and a
 * write was asked for, no allow rule covers it at all, what was opened turned out not to be at the
 * path decided on (another process moved a directory or link in between), or the file has more
 * than one hard link (another of its names may be outside the scope).
 */
export type ScopeRefusal =
  | { reason: "denied"; rule: ScopeRule }
  | { reason: "secret"; rule: SecretFileRule }
  | { reason: "read-only"; rule: ScopeRule }
  | { reason: "outside"; allowRules: readonly ScopeRule[] }
  | { reason: "changed"; openedPath: string }
  | { reason: "hard-link"; links: number };

export interface ScopeErrorDetails {
  /** The path as the caller gave it. */
  requestedPath: string;
  /** The canonical path the decision was made on (symbolic links, `..` and case resolved). */
  realPath: string;
  /** Whether `requestedPath` leads somewhere else than it reads (through a symbolic link). */
  redirected: boolean;
  access: Access;
  refusal: ScopeRefusal;
  /** Set when the refused path is not the target itself, e.g. a parent directory a write must create. */
  role?: "parent directory";
}

/**
 * A refusal by the scope. Its message names the path asked for, the real path decided on and the
 * rule that applied, so a tool can hand it to the model as is.
 */
export class ScopeError extends Error {
  readonly code = "ESCOPE";
  readonly requestedPath: string;
  readonly realPath: string;
  readonly access: Access;
  readonly refusal: ScopeRefusal;

  constructor(details: ScopeErrorDetails) {
    super(composeMessage(details));
    this.name = "ScopeError";
    this.requestedPath = details.requestedPath;
    this.realPath = details.realPath;
    this.access = details.access;
    this.refusal = details.refusal;
  }
}

/** Past this many rules the "outside" message stops listing them: the point is a hint, not a dump. */
const LISTED_RULES = 4;

function composeMessage(details: ScopeErrorDetails): string {
  const { requestedPath, realPath, redirected, access, refusal, role } = details;
  const quoted = JSON.stringify(requestedPath);
  let subject: string;
  if (role === "parent directory") subject = `${quoted} needs the directory ${realPath} created, which`;
  else if (redirected) subject = `${quoted} resolves to ${realPath}, which`;
  else subject = `${quoted} (${realPath})`;
  const head = `${access} refused: ${subject}`;
  switch (refusal.reason) {
    case "denied":
      return `${head} is covered by ${describeRule("deny", refusal.rule)}`;
    case "secret": {
      const from = refusal.rule.source === undefined ? "" : `, from ${refusal.rule.source}`;
      return `${head} is a secret file (it matches ${JSON.stringify(refusal.rule.pattern)} of scope.secret_files${from})`;
    }
    case "read-only":
      return `${head} is read-only under ${describeRule("allow", refusal.rule)}; no allow rule grants write`;
    case "outside": {
      const rules = refusal.allowRules.slice(0, LISTED_RULES).map((rule) => describeRule("allow", rule));
      if (refusal.allowRules.length > LISTED_RULES) rules.push("…");
      const listing = rules.length === 0 ? "there are no allow rules" : `allow rules: ${rules.join("; ")}`;
      return `${head} is outside the scope (no allow rule covers it; ${listing})`;
    }
    case "changed":
      return `${head} changed while it was being opened: what was opened is ${refusal.openedPath} (another process is moving files or links there)`;
    case "hard-link":
      return `${head} has ${refusal.links} hard links, and another of its names may be outside the scope (a trusted manifest may allow this with [scope] hard_links = true)`;
  }
}
