/**
 * How the UI words an MCP server's failure. The Pod's error names the server already
 * (`MCP server "db" (node db.js) failed to start: …`): the UI's lines name it once.
 */

/** One sentence for a server that failed: its error when that names it, else one that does. */
export function mcpFailure(name: string, error: string | undefined): string {
  if (error === undefined || error === "") return `MCP server "${name}" failed to start`;
  return namesServer(name, error) ? error : `MCP server "${name}" failed to start: ${error}`;
}

/** The error after a line that names the server already (`db: failed — …` in `/mcp`). */
export function mcpErrorAfterName(name: string, error: string): string {
  return namesServer(name, error) ? error.slice(`MCP server "${name}"`.length).trimStart() : error;
}

function namesServer(name: string, error: string): boolean {
  return error.startsWith(`MCP server "${name}"`);
}
