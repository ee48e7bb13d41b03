import type { ImagePart, Item } from "@yoake/llm-worker";
import type {
  EffortLevel,
  ModelPrices,
  PermissionDecision,
  PermissionRequest,
  Plan,
  PodEvent,
  PodRunResult,
  Segment,
} from "@yoake/pod";
import type { RestoredSessionView } from "./state/restored-session.js";

/** How a run, or its continuation after an approval, stopped: the part of a Pod's result the UI reads. */
export type RunOutcome = Pick<PodRunResult, "status"> & { permissionRequest?: PermissionRequest };

/** What the UI shows about the model: its name, its window and, when known, its prices. */
export interface ModelSummary {
  readonly ref?: string;
  readonly id: string;
  readonly contextWindow?: number;
  /** USD per million tokens; without them the status bar shows tokens only. */
  readonly prices?: ModelPrices;
}

/** One directory entry as a file tree lists it (`ScopedFs.readdir` gives exactly this). */
export interface FileTreeEntry {
  readonly name: string;
  readonly type: string;
}

/**
 * Read-only access to the project's files, paths relative to the project root. The in-process
 * Pod's `ScopedFs` is one, so the `@` picker never lists what the agent's scope hides.
 */
export interface FileTree {
  readdir(directory: string): Promise<readonly FileTreeEntry[]>;
  readFile(file: string): Promise<string>;
}

/** What `/compact` did, as the Pod reports it. */
export interface CompactOutcome {
  /** The new session the conversation goes on in. */
  readonly sessionId: string;
  readonly itemsBefore?: number;
  readonly itemsAfter?: number;
  /** Files read again into the new session. */
  readonly rereadFiles?: readonly string[];
}

/** One `[[mcp]]` server as `/mcp` lists it. */
export interface McpServerSummary {
  readonly name: string;
  /** `starting`, `running`, `restarting`, `failed`, `stopped`. */
  readonly state: string;
  readonly tools: number;
  /** The tools' names as the model sees them, when the Pod says. */
  readonly toolNames?: readonly string[];
  /** Why it failed or restarts. */
  readonly error?: string;
}

/** A session the Pod can resume, as `/sessions` lists it. */
export interface SessionSummary {
  readonly id: string;
  /** ISO 8601. */
  readonly started?: string;
  readonly lastActivity?: string;
  readonly firstUserText?: string;
}

/**
 * The least the terminal UI needs from a Pod. An in-process `Pod` is one as it is; a served Pod
 * attached to (`RemotePod`) implements the same methods over the socket, its runs' signals
 * becoming the protocol's `cancel`. Optional members are features a Pod may
 * not offer yet: the UI says so plainly when the user asks for one.
 */
export interface PodLike {
  /** Runs one submitted input; the signal cancels it (Esc), leaving the session usable. */
  /** `images`: pasted image files, attached to the prompt. */
  run(
    input: readonly Segment[],
    options: { signal?: AbortSignal; images?: readonly ImagePart[] },
  ): Promise<RunOutcome>;
  /** Answers the pending permission request and continues the run. */
  respond(id: string, decision: PermissionDecision, options: { signal?: AbortSignal }): Promise<RunOutcome>;
  /** Every event, in order; returns the function that stops listening. */
  listen(listener: (event: PodEvent) => void): () => void;
  /**
   * A served Pod: cancels a run this client did not start (another client's, or one left running
   * by a client that went away), which no signal of this client reaches. False when none goes.
   * An in-process Pod runs only what its UI started, cancelled through the run's signal.
   */
  cancelServedRun?(): boolean;
  /**
   * A served Pod: a run is going now, whoever started it (true when the UI attaches mid-run). An
   * in-process Pod runs only what its UI started, and leaves this out.
   */
  readonly runInProgress?: boolean;
  /**
   * A served Pod: its runs go on when this UI leaves, for its other clients and for the next
   * `yoake` attaching, so leaving (`/quit`, Ctrl+D) does not cancel them. An in-process Pod's run
   * ends with the process: leaving cancels it first, so the session log records it as cancelled.
   */
  readonly runsOnWhenLeft?: boolean;
  /**
   * A served Pod: calls `listener` once when the connection to it is lost (`yoake serve` stopped),
   * with what happened and how to go on. An in-process Pod cannot go away and leaves this out.
   */
  onGone?(listener: (why: string) => void): () => void;
  /** The conversation so far (in-process Pods). */
  readonly history?: readonly Item[];
  /** The conversation so far, asked for (protocol clients). Preferred over `history` when present. */
  fetchHistory?(): Promise<readonly Item[]>;
  /**
   * How a continued session had left off: its warnings (a run a crash interrupted, a torn last
   * line) are shown as alerts when the UI opens.
   */
  readonly restored?: { readonly warnings: readonly string[] } & RestoredSessionView;
  /** The model's plan as the session left it (a continued session): shown above the input. */
  readonly plan?: Plan;
  /** The request a paused run waits on (a restored session can start so): the UI shows its prompt at once. */
  readonly pendingPermission?: PermissionRequest;
  readonly manifest?: {
    readonly projectRoot: string;
    readonly model: ModelSummary;
    /** What the manifest warned about (a model not in the catalogue): `/model` shows a new one. */
    readonly warnings?: readonly string[];
    /** `effort`: shown in the status bar. */
    readonly generation?: { readonly effort?: string };
  };
  /** Sets the effort level for the next runs; without it, `/effort` says to restart with `--effort`. */
  setEffort?(level: EffortLevel): Promise<void>;
  /** Where the `@` picker lists files from; without it, the local disk below the project root. */
  readonly fs?: FileTree;
  /** Summarizes the conversation and continues in a new session; the signal cancels it (Esc). */
  compact?(options: { signal?: AbortSignal }): Promise<CompactOutcome>;
  /** The session the Pod writes to now. */
  readonly sessionId?: string;
  /** The project's saved sessions, oldest first. */
  listSessions?(): Promise<readonly SessionSummary[]>;
  /**
   * Replaces the conversation with a saved session's, while running; the UI then shows its
   * history. Without it, `/resume` tells the user to restart with `yoake --resume <id>`.
   */
  resumeSession?(id: string): Promise<void>;
  /** The history of another session of the Pod's store (a sub-agent's), for a restored conversation. */
  sessionHistory?(sessionId: string): Promise<readonly Item[]>;
  /** Goes on in a new, empty session (`/clear`), with the same project, model and settings. */
  newSession?(): Promise<void>;
  /** Switches the model for the next runs (`provider/model`); without it, `/model` says to restart with `--model`. */
  setModel?(ref: string): Promise<void>;
  /** The manifest's MCP servers and their state, for `/mcp`. */
  mcpServers?(): readonly McpServerSummary[];
}
