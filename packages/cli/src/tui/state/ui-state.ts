import type { Usage } from "@yoake/llm-worker";
import type { AlertLevel, PermissionRequest } from "@yoake/pod";
import type { SessionSummary } from "../pod-like.js";

/** Where a tool call is in its life, as its card shows it. */
export type ToolPhase =
  /** The model is still writing the arguments. */
  | "streaming"
  /** The arguments are complete; the call waits for its turn (hooks, approval, the other calls). */
  | "ready"
  | "awaiting_approval"
  | "running"
  | "done"
  /** The user denied it at the permission prompt. */
  | "denied"
  /** The run ended before it ran (cancelled, skipped by a hook, abandoned approval). */
  | "not_run";

/** What a tool call's result showed, as history keeps it. */
export interface ToolCardResult {
  /** One line, kept forever (`[blob:<id>] text | N lines` for a stored output). */
  summary: string;
  /** What the model saw: the text, a diff, or a stored output's seed summary. */
  content?: string;
  isError: boolean;
}

/** One tool call, from its first streamed argument byte to its result. */
export interface ToolCardState {
  callId: string;
  name: string;
  /** The arguments' JSON text as streamed so far. */
  argumentsText: string;
  /** Parsed once complete; undefined while streaming or when the JSON is invalid. */
  arguments?: unknown;
  phase: ToolPhase;
  /** `Date.now()` when it started running, for the elapsed time. */
  startedAt?: number;
  durationMs?: number;
  result?: ToolCardResult;
  /** The user's reason, when denied. */
  deniedReason?: string;
  /** The end of what the tool reported while running (a command's output), for the card. */
  progress?: string;
  /** The sub-agent a `task` call runs, shown under its card. */
  subagent?: SubagentState;
}

/** A `task` call's sub-agent, from its `subagent` events: its own tool calls, each folded to a line. */
export interface SubagentState {
  description: string;
  sessionId?: string;
  tools: readonly SubagentToolState[];
  /** How its run ended; absent while it runs. */
  status?: "finished" | "paused" | "cancelled" | "failed";
}

export interface SubagentToolState {
  /** The child's own call id. */
  id: string;
  /** `grep logs/server.log`. */
  label: string;
  state: "running" | "done" | "failed";
}

/** Tones of the UI's own lines (command output, cancellations, failures). */
export type NoticeTone = "title" | "info" | "success" | "warn" | "error" | "muted";

/** One item of the transcript. `done` entries never change again and are printed once. */
export type Entry =
  | { kind: "user"; id: string; text: string; done: true }
  | { kind: "assistant"; id: string; text: string; done: boolean }
  | { kind: "thinking"; id: string; text: string; done: boolean }
  | { kind: "tool"; id: string; card: ToolCardState; done: boolean }
  /** A file attached to the conversation by an `@` reference (shown on resume). */
  | { kind: "attachment"; id: string; path: string; done: true }
  | { kind: "alert"; id: string; level: AlertLevel; message: string; source: string; done: true }
  | { kind: "notice"; id: string; tone: NoticeTone; text: string; done: true };

/** What the session is doing, for the status bar and for which keys mean what. */
export type Activity = "idle" | "running" | "awaiting_approval" | "disconnected";

/**
 * What the status bar shows: a served Pod gone first (nothing else can happen then), then an
 * approval asked for, then whether the Pod is busy.
 */
export function activityOf(state: Pick<UiState, "busy" | "permission" | "gone">): Activity {
  if (state.gone !== undefined) return "disconnected";
  if (state.permission !== undefined) return "awaiting_approval";
  return state.busy ? "running" : "idle";
}

/** A request the provider refused, being sent again: shown in the status bar until the stream resumes. */
export interface RetryState {
  /** This attempt, counting the first: 2 for the first retry. */
  attempt: number;
  maxAttempts: number;
  /** `Date.now()` when the request goes again. */
  sendsAt: number;
  /** The provider's error, one line. */
  reason: string;
}

/** Tokens of the session: whole responses summed, plus the response streaming now. */
export interface SessionUsage {
  total: Usage;
  /** The current response's latest (cumulative) usage, until its turn ends. */
  live?: Usage;
  /** The prompt size of the latest response: how full the context window is. */
  lastInputTokens?: number;
  /**
   * USD of the finished responses, each at the prices of the model that gave it (`/model` may
   * switch to one with other prices, or none known); absent while none was priced.
   */
  cost?: number;
  /** Some finished response had no known prices: `cost` counts less than was spent. */
  unpriced?: boolean;
}

/** Everything the UI renders, fed by Pod events and the user's actions through `uiReducer`. */
export interface UiState {
  /** Final entries, in order: printed once, above the live area. Append-only. */
  committed: readonly Entry[];
  /** Entries after the first one still changing; small, re-rendered as events arrive. */
  live: readonly Entry[];
  /** The Pod is busy: set by the controller's `busy` action alone (see `activityOf`). */
  busy: boolean;
  /** `Date.now()` when the current run started (kept while a paused run waits for approval). */
  runStartedAt?: number;
  /** A request being sent again after a provider error, until its stream resumes. */
  retry?: RetryState;
  /**
   * `Date.now()` when the current turn's request went to the provider, until its stream says
   * something: the status bar counts the wait, so a provider that does not answer is seen at once.
   */
  providerWaitSince?: number;
  /** Counts runs, so block and card ids stay unique when a provider reuses indices or call ids. */
  runSeq: number;
  turn: number;
  permission?: PermissionRequest;
  usage: SessionUsage;
  /** Thinking shown whole (true) or folded to one line (false). */
  showThinking: boolean;
  /** The user's input is on screen already: the next `run_start` is not shown again. */
  awaitingOwnRunStart: boolean;
  /** Ids of notices and alerts, which have no id of their own. */
  nextId: number;
  /** Open while the user picks a session to resume (`/resume` without an id). */
  sessionPicker?: readonly SessionSummary[];
  /** Prompts sent during the running turn, shown under the transcript until they are sent. */
  queued: readonly string[];
  /** The served Pod this UI was attached to is gone (`yoake serve` stopped): why, and how to go on. */
  gone?: string;
}

export const initialUiState: UiState = {
  committed: [],
  live: [],
  busy: false,
  runSeq: 0,
  turn: 0,
  usage: { total: {} },
  showThinking: false,
  awaitingOwnRunStart: false,
  nextId: 0,
  queued: [],
};
