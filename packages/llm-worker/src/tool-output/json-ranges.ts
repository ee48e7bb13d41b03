import type { JsonValue } from "../tool/tool-output.js";
import { isJsonObject, type JsonTypeName, jsonTypeOf } from "./json-describe.js";
import { cutToBytes } from "./utf8.js";

/**
 * The ranges of the values under each key of a JSON array of objects, for the schema section of
 * its summary: `amount_cents: number 0..249990`, `plan: string free|team|business`,
 * `created_at: string "2024-01-01".."2024-12-28"`, `tags: array 0..3 entries`. A model asking
 * "which ids", "how large", "which states" is answered from the summary, where the seed's
 * `key: type` would send it to `inspect`.
 */

/** A key with at most this many distinct string values lists them all. */
const ENUM_VALUES = 5;
/** How much of a string bound is shown. */
const BOUND_BYTES = 24;
/** Entries looked at: enough for any range worth showing, bounded for a huge array. */
const SCANNED_ENTRIES = 100_000;

interface KeyStats {
  types: Set<JsonTypeName>;
  min?: number;
  max?: number;
  lowest?: string;
  highest?: string;
  distinct: Set<string>;
  minLength?: number;
  maxLength?: number;
}

function statsOf(entries: readonly JsonValue[], key: string): KeyStats {
  const stats: KeyStats = { types: new Set(), distinct: new Set() };
  const scanned = Math.min(entries.length, SCANNED_ENTRIES);
  for (let i = 0; i < scanned; i++) {
    const entry = entries[i];
    if (entry === undefined || !isJsonObject(entry) || !(key in entry)) continue;
    const value = entry[key] ?? null;
    stats.types.add(jsonTypeOf(value));
    if (typeof value === "number") {
      stats.min = Math.min(stats.min ?? value, value);
      stats.max = Math.max(stats.max ?? value, value);
    } else if (typeof value === "string") {
      if (stats.lowest === undefined || value < stats.lowest) stats.lowest = value;
      if (stats.highest === undefined || value > stats.highest) stats.highest = value;
      if (stats.distinct.size <= ENUM_VALUES) stats.distinct.add(value);
    } else if (Array.isArray(value)) {
      stats.minLength = Math.min(stats.minLength ?? value.length, value.length);
      stats.maxLength = Math.max(stats.maxLength ?? value.length, value.length);
    }
  }
  return stats;
}

const span = (low: string, high: string): string => (low === high ? low : `${low}..${high}`);

/** `key: <types> <ranges>` for one key of the entries' objects. */
export function keyRange(entries: readonly JsonValue[], key: string): string {
  const stats = statsOf(entries, key);
  const parts = [[...stats.types].join("|")];
  if (stats.min !== undefined && stats.max !== undefined) parts.push(span(`${stats.min}`, `${stats.max}`));
  if (stats.lowest !== undefined && stats.highest !== undefined) {
    if (stats.distinct.size <= ENUM_VALUES) parts.push([...stats.distinct].sort().join("|"));
    else {
      const bound = (text: string) => JSON.stringify(cutToBytes(text, BOUND_BYTES));
      parts.push(span(bound(stats.lowest), bound(stats.highest)));
    }
  }
  if (stats.minLength !== undefined && stats.maxLength !== undefined) {
    parts.push(`${span(`${stats.minLength}`, `${stats.maxLength}`)} entries`);
  }
  return `${key}: ${parts.join(" ")}`;
}
