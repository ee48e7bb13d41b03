// Types only: the schema converts itself (`toJSONSchema()`), so loading this library loads no zod.
import type { z } from "zod";
import type { JsonSchema, ToolDefinition } from "../llm-client/request.js";
import type { ToolOutput } from "../tool-output/tool-output.js";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborted when the turn is cancelled or the tool's timeout passes: long work must honour it. */
  signal: AbortSignal;
  callId: string;
  toolName: string;
  /**
   * Tells listeners what the tool is doing while it runs (a `tool_progress` event): for output
   * a user watches arrive, such as a command's. Not part of the result; absent outside a Worker.
   */
  progress?: (text: string) => void;
}

export type ToolResultValue = string | ToolOutput;

/**
 * A tool the model can call (seed 001 `Tool`). Usually made with `tool()`; any object of this shape
 * works (MCP tools, the `inspect` tool).
 */
export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of the arguments, as sent to the provider. */
  readonly inputSchema: JsonSchema;
  /** Per-call time limit in milliseconds (the worker's default applies when absent). */
  readonly timeoutMs?: number;
  /** Checks raw arguments; an error message names the bad field so the model can correct it. */
  parseArguments(raw: unknown): { ok: true; value: Args } | { ok: false; error: string };
  execute(args: Args, context: ToolContext): Promise<ToolResultValue> | ToolResultValue;
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  timeoutMs?: number;
  execute(args: z.output<S>, context: ToolContext): Promise<ToolResultValue> | ToolResultValue;
}

/**
 * Defines a tool from a zod schema: the TypeScript form of the seed's `#[tool]` macro. The JSON
 * Schema comes from the schema, arguments are validated (defaults applied) before `execute`. A
 * `null` for an optional field that does not accept null (what a model held to a strict schema
 * sends for a field it leaves out) counts as absent.
 */
export function tool<S extends z.ZodType>(spec: ToolSpec<S>): Tool<z.output<S>> {
  const inputSchema = toJsonSchema(spec.input);
  return {
    name: spec.name,
    description: spec.description,
    inputSchema,
    ...(spec.timeoutMs !== undefined && { timeoutMs: spec.timeoutMs }),
    parseArguments(raw) {
      const result = spec.input.safeParse(dropNullOptionals(raw, inputSchema, inputSchema));
      return result.success
        ? { ok: true, value: result.data }
        : { ok: false, error: describeIssues(result.error) };
    },
    execute: (args, context) => spec.execute(args, context),
  };
}

type MethodsOf<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];

/**
 * Tools from methods of an object that holds state (the seed's `MyApp` example): each listed method
 * is called with the validated arguments and the tool context, bound to `target`.
 *
 * ```ts
 * const tools = toolsFrom(app, {
 *   getUser: { name: "get_user", description: "Find a user by id", input: z.object({ id: z.string() }) },
 * });
 * ```
 */
export function toolsFrom<T extends object>(
  target: T,
  methods: { [K in MethodsOf<T>]?: Omit<ToolSpec<z.ZodType>, "execute"> },
): Tool[] {
  return Object.entries(methods).map(([method, spec]) => {
    const fn = (target as Record<string, unknown>)[method];
    if (typeof fn !== "function") throw new TypeError(`toolsFrom: ${method} is not a method`);
    const s = spec as Omit<ToolSpec<z.ZodType>, "execute">;
    return tool({
      ...s,
      execute: (args, context) => fn.call(target, args, context) as Promise<ToolResultValue>,
    });
  }) as Tool[];
}

/** The JSON Schema of a zod schema as providers accept it (no `$schema`). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
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
function dropNullOptionals(value: unknown, schema: unknown, root: JsonSchema, depth = 0): unknown {
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

/** Strict schemas per tool: the worker asks for them on every request, and tools do not change. */
const strictSchemas = new WeakMap<Tool, JsonSchema>();

/** The definition sent to the provider; `strict` gives the OpenAI strict form of the schema. */
export function toolDefinition(t: Tool, options?: { strict?: boolean }): ToolDefinition {
  let inputSchema = t.inputSchema;
  if (options?.strict) {
    const cached = strictSchemas.get(t);
    inputSchema = cached ?? toStrictJsonSchema(t.inputSchema);
    if (cached === undefined) strictSchemas.set(t, inputSchema);
  }
  return { name: t.name, description: t.description, inputSchema, ...(options?.strict && { strict: true }) };
}

function describeIssues(error: z.ZodError): string {
  const issues = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
    return `${path}: ${issue.message}`;
  });
  return `invalid arguments — ${issues.join("; ")}`;
}
