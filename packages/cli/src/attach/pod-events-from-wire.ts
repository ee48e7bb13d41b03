import type { Item, Response, ToolCall, ToolResultItem } from "@yoake/llm-worker";
import type { ErrorInfo } from "@yoake/llm-worker/internal";
import type { PodEvent, PodRunResult } from "@yoake/pod";
import type { WireError, WireEvent, WireRunResult } from "@yoake/pod/protocol";

/**
 * Turns the events of a served Pod back into the Pod events the terminal UI, the headless run and
 * the ACP agent read, so that they need not know whether their Pod is in this process or behind a
 * socket. The wire form is the Pod event without what only the Pod needs (see the protocol's
 * DESIGN.md); what it left out comes back empty here (a response without its items, a call's
 * arguments text rebuilt from its deltas). A call's arguments arrive with `tool_call_done`, before
 * `tool_start` and `tool_result` name the call again: they are kept by call id until its result.
 */
export class PodEventsFromWire {
  private readonly calls = new Map<string, ToolCall>();
  private readonly argumentsText = new Map<string, string>();
  /** The provider's error that a failed `run_end` reports (the wire's result names only its message). */
  private lastError: ErrorInfo | undefined;

  /**
   * The Pod event of one wire event, or undefined for the wire's own (`shutdown`, `approvers`).
   * `history` is the conversation as the event leaves it, for a `history` event's notes.
   */
  convert(event: WireEvent, previousHistory: readonly Item[]): PodEvent | undefined {
    switch (event.event) {
      case "run_start":
        return { type: "run_start", input: event.input };
      case "turn_start":
        return { type: "turn_start", turn: event.turn };
      case "text_delta":
        return { type: "text_delta", index: event.index, text: event.text };
      case "thinking_delta":
        return { type: "thinking_delta", index: event.index, text: event.text };
      case "tool_call_start":
        this.argumentsText.set(event.callId, "");
        return { type: "tool_call_start", index: event.index, callId: event.callId, name: event.name };
      case "tool_call_delta":
        this.argumentsText.set(event.callId, (this.argumentsText.get(event.callId) ?? "") + event.json);
        return { type: "tool_call_delta", index: event.index, callId: event.callId, json: event.json };
      case "tool_call_done": {
        const call: ToolCall = {
          id: event.callId,
          name: event.name,
          argumentsText: this.argumentsText.get(event.callId) ?? JSON.stringify(event.arguments ?? {}),
          arguments: event.arguments,
          ...(event.parseError !== undefined && { parseError: event.parseError }),
        };
        this.argumentsText.delete(event.callId);
        this.calls.set(call.id, call);
        return { type: "tool_call_complete", call };
      }
      case "tool_start":
        return { type: "tool_start", call: this.call(event.callId, event.name) };
      case "tool_progress":
        return { type: "tool_progress", callId: event.callId, name: event.name, text: event.text };
      case "tool_result": {
        const call = this.call(event.callId, event.name);
        this.calls.delete(event.callId);
        const result: ToolResultItem = {
          type: "tool_result",
          callId: event.callId,
          name: event.name,
          summary: event.summary,
          ...(event.content !== undefined && { content: event.content }),
          ...(event.isError && { isError: true }),
        };
        return { type: "tool_end", call, result, durationMs: event.durationMs };
      }
      case "turn_end": {
        // Only what the wire carries: the items of the response are in history.
        const response = {
          status: event.status,
          stopReason: event.stopReason,
          items: [],
          ...(event.usage !== undefined && { usage: event.usage }),
        } as unknown as Response;
        return { type: "turn_end", turn: event.turn, response };
      }
      case "usage":
        // The provider's own usage object stays with the Pod.
        return { type: "usage", usage: { ...event.usage, raw: undefined } };
      case "error":
        this.lastError = errorInfo(event.error);
        return { type: "error", error: this.lastError };
      case "retry":
        return {
          type: "retry",
          turn: event.turn,
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          delayMs: event.delayMs,
          error: errorInfo(event.error),
        };
      case "fallback":
        return {
          type: "fallback",
          turn: event.turn,
          from: event.from,
          to: event.to,
          reason: event.reason,
          ...(event.error !== undefined && { error: errorInfo(event.error) }),
          coldCacheTokens: event.coldCacheTokens,
        };
      case "alert":
        return { type: "alert", level: event.level, message: event.message, source: event.source };
      case "permission_request": {
        const { event: _event, ...request } = event;
        return { type: "permission_request", ...request };
      }
      case "permission_resolved":
        return {
          type: "permission_resolved",
          id: event.id,
          callId: event.callId,
          tool: event.tool,
          decision: event.decision,
        };
      case "run_end": {
        const result = podRunResult(event.result, this.lastError);
        this.lastError = undefined;
        return { type: "run_end", result };
      }
      case "history":
        if (event.reason === "compact")
          return {
            type: "history_changed",
            reason: "compact",
            auto: event.auto === true,
            sessionId: event.sessionId ?? "",
            previousSessionId: "",
          };
        return {
          type: "history_changed",
          reason: "notify",
          // Notes are appended at the end: what the new history has beyond the old.
          added: event.items
            .slice(previousHistory.length)
            .filter((item): item is Extract<Item, { type: "message" }> => item.type === "message"),
        };
      case "plan":
        return { type: "plan_changed", plan: event.plan };
      case "subagent": {
        const { event: _event, ...activity } = event;
        return { type: "subagent", ...activity };
      }
      case "shutdown":
      case "approvers":
        return undefined;
      default: {
        // A newer Pod's event this client does not know: nothing to show.
        const unknown: never = event;
        return unknown;
      }
    }
  }

  private call(id: string, name: string): ToolCall {
    return this.calls.get(id) ?? { id, name, argumentsText: "", arguments: {} };
  }
}

/**
 * A run's end as the Pod's own result; the parts the wire leaves out are empty (the response) or
 * taken from the run's last `error` event (the provider's error of a failed run).
 */
export function podRunResult(result: WireRunResult, lastError?: ErrorInfo): PodRunResult {
  switch (result.status) {
    case "finished":
      return { ...result, response: { status: "completed", items: [] } as unknown as Response };
    case "paused":
      return {
        ...result,
        pendingToolCalls: result.pendingToolCalls.map((call) => ({
          id: call.callId,
          name: call.name,
          argumentsText: "",
          arguments: {},
        })),
      };
    case "cancelled":
      return result;
    case "failed": {
      const { kind, message } = result.error;
      const error =
        kind === "llm"
          ? { kind, message, error: lastError ?? { kind: "server", message } }
          : { kind, message };
      // A `pod` failure (the Pod threw) has no Worker kind: it is reported by its message.
      return { ...result, error: error as PodFailure };
    }
  }
}

type PodFailure = Extract<PodRunResult, { status: "failed" }>["error"];

function errorInfo(error: WireError): ErrorInfo {
  return error as ErrorInfo;
}
