import type { JsonValue } from "../tool/tool-output.js";
import { utf8Length } from "./utf8.js";

/** The JSON type of a value, in the names a summary shows. */
export type JsonTypeName = "string" | "number" | "boolean" | "null" | "array" | "object";

export function jsonTypeOf(value: JsonValue): JsonTypeName {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "object";
  }
}

export function isJsonObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Type and size: `array (120 entries)`, `object (4 keys)`, `string (52 bytes)`; scalars other
 * than strings have no size worth a word (`number`, `boolean`, `null`).
 */
export function describeJson(value: JsonValue): string {
  if (Array.isArray(value)) return `array (${value.length} ${value.length === 1 ? "entry" : "entries"})`;
  if (isJsonObject(value)) {
    const count = Object.keys(value).length;
    return `object (${count} ${count === 1 ? "key" : "keys"})`;
  }
  if (typeof value === "string") {
    const bytes = utf8Length(value);
    return `string (${bytes} ${bytes === 1 ? "byte" : "bytes"})`;
  }
  return jsonTypeOf(value);
}

/** `describeJson` as a phrase after "is": `an array (3 entries)`, `a string (5 bytes)`, `null`. */
export function describeJsonWithArticle(value: JsonValue): string {
  if (value === null) return "null";
  const description = describeJson(value);
  return /^[ao]/.test(description) ? `an ${description}` : `a ${description}`;
}
