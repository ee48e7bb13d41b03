import { stat } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import type { Transport } from "@modelcontextprotocol/client";
import { isHttpConfig, isStdioConfig, type McpServerConfig, type McpStdioConfig } from "./mcp-config.js";
import { McpConnectError } from "./mcp-connect-error.js";

/** How much of a stdio server's stderr is kept for error messages. */
const STDERR_TAIL_CHARS = 4096;

/** A transport for a configuration, and the end of what its server wrote to stderr. */
export interface McpTransport {
  transport: Transport;
  /** The last 4 KB of stderr (stdio servers; empty for the others). */
  stderrTail(): string;
  /** Sends SIGTERM to a stdio server's process if it still runs; nothing for the others. */
  terminate(): void;
}

/**
 * Builds the transport a configuration asks for. The MCP client is imported here, on first use,
 * rather than at the top: it costs ~150 ms to load, which an application without MCP servers
 * should not pay at startup.
 */
export async function createTransport(config: McpServerConfig): Promise<McpTransport> {
  if (isStdioConfig(config)) return createStdioTransport(config);
  if (isHttpConfig(config)) {
    const url = parseUrl(config.name, config.url);
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    const transport = new StreamableHTTPClientTransport(
      url,
      config.headers ? { requestInit: { headers: { ...config.headers } } } : undefined,
    );
    return { transport, stderrTail: () => "", terminate: () => {} };
  }
  return { transport: config.transport, stderrTail: () => "", terminate: () => {} };
}

async function createStdioTransport(config: McpStdioConfig): Promise<McpTransport> {
  // A missing working directory makes spawn fail with ENOENT too, which would read as a missing command.
  if (config.cwd !== undefined && !(await isDirectory(config.cwd))) {
    throw new McpConnectError(
      config.name,
      "invalid_config",
      `MCP server "${config.name}": its working directory does not exist: ${config.cwd}`,
    );
  }
  const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/client/stdio");
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd !== undefined && { cwd: config.cwd }),
    stderr: "pipe",
  });
  let tail = "";
  const onStderr = config.onStderr;
  // Keeps a character split between two chunks whole.
  const decoder = new StringDecoder("utf8");
  // Always read it: a pipe nobody reads fills up and blocks the server.
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    tail =
      tail.length + text.length > STDERR_TAIL_CHARS ? (tail + text).slice(-STDERR_TAIL_CHARS) : tail + text;
    onStderr?.(text);
  });

  // When the handshake fails, the MCP client closes the transport without waiting: it ends the
  // server's stdin and sends SIGTERM only 2 s later, on a timer that does not keep this process
  // alive, so a server that ignores the end of its input outlives a CLI that exits at once. The pid
  // lets `terminate` end it now; while its stderr is open the process runs, so the pid is still its own.
  let pid: number | null = null;
  let running = false;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid;
    running = pid !== null;
  };
  transport.stderr?.on("end", () => {
    running = false;
  });
  const terminate = (): void => {
    if (!running || pid === null) return;
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  return { transport, stderrTail: () => tail, terminate };
}

/** An http(s) URL; `localhost:3001/mcp` parses too (scheme `localhost:`), so the scheme is checked. */
function parseUrl(server: string, url: string | URL): URL {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol === "http:" || parsed?.protocol === "https:") return parsed;
  throw new McpConnectError(server, "invalid_config", `MCP server "${server}": not an http(s) URL: ${url}`);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
