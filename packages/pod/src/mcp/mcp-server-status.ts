/**
 * Where a `[[mcp]]` server is in its life: connecting for the first time (`starting`), its tools
 * offered (`running`), waiting to start again after it died (`restarting`), given up on or never
 * started (`failed`: the Pod runs without it), or stopped with the Pod (`stopped`).
 */
export type McpServerState = "starting" | "running" | "restarting" | "failed" | "stopped";

/** One `[[mcp]]` server as a UI lists it (`pod.mcpServers()`). */
export interface McpServerStatus {
  name: string;
  state: McpServerState;
  /** How many of its tools the model is offered now (0 unless `running`). */
  tools: number;
  /** Those tools' names, as the model sees them (`server__tool`). */
  toolNames: string[];
  transport: "stdio" | "http";
  /** The command line or the URL. */
  target: string;
  /** Restarts tried since it last ran stably. */
  restarts: number;
  /** Why it is `failed` or `restarting`. */
  error?: string;
  /** The manifest file that declared it. */
  source: string;
}
