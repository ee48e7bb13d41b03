// Types only: the schema converts itself (`toJSONSchema()`), so loading this library loads no zod.
import type { z } from "zod";
import type { JsonSchema, ToolDefinition } from "../llm-client/request.js";
import { dropNullOptionals, toJsonSchema, toStrictJsonSchema } from "../structured/json-schema.js";
import type { ImageToolOutput } from "./tool-images.js";
import type { ToolOutput } from "./tool-output.js";

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

/** What `execute` may return: text (promoted by size), a `ToolOutput`, or images (`imageOutput`). */
export type ToolResultValue = string | ToolOutput | ImageToolOutput;

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

export { toJsonSchema, toStrictJsonSchema };

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
