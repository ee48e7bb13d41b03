import type { JsonValue } from "../tool/tool-output.js";
import { blockBytes, fitLines, takeLines } from "./fit-lines.js";
import { describeJson, isJsonObject, jsonTypeOf } from "./json-describe.js";
import { keyRange } from "./json-ranges.js";
import { RULE, SUMMARY_HEAD_ENTRIES, SUMMARY_LIMIT_BYTES } from "./limits.js";
import { utf8Prefix } from "./utf8.js";

const moreKeys = (dropped: number): string => `… (+${dropped} more ${dropped === 1 ? "key" : "keys"})`;

/**
 * The seed's JSON array summary:
 *
 * ```text
 * [blob:<id>] json_array | N entries
 * ── schema ──
 * <key: type of each key of the first entry>
 * ── head ──
 * <first 2 entries, compact JSON, one per line>
 * ```
 *
 * The schema is one level deep (a nested value is `object` or `array`); when the first entry is
 * not an object the schema is its type alone. The schema may take at most half the room left by
 * the frame (the rest of its keys become `… (+K more keys)`), the head gets the remainder and its
 * entries are cut with `…`. An empty array is the header line alone.
 *
 * With `ranges`, each schema line also gives the range of the key's values over all entries
 * (`id: number 0..4999`, see `keyRange`): a deviation from the seed that answers more from the
 * summary alone.
 */
export function summarizeJsonArray(
  id: string,
  entries: readonly JsonValue[],
  limit = SUMMARY_LIMIT_BYTES,
  ranges = false,
): string {
  const header = `[blob:${id}] json_array | ${entries.length} entries`;
  const first = entries[0];
  if (first === undefined) return utf8Prefix(header, limit);

  const schema = isJsonObject(first)
    ? Object.entries(first).map(([key, value]) =>
        ranges ? keyRange(entries, key) : `${key}: ${jsonTypeOf(value)}`,
      )
    : [jsonTypeOf(first)];
  const head = entries.slice(0, SUMMARY_HEAD_ENTRIES).map((entry) => JSON.stringify(entry));

  // header, two rules, and the newline after each; then the newlines between head entries.
  const room = limit - blockBytes([header, RULE.schema, RULE.head]) - (head.length - 1);
  const keptSchema = takeLines(schema, Math.floor(room / 2) - 1, moreKeys);
  const headBudget = room - blockBytes(keptSchema);
  const out = [header, RULE.schema, ...keptSchema, RULE.head, ...fitLines(head, headBudget)];
  return utf8Prefix(out.join("\n"), limit);
}

/**
 * The seed's JSON object summary:
 *
 * ```text
 * [blob:<id>] json_object | N keys
 * ── keys ──
 * <key: type and size, one per key>
 * ```
 *
 * Sizes are entries for arrays, keys for objects, UTF-8 bytes for strings (see `describeJson`).
 * Keys that do not fit become `… (+K more keys)`. An empty object is the header line alone.
 */
export function summarizeJsonObject(
  id: string,
  value: { readonly [key: string]: JsonValue },
  limit = SUMMARY_LIMIT_BYTES,
): string {
  const keys = Object.keys(value);
  const header = `[blob:${id}] json_object | ${keys.length} keys`;
  if (keys.length === 0) return utf8Prefix(header, limit);

  const lines = keys.map((key) => `${key}: ${describeJson(value[key] ?? null)}`);
  const kept = takeLines(lines, limit - blockBytes([header, RULE.keys]), moreKeys);
  return utf8Prefix([header, RULE.keys, ...kept].join("\n"), limit);
}
