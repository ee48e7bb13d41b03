import type { ErrorEvent, UsageEvent } from "../llm-client/event.js";
import type { FallbackNotice, ModelRef } from "../llm-client/fallback.js";
import type { ToolResultItem } from "../llm-client/item.js";
import type { Response, ToolCall } from "../llm-client/response.js";
import type { WorkerResult } from "./result.js";

/**
 * What a Worker tells the outside, for UIs and logs (seed 001, "Worker Event API"). Block deltas
 * come from the Timeline; the `*_complete`, turn and tool-execution events are the Worker's own.
 * A turn is one request to the model and its response.
 */
export type WorkerEvent =
  | { type: "run_start"; input: string }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; index: number; text: string }
  | { type: "text_complete"; index: number; text: string }
  | { type: "thinking_delta"; index: number; text: string }
  | { type: "thinking_complete"; index: number; text: string }
  | { type: "tool_call_start"; index: number; callId: string; name: string }
  | { type: "tool_call_delta"; index: number; callId: string; json: string }
  | { type: "tool_call_complete"; call: ToolCall }
  | { type: "usage"; usage: Omit<UsageEvent, "type"> }
  | { type: "error"; error: Omit<ErrorEvent, "type"> }
  /**
   * The request of turn `turn` failed before anything of its response was delivered and is sent
   * again after `delayMs`: attempt `attempt` of at most `maxAttempts`. `error` says why (its
   * `status` when the provider answered with an HTTP error).
   */
  | {
      type: "retry";
      turn: number;
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      error: Omit<ErrorEvent, "type">;
    }
  /**
   * A chain of models (`createFallbackClient`) moved to `to` for turn `turn`: `from` failed with an
   * error retrying would not fix soon (`reason: "error"`), or its cool-down is over and the first
   * model is tried again (`"primary_probe"`). `coldCacheTokens` prices the switch: the prompt (an
   * estimate) that `to` reads without a cache.
   */
  | {
      type: "fallback";
      turn: number;
      from: ModelRef;
      to: ModelRef;
      reason: FallbackNotice["reason"];
      error?: Omit<ErrorEvent, "type">;
      coldCacheTokens: number;
    }
  | { type: "turn_end"; turn: number; response: Response }
  | { type: "tool_start"; call: ToolCall }
  /** Output a running tool reported before its result (a command's output as it is written). */
  | { type: "tool_progress"; callId: string; name: string; text: string }
  | { type: "tool_end"; call: ToolCall; result: ToolResultItem; durationMs: number }
  | { type: "run_end"; result: WorkerResult };

export type WorkerEventType = WorkerEvent["type"];
export type WorkerEventOf<T extends WorkerEventType> = Extract<WorkerEvent, { type: T }>;
