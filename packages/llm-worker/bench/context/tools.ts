/**
 * The session's tools, the same for every policy. Each returns its full output as a plain string;
 * a policy may reshape it (`OutputRule`) before the Worker sees it, as the other agents' harnesses
 * do. Our policy passes it through: the Worker's BlobStore does the rest.
 */
import { z } from "zod";
import { type Tool, type ToolContext, tool } from "../../src/index.js";
import type { Workspace } from "./session.js";

/** Files written during one run (outputs a policy saved), read back by `read_file`. */
export class Disk {
  readonly #written = new Map<string, string>();
  readonly #workspace: Workspace;

  constructor(workspace: Workspace) {
    this.#workspace = workspace;
  }

  write(path: string, text: string): void {
    this.#written.set(path, text);
  }

  read(path: string): string {
    const text = this.#workspace.files.get(path) ?? this.#written.get(path);
    if (text === undefined) throw new Error(`${path}: no such file`);
    return text;
  }
}

/** What a policy does to a tool's output before the model sees it. */
export type OutputRule = (output: string, context: ToolContext) => string;

export const passThrough: OutputRule = (output) => output;

/** Lines `offset` (1-based) to `offset + limit - 1` of `text`, as they are. */
function lineRange(text: string, offset = 1, limit = Number.POSITIVE_INFINITY): string {
  const lines = text.split("\n");
  if (offset > lines.length) throw new Error(`offset ${offset} is past the end (${lines.length} lines)`);
  return lines.slice(offset - 1, offset - 1 + limit).join("\n");
}

/** A pattern that is not one of the session's broad searches: the matching lines of all of them. */
function narrowSearch(workspace: Workspace, pattern: string): string {
  const hits: string[] = [];
  for (const output of workspace.searches.values()) {
    for (const line of output.split("\n")) if (line.includes(pattern)) hits.push(line);
  }
  return hits.length === 0 ? `no matches for ${pattern}` : hits.join("\n");
}

export function sessionTools(workspace: Workspace, disk: Disk, rule: OutputRule): Tool[] {
  return [
    tool({
      name: "read_file",
      description: "Read a file; offset (1-based line) and limit (lines) read part of it",
      input: z.object({
        path: z.string(),
        offset: z.number().int().optional(),
        limit: z.number().int().optional(),
      }),
      execute: ({ path, offset, limit }, context) => rule(lineRange(disk.read(path), offset, limit), context),
    }),
    tool({
      name: "search",
      description: "Search the codebase for a pattern",
      input: z.object({ pattern: z.string() }),
      execute: ({ pattern }, context) =>
        rule(workspace.searches.get(pattern) ?? narrowSearch(workspace, pattern), context),
    }),
    tool({
      name: "query_records",
      description: "List every customer record (the billing API has no filter)",
      input: z.object({}),
      execute: (_args, context) => rule(workspace.recordsJson, context),
    }),
    tool({
      name: "get_config",
      description: "Read the service configuration",
      input: z.object({}),
      execute: (_args, context) => rule(workspace.configJson, context),
    }),
    tool({
      name: "run_command",
      description: "Run a shell command in the project (build, tests, git)",
      input: z.object({ command: z.string() }),
      execute: ({ command }, context) =>
        rule(workspace.commands.get(command) ?? `${command}: command not found`, context),
    }),
    tool({
      name: "fetch_api",
      description: "GET an endpoint of the service's HTTP API (JSON)",
      input: z.object({ endpoint: z.string() }),
      execute: ({ endpoint }, context) => rule(workspace.apis.get(endpoint) ?? `${endpoint}: 404`, context),
    }),
    tool({
      name: "list_dir",
      description: "List a directory",
      input: z.object({ path: z.string() }),
      execute: ({ path }, context) => rule(workspace.listings.get(path) ?? `${path}: empty`, context),
    }),
  ] as Tool[];
}
