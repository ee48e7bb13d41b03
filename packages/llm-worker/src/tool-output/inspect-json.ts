import type { JsonValue } from "../tool/tool-output.js";
import { BoundedOutput, type OutputLimits } from "./bounded-output.js";
import { describeJson, describeJsonWithArticle, isJsonObject, jsonTypeOf } from "./json-describe.js";
import { resolvePath } from "./json-path.js";
import { CUT_MARKER, CUT_MARKER_BYTES, cutToBytes, utf8Length, utf8PrefixEnd } from "./utf8.js";

/** Entries the overview of an array blob shows. */
const OVERVIEW_ENTRIES = 10;
/** How much of each value the overview of an object blob quotes. */
const PREVIEW_BYTES = 80;

/** `results.` before a range, index or key in a selector; nothing at the top level. */
const pathPrefix = (path: readonly string[]) => (path.length === 0 ? "" : `${path.join(".")}.`);

/**
 * One JSON value a line, compact: `[3] {...}` for array entries, `name: {...}` for object keys.
 * Compact lines keep a 400-line answer useful where indented JSON would spend it on brackets.
 */
interface JsonLines {
  label(index: number): string;
  value(index: number): JsonValue;
  /** The notice when lines from `index` on did not fit. */
  readOn(index: number): string;
  /** The notice when the first line alone was too long and was cut. */
  cut(index: number, bytes: number): string;
}

function writeJsonLines(out: BoundedOutput, lines: JsonLines, from: number, to: number): string | undefined {
  for (let index = from; index < to; index++) {
    const label = lines.label(index);
    const json = JSON.stringify(lines.value(index));
    if (out.tryAdd(label + json)) continue;
    if (index > from) return lines.readOn(index);
    const shown = json.slice(
      0,
      Math.max(0, utf8PrefixEnd(json, out.room - utf8Length(label) - CUT_MARKER_BYTES)),
    );
    out.tryAdd(label + shown + CUT_MARKER);
    return lines.cut(index, utf8Length(json));
  }
  return undefined;
}

/** Entries `from` to `to` (end excluded, within the array) of the array at `path`. */
function writeEntries(
  out: BoundedOutput,
  entries: readonly JsonValue[],
  path: readonly string[],
  range: { from: number; to: number; resumeTo: number | undefined },
): string | undefined {
  const prefix = pathPrefix(path);
  const resume = range.resumeTo ?? "";
  return writeJsonLines(
    out,
    {
      label: (index) => `[${index}] `,
      value: (index) => entries[index] ?? null,
      readOn: (index) =>
        `[showed entries ${range.from}..${index} of ${entries.length}; read on with slice:${prefix}${index}..${resume}]`,
      cut: (index, bytes) =>
        `[entry ${index} is ${bytes} bytes and was cut; read inside it with key:${prefix}${index}.<key or index>, ` +
        `or on with slice:${prefix}${index + 1}..${resume}]`,
    },
    range.from,
    range.to,
  );
}

/** Every key of the object at `path`, with its whole value. */
function writeMembers(
  out: BoundedOutput,
  value: { readonly [key: string]: JsonValue },
  path: readonly string[],
) {
  const keys = Object.keys(value);
  const prefix = pathPrefix(path);
  return writeJsonLines(
    out,
    {
      label: (index) => `${keys[index]}: `,
      value: (index) => value[keys[index] ?? ""] ?? null,
      readOn: (index) => `[showed ${index} of ${keys.length} keys; read the others with key:${prefix}<key>]`,
      cut: (index, bytes) =>
        `[the value of ${keys[index]} is ${bytes} bytes and was cut; read inside it with key:${prefix}${keys[index]}.<key or index>]`,
    },
    0,
    keys.length,
  );
}

/** `inspect(id)` on a JSON array: size, the schema of the first entry, the first entries. */
export function arrayOverview(id: string, entries: readonly JsonValue[], limits: OutputLimits): string {
  const out = new BoundedOutput(limits);
  out.tryAdd(`[blob:${id}] json_array | ${entries.length} entries`);
  const first = entries[0];
  if (first === undefined) return out.finish();
  out.tryAdd("── schema ──");
  const schema = isJsonObject(first)
    ? Object.entries(first).map(([key, value]) => `${key}: ${jsonTypeOf(value)}`)
    : [jsonTypeOf(first)];
  for (const line of schema) if (!out.tryAdd(line)) break;
  const last = Math.min(entries.length, OVERVIEW_ENTRIES);
  out.tryAdd(`── entries 0..${last} of ${entries.length} ──`);
  const notice = writeEntries(out, entries, [], { from: 0, to: last, resumeTo: undefined });
  if (notice !== undefined || last === entries.length) return out.finish(notice);
  return out.finish(`[${entries.length - last} more entries; read on with slice:${last}..]`);
}

/** `inspect(id, "slice:A..B")`, or `slice:<path>.A..B` for an array inside the blob. */
export function arraySlice(
  root: JsonValue,
  path: readonly string[],
  from: number,
  to: number | undefined,
  limits: OutputLimits,
): string {
  const target = resolvePath(root, path);
  const where = path.length === 0 ? "the blob" : `"${path.join(".")}"`;
  if (!Array.isArray(target)) {
    const hint = isJsonObject(target)
      ? `; read it with key:${path.length === 0 ? "<key>" : path.join(".")}`
      : "";
    throw new Error(`slice: needs a JSON array, and ${where} is ${describeJsonWithArticle(target)}${hint}`);
  }
  if (from >= target.length && target.length > 0) {
    throw new Error(
      `${where} has ${target.length} entries (0 to ${target.length - 1}); slice:${pathPrefix(path)}${from}.. starts past its end`,
    );
  }
  const last = Math.min(to ?? target.length, target.length);
  const out = new BoundedOutput(limits);
  const name = path.length === 0 ? "" : `${path.join(".")}: `;
  out.tryAdd(`── ${name}entries ${from}..${last} of ${target.length} ──`);
  return out.finish(writeEntries(out, target, path, { from, to: last, resumeTo: to }));
}

/** `inspect(id)` on a JSON object: size, then each key with its type, size and a preview. */
export function objectOverview(
  id: string,
  value: { readonly [key: string]: JsonValue },
  limits: OutputLimits,
): string {
  const keys = Object.keys(value);
  const out = new BoundedOutput(limits);
  out.tryAdd(`[blob:${id}] json_object | ${keys.length} keys`);
  if (keys.length === 0) return out.finish();
  out.tryAdd("── keys ──");
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] ?? "";
    const entry = value[key] ?? null;
    const preview = entry === null ? "" : ` = ${cutToBytes(JSON.stringify(entry), PREVIEW_BYTES)}`;
    if (!out.tryAdd(`${key}: ${describeJson(entry)}${preview}`)) {
      return out.finish(`[showed ${index} of ${keys.length} keys; read a value with key:<key>]`);
    }
  }
  return out.finish("[read a value with key:<key>]");
}

/**
 * `inspect(id, "key:a.b")`: the value there. An array is shown as its entries and an object as
 * its keys, one compact value a line; a scalar as its JSON.
 */
export function keyValue(root: JsonValue, path: readonly string[], limits: OutputLimits): string {
  const value = resolvePath(root, path);
  const out = new BoundedOutput(limits);
  out.tryAdd(`── key ${path.join(".")}: ${describeJson(value)} ──`);
  if (Array.isArray(value)) {
    return out.finish(writeEntries(out, value, path, { from: 0, to: value.length, resumeTo: undefined }));
  }
  if (isJsonObject(value)) return out.finish(writeMembers(out, value, path));
  const json = JSON.stringify(value);
  if (out.tryAdd(json)) return out.finish();
  out.tryAdd(cutToBytes(json, out.room));
  return out.finish(`[the value is ${utf8Length(json)} bytes and was cut at the output limit]`);
}
