import type { McpServerSummary, SessionSummary } from "../pod-like.js";
import { displayUserText } from "../state/history-entries.js";
import { mcpErrorAfterName } from "./mcp-text.js";

/** `/sessions`: one line each, oldest first, the current one marked `*`, with its first prompt. */
export function sessionsText(sessions: readonly SessionSummary[], current: string | undefined): string {
  const lines = sessions.map((session) => {
    const mark = session.id === current ? "*" : " ";
    const when = session.lastActivity ?? session.started ?? "";
    const first =
      session.firstUserText === undefined ? "" : `  ${oneLine(displayUserText(session.firstUserText), 60)}`;
    return ` ${mark}${session.id}  ${when}${first}`;
  });
  return ["Sessions, oldest first (* this one):", ...lines].join("\n");
}

/** `/mcp`: each server with its state, its tools while it runs, and why it failed (named once). */
export function mcpServersText(servers: readonly McpServerSummary[]): string {
  const lines = servers.map((server) => {
    const tools = server.state === "running" ? `, ${server.tools} tool(s)` : "";
    const names =
      server.state === "running" && server.toolNames?.length ? `: ${server.toolNames.join(", ")}` : "";
    const error = server.error ? ` — ${mcpErrorAfterName(server.name, server.error)}` : "";
    return `  ${server.name}: ${server.state}${tools}${names}${error}`;
  });
  return ["MCP servers:", ...lines].join("\n");
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
