/**
 * Words that make a key secret-bearing wherever they appear in its name (`apiKey`, `x-api-key`,
 * `ACCESS_TOKEN`, `Authorization`, `headers`). Matched as whole words, so `maxOutputTokens` or
 * `monkey` stay: a plural `tokens` is a count, not a credential.
 */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  "key",
  "keys",
  "apikey",
  "token",
  "secret",
  "secrets",
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "authorization",
  "auth",
  "credential",
  "credentials",
  "cookie",
  "cookies",
  "header",
  "headers",
  "bearer",
]);

/** Schemes whose values carry a credential in clear after them. */
const CREDENTIAL_PREFIXES = ["bearer ", "basic "];

/** Strings worth parsing as URLs (to strip credentials from them). */
const URL_PREFIXES = ["http://", "https://", "ws://", "wss://"];

/** What `redactSecrets` kept, and the paths it dropped (`model.apiKeyEnv`, `headers`, `model.baseURL?key`). */
export interface Redacted<T> {
  value: T;
  dropped: string[];
}

/** Whether a key's name says it holds a secret or header values; see `SECRET_WORDS`. */
export function isSecretKey(key: string): boolean {
  for (const word of wordsOf(key)) if (SECRET_WORDS.has(word)) return true;
  return false;
}

/**
 * A deep copy of `value` without anything that could be a credential, for the `session_start`
 * entry (the log is plain text on disk and outlives the process):
 *
 * - an object key named like a secret (see `isSecretKey`) is dropped with everything under it.
 *   Names decide, not values: even `apiKeyEnv`, which holds a variable's name and not the key, goes
 *   — losing a harmless name is cheaper than ever keeping a key;
 * - a URL loses its user and password, and query parameters named like a secret (Gemini's `?key=`);
 * - a string that starts with `Bearer ` or `Basic ` is dropped.
 *
 * Only plain data survives: functions, symbols and `undefined` are dropped as JSON would drop them.
 */
export function redactSecrets<T>(value: T): Redacted<T> {
  const dropped: string[] = [];
  const kept = redactValue(value, "", dropped);
  return { value: kept as T, dropped };
}

function redactValue(value: unknown, path: string, dropped: string[]): unknown {
  if (typeof value === "string") return redactString(value, path, dropped);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((element, index) => {
      const kept = redactValue(element, `${path}[${index}]`, dropped);
      if (kept !== undefined) out.push(kept);
    });
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = path === "" ? key : `${path}.${key}`;
    if (isSecretKey(key)) {
      dropped.push(fieldPath);
      continue;
    }
    const kept = redactValue(field, fieldPath, dropped);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

function redactString(value: string, path: string, dropped: string[]): string | undefined {
  const lower = value.slice(0, 8).toLowerCase();
  if (CREDENTIAL_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
    dropped.push(path);
    return undefined;
  }
  if (!URL_PREFIXES.some((prefix) => lower.startsWith(prefix))) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  let changed = false;
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
    dropped.push(`${path}@userinfo`);
    changed = true;
  }
  for (const name of [...url.searchParams.keys()]) {
    if (!isSecretKey(name)) continue;
    url.searchParams.delete(name);
    dropped.push(`${path}?${name}`);
    changed = true;
  }
  return changed ? url.toString() : value;
}

/** `x-api-key` → x, api, key; `APIKey` → api, key; `accessToken` → access, token. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}
