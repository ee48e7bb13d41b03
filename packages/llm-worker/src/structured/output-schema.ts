import { createRequire } from "node:module";
import type { z } from "zod";
import type { JsonSchema, ResponseFormat } from "../llm-client/request.js";
import { dropNullOptionals, toJsonSchema, toStrictJsonSchema } from "./json-schema.js";

/** One reason an answer does not match its schema: where (a path into the JSON) and what. */
export interface OutputIssue {
  path: Array<string | number>;
  message: string;
}

/** An answer checked against its schema: the typed value, or the text and what is wrong with it. */
export type OutputCheck<T> = { ok: true; value: T } | { ok: false; text: string; issues: OutputIssue[] };

/**
 * The shape a structured answer must have: what is sent to the provider (`format`) and how the answer
 * is read back (`check`). Made by `outputSchema` from a zod schema (the value is then typed from it)
 * or a JSON Schema (the value is `unknown`, validated all the same).
 */
export interface OutputSchema<T> {
  readonly format: ResponseFormat;
  /** Parses the answer as JSON (a surrounding Markdown code fence is tolerated) and validates it. */
  check(text: string): OutputCheck<T>;
}

/** What `Worker.run` and `completeObject` take: a zod schema, or a ready `OutputSchema`. */
export type OutputSpec<T> = z.ZodType<T> | OutputSchema<T>;

export interface OutputSchemaOptions {
  /** The schema's name for the provider (default `answer`). */
  name?: string;
  description?: string;
  /**
   * Send the strict form of the schema (default true): every property required, optional ones
   * nullable, no additional properties — what OpenAI strict mode and Anthropic require. The nulls a
   * model sends for fields it leaves out are dropped before validation.
   */
  strict?: boolean;
}

/**
 * An `OutputSchema` from a zod schema (typed) or a JSON Schema (validated through zod's
 * `fromJSONSchema`). A JSON Schema that zod cannot read is refused here, with its reason.
 */
export function outputSchema<T>(schema: z.ZodType<T>, options?: OutputSchemaOptions): OutputSchema<T>;
export function outputSchema(schema: JsonSchema, options?: OutputSchemaOptions): OutputSchema<unknown>;
export function outputSchema(
  schema: z.ZodType | JsonSchema,
  options: OutputSchemaOptions = {},
): OutputSchema<unknown> {
  const zod = isZodSchema(schema) ? schema : zodOf().fromJSONSchema(schema as z.core.JSONSchema.JSONSchema);
  const json = isZodSchema(schema) ? toJsonSchema(schema) : withoutMeta(schema);
  const strict = options.strict !== false;
  const format: ResponseFormat = {
    type: "json_schema",
    name: options.name ?? "answer",
    schema: strict ? toStrictJsonSchema(json) : json,
    ...(options.description !== undefined && { description: options.description }),
    strict,
  };
  return {
    format,
    check(text) {
      const parsed = parseJsonAnswer(text);
      if (!parsed.ok) return { ok: false, text, issues: [{ path: [], message: parsed.message }] };
      const result = zod.safeParse(strict ? dropNullOptionals(parsed.value, json, json) : parsed.value);
      if (result.success) return { ok: true, value: result.data };
      const issues = result.error.issues.map((issue) => ({
        path: issue.path.map((key) => (typeof key === "number" ? key : String(key))),
        message: issue.message,
      }));
      return { ok: false, text, issues };
    },
  };
}

/** `OutputSchema` of an `OutputSpec`. */
export function toOutputSchema<T>(spec: OutputSpec<T>): OutputSchema<T> {
  return isZodSchema(spec) ? outputSchema(spec) : spec;
}

/**
 * zod itself, only when a JSON Schema must become a validator: loaded on that first use (and
 * synchronously, as `outputSchema` is), so importing the library loads no zod.
 */
function zodOf(): typeof z {
  return (createRequire(import.meta.url)("zod") as typeof import("zod")).z;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value && "safeParse" in value;
}

/** `$schema` and `$id` describe the document, not the answer; providers reject some of them. */
function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const FENCED = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/;

function parseJsonAnswer(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "the answer is empty, not JSON" };
  const body = FENCED.exec(trimmed)?.[1] ?? trimmed;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    return { ok: false, message: `the answer is not JSON: ${(err as Error).message}` };
  }
}

/** The issues as `path: message`, joined by `separator` (one line by default, for error messages). */
export function describeOutputIssues(issues: readonly OutputIssue[], separator = "; "): string {
  return issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(answer)"}: ${issue.message}`)
    .join(separator);
}

/** The message that asks the model, once, to correct an answer that did not validate. */
export function repairPrompt(issues: readonly OutputIssue[]): string {
  return `Your answer does not match the required JSON schema:\n${describeOutputIssues(issues, "\n")}\nAnswer again with only the corrected JSON.`;
}
