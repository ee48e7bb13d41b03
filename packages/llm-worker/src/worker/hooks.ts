import type { Usage } from "../llm-client/event.js";
import type { Item, ToolResultItem } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import type { ToolCall } from "../llm-client/response.js";

/**
 * Two tiers of extension (seed 001 `WorkerHook`, grown up). Interceptors run first, for the code
 * that owns the Worker: they see the live context and may edit it. Hooks are the safe tier for
 * extensions the owner does not fully trust (a Pod's configured shell hooks, plugins): they get
 * read-only summaries and return only a control-flow action. Every method is optional and may be
 * async; returning nothing means `continue`. A method that throws fails the run, naming the hook.
 */
export interface Interceptor {
  /** Shown in errors and alerts; defaults to the class or "interceptor #<n>". */
  readonly name?: string;
  /** The user's input, before it enters history: edit `input.items` in place, cancel, or add items after it. */
  onPromptSubmit?(input: { items: Item[] }): Awaitable<PromptAction | InterceptorPromptAction | undefined>;
  /**
   * The request about to be sent. To send other items than the history's (a projection such as
   * prune), return `{ action: "project", items }`: the stored history never changes, and the
   * interceptors after this one see the projected request.
   */
  onPreRequest?(
    context: PreRequestContext,
  ): Awaitable<PreRequestAction | InterceptorPreRequestAction | undefined>;
  /** A tool call about to run: `call.arguments` may be replaced (it is validated afterwards). */
  beforeToolCall?(call: ToolCall): Awaitable<BeforeToolAction | undefined>;
  /** A result about to enter history: edit `result` in place, or hide it from the model. */
  afterToolCall?(
    result: ToolResultItem,
    call: Readonly<ToolCall>,
  ): Awaitable<AfterToolAction | InterceptorAfterToolAction | undefined>;
  /** The model answered without tool calls: finish, continue with messages (self-correction), or pause. */
  onTurnEnd?(context: {
    items: readonly Item[];
    text: string;
    turn: number;
  }): Awaitable<TurnEndAction | undefined>;
}

export interface PreRequestContext {
  /** This request's own copy; project its items by returning a `project` action. */
  request: Request;
  turn: number;
  /** Usage of this run so far. */
  usage: Usage;
  /** Usage the provider reported for the previous request this worker sent (any run), if any. */
  previousUsage: Usage | undefined;
}

/** The safe tier: the same points, read-only summaries in, an action out. */
export interface Hook {
  readonly name?: string;
  onPromptSubmit?(summary: PromptSummary): Awaitable<PromptAction | undefined>;
  onPreRequest?(summary: RequestSummary): Awaitable<PreRequestAction | undefined>;
  beforeToolCall?(summary: ToolCallSummary): Awaitable<BeforeToolAction | undefined>;
  afterToolCall?(summary: ToolResultSummary): Awaitable<AfterToolAction | undefined>;
  onTurnEnd?(summary: TurnEndSummary): Awaitable<TurnEndAction | undefined>;
}

type Awaitable<T> = T | Promise<T>;

export interface PromptSummary {
  readonly text: string;
}
export interface RequestSummary {
  readonly turn: number;
  readonly itemCount: number;
  readonly inputTokensSoFar: number;
}
export interface ToolCallSummary {
  readonly callId: string;
  readonly name: string;
  /** Parsed arguments (a frozen copy), or undefined when they were not valid JSON. */
  readonly arguments: unknown;
}
export interface ToolResultSummary {
  readonly callId: string;
  readonly name: string;
  readonly isError: boolean;
  readonly summary: string;
}
export interface TurnEndSummary {
  readonly turn: number;
  readonly text: string;
}

export type PromptAction = { action: "continue" } | { action: "cancel"; reason?: string };
/** Interceptors only: adds `items` right after the user message, then continues. */
export type InterceptorPromptAction = { action: "continue_with"; items: Item[] };
/** `yield` pauses the run before this request; `resume()` sends it. */
export type PreRequestAction =
  | { action: "continue" }
  | { action: "cancel"; reason?: string }
  | { action: "yield"; reason?: string };
/** Interceptors only: this request sends `items` in place of the history's; the history is kept. */
export type InterceptorPreRequestAction = { action: "project"; items: readonly Item[] };
/**
 * `skip` answers the call without running it (the model reads `reason`); `abort` ends the run
 * (cancelled), every call answered; `pause` ends the run paused, and `resume()` goes on past this
 * hook without asking it again (the interceptors and hooks after it are still asked).
 */
export type BeforeToolAction =
  | { action: "continue" }
  | { action: "skip"; reason?: string }
  | { action: "abort"; reason?: string }
  | { action: "pause"; reason?: string };
export type AfterToolAction = { action: "continue" } | { action: "abort"; reason?: string };
/** Interceptors only: replaces what the model sees of the result with a short notice. */
export type InterceptorAfterToolAction = { action: "hide"; reason?: string };
/**
 * `finish` (or nothing) lets the run end unless a later step says otherwise; `continue` adds `items`
 * and makes another request (it counts against `maxTurns`); `pause` ends the run paused, and
 * `resume()` makes a new request.
 */
export type TurnEndAction =
  | { action: "finish" }
  | { action: "continue"; items: Item[] }
  | { action: "pause"; reason?: string };
