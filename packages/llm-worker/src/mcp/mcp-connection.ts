import type { Client, jsonSchemaValidator } from "@modelcontextprotocol/client";
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  describeTarget,
  type McpServerConfig,
} from "./mcp-config.js";
import { connectErrorOf, McpConnectError } from "./mcp-connect-error.js";
import { isValidServerName, MAX_SERVER_NAME_LENGTH } from "./mcp-tool-name.js";
import { type McpTool, toMcpTools } from "./mcp-tools.js";
import { createTransport } from "./mcp-transport.js";

/** How the client introduces itself in the MCP handshake. */
const CLIENT_INFO = { name: "yoake", version: "0.1.0" };

/** The server as it introduced itself in the handshake. */
export interface McpServerInfo {
  name: string;
  version: string;
  title?: string;
}

/** Why a connection ended. */
export interface McpCloseInfo {
  /** True after `close()`; false when the server exited or the connection dropped on its own. */
  requested: boolean;
  /** The end of the server's stderr (stdio servers), where a crash explains itself. */
  stderr: string;
}

export interface ConnectMcpOptions {
  /** Ends the connection attempt (the process is stopped); the error is of kind `aborted`. */
  signal?: AbortSignal;
}

/**
 * Connects to an MCP server, completes the handshake and lists its tools. Rejects with an
 * `McpConnectError` that names the server and says what went wrong (command not found, exited
 * at once with its stderr, handshake timeout, HTTP error), and leaves no process behind.
 *
 * ```ts
 * const everything = await connectMcp({ name: "everything", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * const worker = new Worker({ client, tools: [...everything.tools()] });
 * ```
 */
export async function connectMcp(
  config: McpServerConfig,
  options?: ConnectMcpOptions,
): Promise<McpConnection> {
  if (!isValidServerName(config.name)) {
    throw new McpConnectError(
      String(config.name),
      "invalid_config",
      `MCP server name "${config.name}" (${describeTarget(config)}) must be 1 to ${MAX_SERVER_NAME_LENGTH} of a-z A-Z 0-9 _ -: it prefixes the tool names the providers see`,
    );
  }
  const timeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const signal = options?.signal;
  const { transport, stderrTail, terminate } = await createTransport(config);
  const [{ Client }, { AjvJsonSchemaValidator }] = await Promise.all([
    import("@modelcontextprotocol/client"),
    import("@modelcontextprotocol/client/validators/ajv"),
  ]);
  const validator = new AjvJsonSchemaValidator();
  let connection: McpConnection | undefined;
  const client = new Client(CLIENT_INFO, {
    jsonSchemaValidator: validator,
    listChanged: {
      // The connection lists the tools itself, so that a late answer never replaces a newer list.
      // A failed listing keeps the previous list.
      tools: { autoRefresh: false, onChanged: () => void connection?.refresh().catch(() => {}) },
    },
  });
  connection = new McpConnection(config, client, validator, stderrTail);
  try {
    await client.connect(transport, { timeout: timeoutMs, ...(signal && { signal }) });
    await connection.refresh({ timeoutMs, ...(signal && { signal }) });
    return connection;
  } catch (err) {
    await connection.close().catch(() => {});
    terminate();
    throw err instanceof McpConnectError ? err : connectErrorOf(config, err, stderrTail(), timeoutMs, signal);
  }
}

/**
 * A live connection to one MCP server: its tools as Worker tools, kept up to date when the server
 * says its list changed, until `close()` or the server's exit.
 */
export class McpConnection {
  /** The server's configured name, the prefix of its tool names. */
  readonly name: string;
  readonly #client: Client;
  readonly #validator: jsonSchemaValidator;
  readonly #stderrTail: () => string;
  readonly #toolTimeoutMs: number;
  #tools: readonly McpTool[] = [];
  /** Lists asked for and the newest one applied: an answer older than the applied list is dropped. */
  #listsRequested = 0;
  #listApplied = 0;
  #closed: McpCloseInfo | undefined;
  #closing = false;
  readonly #toolsListeners = new Set<(tools: readonly McpTool[]) => void>();
  readonly #closeListeners = new Set<(info: McpCloseInfo) => void>();

  /** Use `connectMcp`. */
  constructor(
    config: McpServerConfig,
    client: Client,
    validator: jsonSchemaValidator,
    stderrTail: () => string,
  ) {
    this.name = config.name;
    this.#client = client;
    this.#validator = validator;
    this.#stderrTail = stderrTail;
    this.#toolTimeoutMs = config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    client.onclose = () => this.#ended();
  }

  /** The server's name and version from the handshake. */
  get serverInfo(): McpServerInfo | undefined {
    const info = this.#client.getServerVersion();
    if (info === undefined) return undefined;
    return { name: info.name, version: info.version, ...(info.title !== undefined && { title: info.title }) };
  }

  /** The server's instructions for the model, if it gave any (a system prompt may include them). */
  get instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  /** Set once the connection has ended. */
  get closed(): McpCloseInfo | undefined {
    return this.#closed;
  }

  /** The server's tools as Worker tools, as last listed. */
  tools(): readonly McpTool[] {
    return this.#tools;
  }

  /** Lists the tools again now (the server's list-changed notifications do it by themselves). */
  async refresh(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<readonly McpTool[]> {
    const asked = ++this.#listsRequested;
    const { tools } = await this.#client.listTools(undefined, {
      cacheMode: "refresh",
      ...(options?.timeoutMs !== undefined && { timeout: options.timeoutMs }),
      ...(options?.signal && { signal: options.signal }),
    });
    if (asked < this.#listApplied || this.#closed) return this.#tools;
    this.#listApplied = asked;
    this.#tools = toMcpTools(tools, {
      server: this.name,
      timeoutMs: this.#toolTimeoutMs,
      validator: this.#validator,
      call: (name, args, call) => this.#call(name, args, call),
    });
    for (const listener of this.#toolsListeners) listener(this.#tools);
    return this.#tools;
  }

  /**
   * Called with the new list after each refresh, the ones the server's `tools/list_changed`
   * notifications start included. Returns the unsubscribe function.
   */
  onToolsChanged(listener: (tools: readonly McpTool[]) => void): () => void {
    this.#toolsListeners.add(listener);
    return () => this.#toolsListeners.delete(listener);
  }

  /**
   * Called once when the connection ends: `requested: false` means the server exited or dropped
   * the connection (the place to restart it). Called at once if it has already ended.
   */
  onClose(listener: (info: McpCloseInfo) => void): () => void {
    if (this.#closed) {
      listener(this.#closed);
      return () => {};
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Ends the connection and stops a stdio server's process. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed || this.#closing) return;
    this.#closing = true;
    try {
      await this.#client.close();
    } finally {
      this.#ended();
    }
  }

  async #call(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): ReturnType<Client["callTool"]> {
    if (this.#closed) {
      const why = this.#closed.requested
        ? "it was closed"
        : `the server exited${lastLine(this.#closed.stderr)}`;
      throw new Error(`MCP server "${this.name}" is not connected: ${why}`);
    }
    // The signal makes the client send `notifications/cancelled` for the request when it aborts.
    return this.#client.callTool(
      { name, arguments: args },
      { signal: options.signal, timeout: options.timeoutMs },
    );
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = { requested: this.#closing, stderr: this.#stderrTail() };
    const listeners = [...this.#closeListeners];
    this.#closeListeners.clear();
    for (const listener of listeners) listener(this.#closed);
  }
}

function lastLine(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.trim().length > 0);
  const last = lines.at(-1);
  return last === undefined ? "" : ` (${last.trim()})`;
}
