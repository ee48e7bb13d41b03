import type { connectMcp, McpConnection, McpServerConfig, Tool } from "@yoake/llm-worker";
import { errorMessage, type McpCloseInfo } from "@yoake/llm-worker/internal";
import type { McpServerSpec } from "../manifest/mcp-resolve.js";
import type { Alert } from "../pod/alert.js";
import type { McpServerState, McpServerStatus } from "./mcp-server-status.js";
import { type RestartPolicy, restartDelayMs } from "./restart-policy.js";

/** Where a server's tools go: the Worker's `addTool` / `removeTool`. */
export interface ToolRegistry {
  addTool(tool: Tool): void;
  removeTool(name: string): void;
}

/** What a supervised server needs from the Pod. */
export interface SupervisedServerDeps {
  tools: ToolRegistry;
  alert: (alert: Alert) => void;
  policy: RestartPolicy;
  /** Tool names the manifest disables (`tools.disable`): never offered. */
  disabledTools: ReadonlySet<string>;
  /** `connectMcp`, replaceable in tests. */
  connect: typeof connectMcp;
  /** Where `pass_env` variables are read from (the Pod's environment); a server gets no other. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * One `[[mcp]]` server over its life: connects, offers its tools to the Worker and keeps them in
 * step with the server's list, takes them away when the server dies and starts it again with a
 * growing wait, and gives up after `policy.maxRestarts` tries in a row.
 */
export class SupervisedServer {
  #state: McpServerState = "starting";
  #connection: McpConnection | undefined;
  /** The tool names this server has in the Worker now. */
  #registered = new Set<string>();
  #restarts = 0;
  #connectedAt = 0;
  #error: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopping = false;
  /** Ends a connection attempt under way when the Pod closes. */
  readonly #abort = new AbortController();
  readonly #config: McpServerConfig;

  constructor(
    readonly spec: McpServerSpec,
    private readonly deps: SupervisedServerDeps,
  ) {
    this.#config = configOf(spec, deps.env ?? {});
  }

  get state(): McpServerState {
    return this.#state;
  }

  status(): McpServerStatus {
    const { transport } = this.spec;
    return {
      name: this.spec.name,
      state: this.#state,
      tools: this.#registered.size,
      toolNames: [...this.#registered],
      transport: transport.type,
      target: transport.type === "stdio" ? [transport.command, ...transport.args].join(" ") : transport.url,
      restarts: this.#restarts,
      ...(this.#error !== undefined && { error: this.#error }),
      source: this.spec.source,
    };
  }

  /** The first connection; resolves once the server runs or has failed (never rejects). */
  async start(): Promise<void> {
    try {
      await this.#connect();
    } catch (error) {
      if (this.#stopping) return;
      this.#state = "failed";
      this.#error = errorMessage(error);
      this.#alert("warn", `${this.#error}; the Pod runs without it`);
    }
  }

  /** Stops the server (and any restart to come) and takes its tools away. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
    const connection = this.#connection;
    this.#connection = undefined;
    this.#syncTools([]);
    this.#state = "stopped";
    await connection?.close();
  }

  async #connect(): Promise<void> {
    const connection = await this.deps.connect(this.#config, { signal: this.#abort.signal });
    if (this.#stopping) {
      await connection.close();
      return;
    }
    this.#connection = connection;
    this.#connectedAt = Date.now();
    this.#state = "running";
    this.#error = undefined;
    this.#syncTools(connection.tools());
    connection.onToolsChanged((tools) => {
      if (this.#connection === connection) this.#syncTools(tools);
    });
    connection.onClose((info) => this.#closed(connection, info));
  }

  #closed(connection: McpConnection, info: McpCloseInfo): void {
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    this.#syncTools([]);
    if (info.requested || this.#stopping) {
      this.#state = "stopped";
      return;
    }
    if (Date.now() - this.#connectedAt >= this.deps.policy.stableAfterMs) this.#restarts = 0;
    this.#scheduleRestart(`MCP server "${this.spec.name}" exited${lastLineOf(info.stderr)}`);
  }

  #scheduleRestart(reason: string): void {
    const { policy } = this.deps;
    this.#restarts += 1;
    this.#error = reason;
    if (this.#restarts > policy.maxRestarts) {
      this.#restarts = policy.maxRestarts;
      this.#state = "failed";
      this.#alert(
        "error",
        `${reason}; gave up after ${policy.maxRestarts} restarts: its tools stay unavailable until the Pod restarts`,
      );
      return;
    }
    const delay = restartDelayMs(this.#restarts, policy);
    this.#state = "restarting";
    this.#alert(
      "warn",
      `${reason}; restarting in ${delay} ms (try ${this.#restarts} of ${policy.maxRestarts})`,
    );
    this.#timer = setTimeout(() => void this.#restart(), delay);
    // A pending restart must not keep a finished process alive.
    this.#timer.unref();
  }

  async #restart(): Promise<void> {
    this.#timer = undefined;
    if (this.#stopping) return;
    try {
      await this.#connect();
      if (this.#state === "running")
        this.#alert("info", `MCP server "${this.spec.name}" restarted with ${this.#registered.size} tools`);
    } catch (error) {
      if (!this.#stopping) this.#scheduleRestart(errorMessage(error));
    }
  }

  /** Makes the Worker's tools of this server exactly `tools` (minus the disabled ones). */
  #syncTools(tools: readonly Tool[]): void {
    const next = new Set<string>();
    try {
      for (const tool of tools) {
        if (this.deps.disabledTools.has(tool.name)) continue;
        // Replaces a tool of the same name: the new one calls the live connection.
        this.deps.tools.addTool(tool);
        next.add(tool.name);
      }
      for (const name of this.#registered) if (!next.has(name)) this.deps.tools.removeTool(name);
    } catch (error) {
      // Only a cache-locked Worker refuses; the Pod never locks its own.
      this.#alert(
        "error",
        `the tools of MCP server "${this.spec.name}" could not be updated: ${errorMessage(error)}`,
      );
    }
    this.#registered = next;
  }

  #alert(level: Alert["level"], message: string): void {
    this.deps.alert({ level, message, source: `mcp:${this.spec.name}` });
  }
}

/** The variables a trusted manifest passes to its server by name (`pass_env`), where set. */
function passedEnv(
  names: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) passed[name] = value;
  }
  return passed;
}

function configOf(spec: McpServerSpec, env: Readonly<Record<string, string | undefined>>): McpServerConfig {
  const common = {
    name: spec.name,
    ...(spec.startupTimeoutMs !== undefined && { connectTimeoutMs: spec.startupTimeoutMs }),
    ...(spec.toolTimeoutMs !== undefined && { toolTimeoutMs: spec.toolTimeoutMs }),
  };
  const { transport } = spec;
  if (transport.type === "http") return { ...common, url: transport.url, headers: transport.headers };
  return {
    ...common,
    command: transport.command,
    args: transport.args,
    env: { ...passedEnv(transport.passEnv ?? [], env), ...transport.env },
    ...(transport.cwd !== undefined && { cwd: transport.cwd }),
  };
}

function lastLineOf(stderr: string): string {
  const last = stderr
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .at(-1);
  return last === undefined ? "" : ` (${last.trim()})`;
}
