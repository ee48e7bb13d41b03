import { readFile } from "node:fs/promises";
import path from "node:path";
import { type OutputSchema, outputSchema } from "@yoake/llm-worker";
import { CliError } from "../cli-error.js";

/** Larger than any schema a person writes; a bound on what a wrong path could make us read. */
const MAX_SCHEMA_BYTES = 1_000_000;

/**
 * The JSON Schema of `--output-schema <file>` (relative to `cwd`), ready to ask the model for. A file
 * that cannot be read, is not JSON, is not an object schema zod can read, is a usage error (exit 2)
 * naming the file and why.
 */
export async function loadOutputSchema(file: string, cwd: string): Promise<OutputSchema<unknown>> {
  const where = path.resolve(cwd, file);
  let text: string;
  try {
    const bytes = await readFile(where);
    if (bytes.length > MAX_SCHEMA_BYTES) throw new Error(`larger than ${MAX_SCHEMA_BYTES} bytes`);
    text = bytes.toString("utf8");
  } catch (err) {
    throw new CliError(`--output-schema ${file}: cannot read it: ${(err as Error).message}`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--output-schema ${file}: not JSON: ${(err as Error).message}`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new CliError(`--output-schema ${file}: a JSON Schema is an object`);
  try {
    return outputSchema(schema as Record<string, unknown>);
  } catch (err) {
    throw new CliError(`--output-schema ${file}: not a JSON Schema zod can read: ${(err as Error).message}`);
  }
}
