import type { Item, ToolResultItem, Usage } from "@yoake/llm-worker";
import type { ModelPrices, PodEvent, PodRunResult } from "@yoake/pod";
import type { SessionSummary } from "../pod-like.js";
import type { RestoredSubagents } from "./restored-subagents.js";
import type { NoticeTone } from "./ui-state.js";

/** Everything that changes the UI state: the Pod's events and what the user did. */
export type UiAction =
  /** `at` is `Date.now()` when the event arrived, so the reducer stays pure. */
  /** `prices`: the model's when the event arrived, for the cost of a response that ends. */
  | { type: "pod_event"; event: PodEvent; at: number; prices?: ModelPrices }
  /**
   * The Pod became busy or free: this UI's turn, answer or compaction, or a run of a served Pod
   * this UI did not start. Dispatched by the controller alone, in the same step as its own check
   * (which commands and queued prompts wait on) changes, so the status bar and the commands never
   * disagree. `at` is `Date.now()`.
   */
  | { type: "busy"; busy: boolean; at: number }
  /** The user submitted input; it is shown at once, before the Pod answers. */
  | { type: "submitted"; text: string; at: number }
  /**
   * The tool results history holds at the end of a run, dispatched just before its `run_end`:
   * calls skipped by a hook or denied never get a `tool_end`, their cards take the result from here.
   */
  | { type: "tool_results"; results: readonly ToolResultItem[] }
  /**
   * A run (or an answer to a permission request) returned, or threw (`error`, with no status).
   * Covers runs that ended without a `run_end`, and tells a pause that asks nothing from one that does.
   */
  | { type: "settled"; status?: PodRunResult["status"]; error?: string }
  /** Esc at the permission prompt: the paused call will not run. */
  | { type: "approval_abandoned" }
  | { type: "notice"; tone: NoticeTone; text: string }
  /** The served Pod this UI is attached to is gone (`yoake serve` stopped): what to do, as a notice. */
  | { type: "pod_gone"; text: string }
  | { type: "toggle_thinking" }
  /** A session opened from its log (`--continue`, `/resume`): its token counts so far, at the model's prices. */
  | { type: "usage_restored"; usage: Usage; prices?: ModelPrices }
  /** `/clear` started a new session: its token count starts at zero. */
  | { type: "session_cleared" }
  /** `/resume` without an id: the sessions to choose from; `undefined` closes the picker. */
  | { type: "session_picker"; sessions?: readonly SessionSummary[] }
  /** The prompts waiting for the running turn to end, oldest first (empty: none). */
  | { type: "queue_changed"; queued: readonly string[] }
  /** A conversation to show whole (at start, after `/resume`), under a title line. */
  | { type: "history_loaded"; items: readonly Item[]; title: string; subagents?: RestoredSubagents };
