import type { Item, Usage, WorkerResult } from "@yoake/llm-worker";
import type { PodEvent } from "../pod/events.js";
import type { WireError, WireEvent, WireRunResult } from "./wire-events.js";

/**
 * A Pod event as the protocol sends it, or undefined for events clients do not need (the
 * Worker's `*_complete` text events repeat the deltas). `history` is read only for the events
 * that carry the whole history. The switch is exhaustive: a new Pod event type fails to compile
 * here until it is given a wire form (or explicitly left out).
 */
export function toWireEvent(event: PodEvent, history: () => readonly Item[]): WireEvent | undefined {
  switch (event.type) {
    case "run_start":
      return { event: "run_start", input: event.input };
    case "turn_start":
      return { event: "turn_start", turn: event.turn };
    case "text_delta":
      return { event: "text_delta", index: event.index, text: event.text };
    case "thinking_delta":
      return { event: "thinking_delta", index: event.index, text: event.text };
    case "text_complete":
    case "thinking_complete":
      return undefined;
    case "tool_call_start":
      return { event: "tool_call_start", index: event.index, callId: event.callId, name: event.name };
    case "tool_call_delta":
      return { event: "tool_call_delta", index: event.index, callId: event.callId, json: event.json };
    case "tool_call_complete": {
      const { call } = event;
      return {
        event: "tool_call_done",
        callId: call.id,
        name: call.name,
        arguments: call.arguments,
        ...(call.parseError !== undefined && { parseError: call.parseError }),
      };
    }
    case "tool_start":
      return { event: "tool_start", callId: event.call.id, name: event.call.name };
    case "tool_progress":
      return { event: "tool_progress", callId: event.callId, name: event.name, text: event.text };
    case "tool_end": {
      const { result } = event;
      return {
        event: "tool_result",
        callId: result.callId,
        name: result.name,
        isError: result.isError === true,
        summary: result.summary,
        ...(result.content !== undefined && { content: result.content }),
        durationMs: event.durationMs,
      };
    }
    case "turn_end": {
      const { response } = event;
      const usage = response.usage && usageOf(response.usage);
      return {
        event: "turn_end",
        turn: event.turn,
        status: response.status,
        stopReason: response.stopReason,
        ...(usage !== undefined && { usage }),
      };
    }
    case "usage":
      return { event: "usage", usage: usageOf(event.usage) };
    case "error":
      return { event: "error", error: wireError(event.error) };
    case "retry":
      return {
        event: "retry",
        turn: event.turn,
        attempt: event.attempt,
        maxAttempts: event.maxAttempts,
        delayMs: event.delayMs,
        error: wireError(event.error),
      };
    case "fallback":
      return {
        event: "fallback",
        turn: event.turn,
        from: event.from,
        to: event.to,
        reason: event.reason,
        ...(event.error !== undefined && { error: wireError(event.error) }),
        coldCacheTokens: event.coldCacheTokens,
      };
    case "run_end":
      return { event: "run_end", result: toWireRunResult(event.result) };
    case "alert":
      return { event: "alert", level: event.level, message: event.message, source: event.source };
    case "permission_request": {
      const { type: _type, ...request } = event;
      return { event: "permission_request", ...request };
    }
    case "permission_resolved":
      return {
        event: "permission_resolved",
        id: event.id,
        callId: event.callId,
        tool: event.tool,
        decision: event.decision,
      };
    case "history_changed":
      return event.reason === "compact"
        ? {
            event: "history",
            reason: "compact",
            items: [...history()],
            sessionId: event.sessionId,
            auto: event.auto,
          }
        : { event: "history", reason: "notify", items: [...history()] };
    case "plan_changed":
      return { event: "plan", plan: event.plan };
    case "subagent": {
      const { type: _type, ...activity } = event;
      return { event: "subagent", ...activity };
    }
    default: {
      const unmapped: never = event;
      return unmapped;
    }
  }
}

/** A run's result without what only the Pod needs (the whole response, the provider's raw error). */
export function toWireRunResult(result: WorkerResult): WireRunResult {
  switch (result.status) {
    case "finished":
      return { status: "finished", text: result.text, usage: result.usage, turns: result.turns };
    case "paused":
      return {
        status: "paused",
        reason: result.reason,
        by: result.by,
        pendingToolCalls: result.pendingToolCalls.map((call) => ({ callId: call.id, name: call.name })),
        usage: result.usage,
        turns: result.turns,
      };
    case "cancelled":
      return {
        status: "cancelled",
        reason: result.reason,
        by: result.by,
        usage: result.usage,
        turns: result.turns,
      };
    case "failed":
      return {
        status: "failed",
        error: { kind: result.error.kind, message: result.error.message },
        usage: result.usage,
        turns: result.turns,
      };
  }
}

/** A run that could not start or threw (not a Worker result): failed, with the reason. */
export function failedRunResult(message: string): WireRunResult {
  return { status: "failed", error: { kind: "pod", message }, usage: {}, turns: 0 };
}

/** The normalized fields only: the provider's raw usage object stays in the Pod. */
function usageOf(usage: Usage & { raw?: unknown }): Usage {
  const { raw: _raw, ...normalized } = usage;
  return normalized;
}

function wireError(error: {
  kind: string;
  message: string;
  code?: string | undefined;
  status?: number | undefined;
}): WireError {
  return {
    kind: error.kind,
    message: error.message,
    ...(error.code !== undefined && { code: error.code }),
    ...(error.status !== undefined && { status: error.status }),
  };
}
