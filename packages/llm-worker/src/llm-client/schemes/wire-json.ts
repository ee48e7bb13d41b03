/** Small helpers every scheme needs for reading and writing JSON on the wire. */

/** A short quote of a malformed frame, so an error message stays readable. */
export function excerpt(data: string, length = 120): string {
  return data.length <= length ? data : `${data.slice(0, length)}…`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A field that should be text, when it is; anything else reads as absent. */
export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A field that should be a number (a token count, an index), when it is; else absent. */
export function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === "string");
}

/**
 * Tool-call arguments as an object, for providers that take an object rather than JSON text.
 * Text that is not a JSON object (the model wrote invalid JSON, possibly under another provider)
 * becomes `{}`: the error result that followed already told the model what was wrong.
 */
export function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}
