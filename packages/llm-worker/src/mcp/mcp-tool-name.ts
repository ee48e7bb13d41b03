/**
 * The names the model sees for an MCP server's tools: `<server>__<tool>`, within the tool-name
 * charset every provider accepts (`^[a-zA-Z0-9_-]{1,64}$`, OpenAI's and Anthropic's rule).
 */

/** The longest tool name the providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** Between the server name and the tool name. */
export const MCP_NAME_SEPARATOR = "__";
/** The longest server name: leaves at least 30 characters for the tool's own name. */
export const MAX_SERVER_NAME_LENGTH = 32;

/** Characters of the hash that tells apart names that were cut or changed into the same one. */
const HASH_LENGTH = 8;

/** True for a server name usable as a prefix as it is: 1 to 32 of `a-z A-Z 0-9 _ -`. */
export function isValidServerName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_SERVER_NAME_LENGTH && isToolNameCharset(name);
}

/**
 * The exposed name of each of a server's tools, keyed by the tool's MCP name.
 *
 * - Characters outside `a-z A-Z 0-9 _ -` become `_` (`files.read` → `fs__files_read`).
 * - A name over 64 characters is cut and ends with `_` and 8 hex digits of a hash of the MCP name.
 * - Two MCP names that become the same name (`a.b` and `a b`): a name that needed no change keeps
 *   it, the others get the hash suffix. The result does not depend on the order of the listing,
 *   so a refresh that reorders the tools renames none of them.
 */
export function mcpToolNames(server: string, toolNames: readonly string[]): Map<string, string> {
  const byBase = new Map<string, string[]>();
  for (const original of toolNames) {
    const base = `${server}${MCP_NAME_SEPARATOR}${sanitize(original)}`;
    const group = byBase.get(base);
    if (group) group.push(original);
    else byBase.set(base, [original]);
  }

  // Names that need no hash are given out first, so that they never depend on the listing's order.
  const plain: [string, string][] = [];
  const hashed: [string, string][] = [];
  for (const [base, group] of byBase) {
    for (const original of group) {
      const keepsBase =
        base.length <= MAX_TOOL_NAME_LENGTH && (group.length === 1 || isToolNameCharset(original));
      if (keepsBase) plain.push([original, base]);
      else hashed.push([original, withHash(base, original)]);
    }
  }
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const [original, wanted] of [...plain, ...hashed]) {
    const name = unique(wanted, taken);
    taken.add(name);
    names.set(original, name);
  }
  return names;
}

function isToolNameCharset(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (!isNameChar(name.charCodeAt(i))) return false;
  return true;
}

function isNameChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 95 || // _
    code === 45 // -
  );
}

function sanitize(name: string): string {
  if (isToolNameCharset(name)) return name;
  let out = "";
  for (let i = 0; i < name.length; i++) out += isNameChar(name.charCodeAt(i)) ? name.charAt(i) : "_";
  return out;
}

function withHash(base: string, original: string): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${fnv1a(original)}`;
}

/**
 * A name no other tool of the listing holds. Only a tool literally named like another's hashed
 * name gets here (a one-in-four-billion case); a counter keeps the names apart anyway.
 */
function unique(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** FNV-1a over the UTF-16 code units: 8 hex digits, stable across runs and platforms. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, "0");
}
