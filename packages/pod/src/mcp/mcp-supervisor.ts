import { connectMcp } from "@yoake/llm-worker";
import type { McpServerSpec } from "../manifest/mcp-resolve.js";
import type { Alert } from "../pod/alert.js";
import type { McpServerStatus } from "./mcp-server-status.js";
import { DEFAULT_RESTART_POLICY, type RestartPolicy } from "./restart-policy.js";
import { SupervisedServer, type ToolRegistry } from "./supervised-server.js";

/**
 * How long `Pod.create` waits for its MCP servers: not at all. They start alongside the first
 * request and their tools are offered from the first request after they are ready; one that
 * fails raises an alert then. Waiting cost every run the wait for a server that never answers
 * (a headless run five silent seconds), to make one first request carry tools a little sooner.
 */
export const MCP_STARTUP_WAIT_MS = 0;

/**
 * A server still starting this long after the Pod started is named in a warning: a handshake
 * takes well under a second, and a server that never completes one (it reads the wrong stream,
 * waits for a login) otherwise only shows as tools that never come, until the connect timeout.
 */
export const MCP_SLOW_START_MS = 5000;

export interface McpSupervisorOptions {
  /** The Worker the tools go to. */
  tools: ToolRegistry;
  /** Receives every alert (a listener's failure is not the supervisor's: it is swallowed). */
  alert: (alert: Alert) => void;
  /** Tool names never offered (`tools.disable`). */
  disabledTools?: Iterable<string>;
  policy?: Partial<RestartPolicy>;
  /** See `MCP_STARTUP_WAIT_MS`. */
  startupWaitMs?: number;
  /** See `MCP_SLOW_START_MS`. */
  slowStartMs?: number;
  /** `connectMcp`, replaceable in tests. */
  connect?: typeof connectMcp;
  /**
   * The Pod's environment, read only for the variables an entry names in `pass_env`: a stdio
   * server otherwise gets a minimal environment (`PATH`, `HOME`, ...) and its own `env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The Pod's `[[mcp]]` servers: starts them all at once, offers their tools to the Worker, restarts
 * the ones that die, and stops them with the Pod. A server that cannot start raises a warning
 * alert and the Pod goes on without it.
 */
export class McpSupervisor {
  readonly #servers: SupervisedServer[];
  readonly #alert: (alert: Alert) => void;
  readonly #startupWaitMs: number;
  readonly #slowStartMs: number;
  #slowTimer: NodeJS.Timeout | undefined;
  /** Alerts raised while `Pod.create` runs, when nobody can listen yet. */
  #held: Alert[] | undefined = [];

  constructor(specs: readonly McpServerSpec[], options: McpSupervisorOptions) {
    this.#alert = options.alert;
    this.#startupWaitMs = options.startupWaitMs ?? MCP_STARTUP_WAIT_MS;
    this.#slowStartMs = options.slowStartMs ?? MCP_SLOW_START_MS;
    const deps = {
      tools: options.tools,
      alert: (alert: Alert) => this.#raise(alert),
      policy: { ...DEFAULT_RESTART_POLICY, ...options.policy },
      disabledTools: new Set(options.disabledTools),
      connect: options.connect ?? connectMcp,
      ...(options.env !== undefined && { env: options.env }),
    };
    this.#servers = specs.map((spec) => new SupervisedServer(spec, deps));
  }

  /**
   * Starts every server in parallel and waits until each runs or failed, or `startupWaitMs` passed.
   * The alerts raised meanwhile are delivered just after, in a later macrotask, so a listener
   * attached right after `await Pod.create(...)` receives them.
   */
  async start(): Promise<void> {
    const started = Promise.all(this.#servers.map((server) => server.start()));
    if (this.#servers.length > 0) {
      this.#slowTimer = setTimeout(() => this.#nameSlowServers(), this.#slowStartMs);
      // A warning to come must not keep a finished process alive.
      this.#slowTimer.unref();
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#startupWaitMs);
    });
    try {
      await Promise.race([started, waited]);
    } finally {
      clearTimeout(timer);
      setImmediate(() => this.#releaseHeld());
    }
  }

  /** Every configured (enabled) server, in manifest order, for a UI. */
  servers(): McpServerStatus[] {
    return this.#servers.map((server) => server.status());
  }

  /** Every configured server still waiting for its first handshake: its tools are not offered yet. */
  stillStarting(): McpServerStatus[] {
    return this.servers().filter((server) => server.state === "starting");
  }

  /** Stops every server and any restart to come; waits for their processes to end. */
  async close(): Promise<void> {
    clearTimeout(this.#slowTimer);
    await Promise.all(this.#servers.map((server) => server.stop()));
    this.#releaseHeld();
  }

  #nameSlowServers(): void {
    const seconds = Math.round(this.#slowStartMs / 1000);
    for (const server of this.stillStarting())
      this.#raise({
        level: "warn",
        message: `${slowServerLabel(server)} has not completed its handshake after ${seconds} s; requests go without its tools until it does`,
        source: `mcp:${server.name}`,
      });
  }

  #raise(alert: Alert): void {
    if (this.#held !== undefined) this.#held.push(alert);
    else this.#deliver(alert);
  }

  #releaseHeld(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const alert of held) this.#deliver(alert);
  }

  #deliver(alert: Alert): void {
    try {
      this.#alert(alert);
    } catch {
      // Alerts come from process and timer callbacks: a throwing listener must not crash the Pod
      // or stop the supervision.
    }
  }
}

/** `MCP server "github" (npx github-mcp)`: the name and what was started, as the manifest says. */
export function slowServerLabel(server: Pick<McpServerStatus, "name" | "target">): string {
  return `MCP server "${server.name}" (${server.target})`;
}
