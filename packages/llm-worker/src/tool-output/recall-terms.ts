/**
 * The terms of a user message worth looking up in the session's stored outputs: names, not words.
 * A plain word ("lease", "report") matches thousands of lines of any codebase and would fill a
 * recall with noise; an identifier a person copies into a message (`MAX_INFLIGHT_LEASES`,
 * `lease_renewal_region`, `fetchRecord`, `src/net/lease.ts`), a number of three digits or more
 * (`3172`, an id or a port) or a quoted string names one thing.
 */

/** Most terms taken from one message: a pasted stack trace must not become a hundred lookups. */
export const MAX_RECALL_TERMS = 8;

/** A quote opens only where a word does not go on: the apostrophes of "don't" and "lease's" do not. */
const QUOTED = /(?<![A-Za-z0-9])[`"']([^`"'\n]{3,80})[`"'](?![A-Za-z0-9])/g;
const TOKEN = /[A-Za-z0-9_$][A-Za-z0-9_$./-]*[A-Za-z0-9_$]/g;

/** Whether a bare token is a name rather than a word: see the module comment. */
function isName(token: string): boolean {
  if (/^\d+$/.test(token)) return token.length >= 3;
  if (token.length < 4) return false;
  if (/[_$]/.test(token) && /[A-Za-z]/.test(token)) return true;
  if (/[A-Za-z]/.test(token) && /\d/.test(token)) return true;
  if (/[a-z][A-Z]/.test(token)) return true;
  if (/^[A-Z]{4,}$/.test(token)) return true;
  // A path or a dotted name: a slash, or a dot between letters (not a sentence's full stop).
  return /[A-Za-z]\/[A-Za-z]|[a-z]\.[a-z]/i.test(token);
}

/** The names in `message`, quoted strings first, in order, without repeats; at most `MAX_RECALL_TERMS`. */
export function recallTerms(message: string): string[] {
  const terms: string[] = [];
  const add = (term: string): void => {
    if (!terms.includes(term) && terms.length < MAX_RECALL_TERMS) terms.push(term);
  };
  for (const match of message.matchAll(QUOTED)) {
    const quoted = (match[1] ?? "").trim();
    if (quoted.length >= 3) add(quoted);
  }
  for (const match of message.matchAll(TOKEN)) {
    const token = match[0].replace(/[.]+$/, "");
    if (isName(token)) add(token);
  }
  return terms;
}

/**
 * Whether `text` contains `term` as a whole name: not inside a longer identifier or number
 * (`3172` is not found in `131720`, `LEASE` not in `MAX_LEASES`). Case-sensitive: names are.
 */
export function containsName(text: string, term: string): boolean {
  return nameIndex(text, term, 0) !== -1;
}

/** The index of the first whole-name occurrence of `term` in `text` at or after `from`, or -1. */
export function nameIndex(text: string, term: string, from: number): number {
  for (let at = text.indexOf(term, from); at !== -1; at = text.indexOf(term, at + 1)) {
    const before = at === 0 ? "" : text.charAt(at - 1);
    const after = text.charAt(at + term.length);
    if (!isNameChar(before, term.charAt(0)) && !isNameChar(after, term.charAt(term.length - 1))) return at;
  }
  return -1;
}

/** Whether `neighbour` would extend a name whose edge character is `edge`. */
function isNameChar(neighbour: string, edge: string): boolean {
  if (neighbour === "") return false;
  if (/\d/.test(edge)) return /[A-Za-z0-9_]/.test(neighbour);
  return /[A-Za-z0-9_$]/.test(neighbour) && /[A-Za-z0-9_$]/.test(edge);
}
