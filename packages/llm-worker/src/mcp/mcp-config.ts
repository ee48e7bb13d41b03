import type { Transport } from "@modelcontextprotocol/client";

/** What every MCP server configuration has. */
export interface McpCommonConfig {
  /**
   * The server's name, the prefix of its tool names (`<name>__<tool>`): 1 to 32 of
   * `a-z A-Z 0-9 _ -`, unique among the servers of one Worker.
   */
  name: string;
  /** Time for the start, the MCP handshake and the first `tools/list` (default 30 s). */
  connectTimeoutMs?: number;
  /**
   * Time limit of each tool call (default 120 s, the Worker's default). It becomes each tool's
   * `timeoutMs`, so it replaces the Worker's `toolTimeoutMs` for these tools, and bounds the
   * MCP request itself when the tools are called outside a Worker.
   */
  toolTimeoutMs?: number;
}

/** A server the connection starts as a child process and speaks to over stdin/stdout. */
export interface McpStdioConfig extends McpCommonConfig {
  command: string;
  args?: readonly string[];
  /**
   * Added to a minimal inherited environment (`PATH`, `HOME`, `USER`, `SHELL`, `TERM`, ...: the MCP
   * client's `getDefaultEnvironment()`), not to this process's whole environment, so API keys
   * meant for the model provider do not leak to every server.
   */
  env?: Readonly<Record<string, string>>;
  /** The server's working directory (default: this process's). */
  cwd?: string;
  /**
   * Receives the server's stderr (its logs) as text. Without it the output is discarded; either
   * way its last 4 KB are kept for the error when the server fails to start or exits.
   */
  onStderr?: (text: string) => void;
}

/** A server reached over MCP streamable HTTP. */
export interface McpHttpConfig extends McpCommonConfig {
  url: string | URL;
  /** Sent with every request (an `Authorization` header, an API key). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A server behind a transport of your own (an in-process `InMemoryTransport`, a wrapper that
 * records the traffic, another transport of the MCP client).
 */
export interface McpTransportConfig extends McpCommonConfig {
  transport: Transport;
}

/** One MCP server: stdio (`command`), streamable HTTP (`url`), or a given `transport`. */
export type McpServerConfig = McpStdioConfig | McpHttpConfig | McpTransportConfig;

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

export function isStdioConfig(config: McpServerConfig): config is McpStdioConfig {
  return "command" in config;
}

export function isHttpConfig(config: McpServerConfig): config is McpHttpConfig {
  return "url" in config;
}

/** How the configuration names its server in messages: the command line or the URL. */
export function describeTarget(config: McpServerConfig): string {
  if (isStdioConfig(config)) return [config.command, ...(config.args ?? [])].join(" ");
  if (isHttpConfig(config)) return String(config.url);
  return "a custom transport";
}
