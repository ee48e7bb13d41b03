import type { z } from "zod";
import type { JsonSchema } from "../llm-client/request.js";

/** The JSON Schema of a zod schema as providers accept it (no `$schema`). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  // The schema converts itself: loading this library loads no zod (it costs as much as starting Node).
  const { $schema: _ignored, ...rest } = schema.toJSONSchema({
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/**
 * OpenAI strict function schemas: every property required (optional ones become nullable, unless
 * they already accept null), `additionalProperties: false` on every object with properties, no
 * `default`. Only schema positions are rewritten: a property named `default`, or an `enum` / `const`
 * value that looks like a schema, is left alone.
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  return strictNode(schema, schema) as JsonSchema;
}

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS = new Set(["items", "additionalProperties", "not", "contains", "propertyNames"]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "$defs", "definitions", "patternProperties"]);

function strictNode(node: unknown, root: JsonSchema): unknown {
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "default") continue;
    if (SCHEMA_KEYWORDS.has(key)) out[key] = strictNode(value, root);
    else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value))
      out[key] = value.map((inner) => strictNode(inner, root));
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(value)) map[name] = strictNode(inner, root);
      out[key] = map;
    } else out[key] = value;
  }
  if (out.type === "object" && isRecord(out.properties)) {
    const properties = out.properties;
    const required = new Set(Array.isArray(out.required) ? (out.required as unknown[]) : []);
    for (const [key, prop] of Object.entries(properties)) {
      if (!required.has(key) && rejectsNull(prop, root, 0))
        properties[key] = { anyOf: [prop, { type: "null" }] };
    }
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/**
 * A strict model fills every optional field it leaves out with `null` (see `toStrictJsonSchema`).
 * Those nulls are dropped before validation so that the zod schema sees the field as absent (and
 * applies its default); a field whose own schema accepts null keeps it. Copies only what changes:
 * the caller's arguments object is shared with hooks and history.
 */
export function dropNullOptionals(value: unknown, schema: unknown, root: JsonSchema, depth = 0): unknown {
  if (depth > MAX_SCHEMA_DEPTH || !isRecord(schema) || value === null || typeof value !== "object")
    return value;
  const resolved = resolveRef(schema, root);
  if (resolved !== schema) return dropNullOptionals(value, resolved, root, depth + 1);
  if (Array.isArray(value)) {
    if (!isRecord(schema.items)) return narrowBranch(value, schema, root, depth);
    let copy: unknown[] | undefined;
    value.forEach((element, i) => {
      const next = dropNullOptionals(element, schema.items, root, depth + 1);
      if (next === element) return;
      copy ??= [...value];
      copy[i] = next;
    });
    return copy ?? value;
  }
  if (!isRecord(schema.properties)) return narrowBranch(value, schema, root, depth);
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(record)) {
    const prop = properties[key];
    if (prop === undefined) continue;
    if (field === null) {
      if (!required.includes(key) && rejectsNull(prop, root, depth + 1)) {
        copy ??= { ...record };
        delete copy[key];
      }
      continue;
    }
    const next = dropNullOptionals(field, prop, root, depth + 1);
    if (next === field) continue;
    copy ??= { ...record };
    copy[key] = next;
  }
  return copy ?? value;
}

/** `anyOf: [X, {type: "null"}]` (a nullable object or array): the value, not being null, is an X. */
function narrowBranch(
  value: unknown,
  schema: Record<string, unknown>,
  root: JsonSchema,
  depth: number,
): unknown {
  const branches = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : [];
  const candidates = branches.filter((branch) => rejectsNull(branch, root, depth + 1));
  return candidates.length === 1 ? dropNullOptionals(value, candidates[0], root, depth + 1) : value;
}

/** True only when the schema surely rejects null; anything unclear counts as accepting it. */
function rejectsNull(schema: unknown, root: JsonSchema, depth: number): boolean {
  if (depth > MAX_SCHEMA_DEPTH || !isRecord(schema)) return false;
  const resolved = resolveRef(schema, root);
  if (resolved !== schema) return rejectsNull(resolved, root, depth + 1);
  if (schema.nullable === true) return false;
  if ("const" in schema) return schema.const !== null;
  if (Array.isArray(schema.enum)) return !schema.enum.includes(null);
  if (typeof schema.type === "string") return schema.type !== "null";
  if (Array.isArray(schema.type)) return !schema.type.includes("null");
  const branches = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  return branches?.every((branch) => rejectsNull(branch, root, depth + 1)) === true;
}

/** Recursive zod schemas refer to `$defs`; deeper than this is a cycle, not an argument. */
const MAX_SCHEMA_DEPTH = 64;

/** Follows a local `#/$defs/...` or `#/definitions/...` reference; any other node is returned as is. */
function resolveRef(schema: Record<string, unknown>, root: JsonSchema): Record<string, unknown> {
  const ref = schema.$ref;
  if (ref === "#") return root;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  let node: unknown = root;
  for (const segment of ref.slice(2).split("/")) {
    if (!isRecord(node)) return schema;
    node = node[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return isRecord(node) ? node : schema;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
