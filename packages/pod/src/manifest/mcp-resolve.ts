import path from "node:path";
import type { SourcedMcpServer } from "./merge.js";

/** How a `[[mcp]]` server is reached. */
export type McpServerTransport =
  | {
      type: "stdio";
      command: string;
      args: string[];
      /** Added to a minimal environment (PATH, HOME, ...), not to the Pod's whole environment. */
      env: Record<string, string>;
      /** Absolute: a relative `cwd` is relative to the project root. Absent: the Pod's working directory. */
      cwd?: string;
      /** Variables of the Pod's environment added to `env` when the server starts (`pass_env`). */
      passEnv?: string[];
    }
  | { type: "http"; url: string; headers: Record<string, string> };

/** A `[[mcp]]` server, resolved: the Pod starts every one of these (see the package README, "MCP servers"). */
export interface McpServerSpec {
  /** The prefix of its tool names (`<name>__<tool>`), unique in the manifest. */
  name: string;
  transport: McpServerTransport;
  /** Each tool call's limit; absent: the MCP client's default (120 s). */
  toolTimeoutMs?: number;
  /** Start, handshake and first tool listing, before the server counts as failed. */
  startupTimeoutMs?: number;
  /** The manifest file that declared it (or `overrides`). */
  source: string;
}

/**
 * The servers to start, in order of first declaration: an entry of a higher layer replaces the
 * lower one of the same name whole (no key-by-key merge, so a command never keeps another
 * command's arguments), and `enabled = false` removes it. A disabling entry that matches nothing
 * is reported in `warnings`.
 */
export function resolveMcpServers(
  entries: readonly SourcedMcpServer[],
  projectRoot: string,
  warnings: string[],
): McpServerSpec[] {
  const byName = new Map<string, SourcedMcpServer>();
  for (const entry of entries) {
    if (entry.enabled === false && entry.command === undefined && entry.url === undefined) {
      if (!byName.has(entry.name))
        warnings.push(
          `mcp[${entry.index}] (from ${entry.source}) disables MCP server ${JSON.stringify(entry.name)}, which no lower layer declares`,
        );
    }
    // A replaced entry keeps its place: the status list does not reorder when a project overrides.
    byName.set(entry.name, entry);
  }
  const specs: McpServerSpec[] = [];
  for (const entry of byName.values()) {
    if (entry.enabled === false) continue;
    specs.push({
      name: entry.name,
      transport: transportOf(entry, projectRoot),
      ...(entry.timeout_ms !== undefined && { toolTimeoutMs: entry.timeout_ms }),
      ...(entry.startup_timeout_ms !== undefined && { startupTimeoutMs: entry.startup_timeout_ms }),
      source: entry.source,
    });
  }
  return specs;
}

function transportOf(entry: SourcedMcpServer, projectRoot: string): McpServerTransport {
  if (entry.url !== undefined) return { type: "http", url: entry.url, headers: { ...entry.headers } };
  // The schema lets only a disabling entry omit both, and those never reach here.
  const command = entry.command ?? "";
  return {
    type: "stdio",
    command,
    args: [...(entry.args ?? [])],
    env: { ...entry.env },
    ...(entry.cwd !== undefined && { cwd: path.resolve(projectRoot, entry.cwd) }),
    ...(entry.pass_env !== undefined && { passEnv: [...entry.pass_env] }),
  };
}
