import type { JsonSchemaType, jsonSchemaValidator } from "@modelcontextprotocol/client";
import type { JsonSchema } from "../llm-client/request.js";

/** The arguments of an MCP tool call: always a JSON object. */
export type McpArguments = Record<string, unknown>;

/** `Tool.parseArguments` for an MCP tool. */
export type ArgumentsCheck = (
  raw: unknown,
) => { ok: true; value: McpArguments } | { ok: false; error: string };

/**
 * Checks a model's arguments against the tool's JSON Schema before the round trip to the server,
 * so a wrong call comes back at once with the bad fields named, as for the Worker's own tools.
 *
 * The schema is compiled once, with the validator the MCP client ships (AJV, the dialect chosen by
 * the schema's `$schema`). A schema it cannot compile (an unresolvable `$ref`, an unknown
 * dialect) only gets the "is an object" check: the server still validates every call, so nothing
 * wrong gets through, it is only caught one round trip later.
 *
 * A `null` for an optional top-level property whose schema rejects null (what a model held to an
 * OpenAI strict schema sends for a field it leaves out) is dropped before the check.
 */
export function argumentsCheck(
  schema: JsonSchema,
  validator: jsonSchemaValidator | undefined,
): ArgumentsCheck {
  const validate = compile(schema, validator);
  return (raw) => {
    // Some providers send no arguments at all for a tool that takes none.
    if (raw === undefined) raw = {};
    if (!isRecord(raw)) return { ok: false, error: "invalid arguments — (arguments): expected an object" };
    const args = dropNullOptionals(raw, schema);
    if (validate === undefined) return { ok: true, value: args };
    const result = validate(args);
    return result.valid
      ? { ok: true, value: args }
      : { ok: false, error: `invalid arguments — ${describeErrors(result.errorMessage)}` };
  };
}

type Validate = (input: unknown) => { valid: true } | { valid: false; errorMessage: string };

function compile(schema: JsonSchema, validator: jsonSchemaValidator | undefined): Validate | undefined {
  if (validator === undefined) return undefined;
  try {
    return validator.getValidator(schema as JsonSchemaType);
  } catch {
    return undefined;
  }
}

/**
 * AJV's `errorsText` (`data/path/0 must be string, data must have required property 'x'`) in the
 * Worker's own format (`path.0: must be string; (arguments): must have required property 'x'`).
 * Runs only when a call was wrong.
 */
function describeErrors(errorMessage: string): string {
  return errorMessage
    .split(", data")
    .map((part, i) => {
      const error = i === 0 ? part.replace(/^data/, "") : part;
      const space = error.indexOf(" ");
      const pointer = space < 0 ? error : error.slice(0, space);
      const message = space < 0 ? "" : error.slice(space + 1);
      const path = pointer.length > 0 ? pointer.slice(1).replaceAll("/", ".") : "(arguments)";
      return `${path}: ${message}`;
    })
    .join("; ");
}

function dropNullOptionals(args: McpArguments, schema: JsonSchema): McpArguments {
  const properties = schema.properties;
  if (!isRecord(properties)) return args;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  let copy: McpArguments | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (value !== null || required.includes(key) || !rejectsNull(properties[key])) continue;
    copy ??= { ...args };
    delete copy[key];
  }
  return copy ?? args;
}

/** True only when the property's schema surely rejects null; anything unclear accepts it. */
function rejectsNull(schema: unknown): boolean {
  if (!isRecord(schema) || schema.nullable === true) return false;
  if ("const" in schema) return schema.const !== null;
  if (Array.isArray(schema.enum)) return !schema.enum.includes(null);
  if (typeof schema.type === "string") return schema.type !== "null";
  if (Array.isArray(schema.type)) return !schema.type.includes("null");
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
