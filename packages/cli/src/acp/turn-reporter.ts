import type { SessionUpdate, ToolCallContent, ToolCallStatus } from "@agentclientprotocol/sdk";
import type { Item, ToolCall, ToolResultItem, Usage } from "@yoake/llm-worker";
import type { Unsubscribe } from "@yoake/llm-worker/internal";
import type { Alert, Pod } from "@yoake/pod";
import { screenText } from "../screen-text.js";
import { toolCallView, toolKind } from "./tool-call-view.js";

/** Where a turn's updates and alerts go. */
export interface TurnSink {
  /** One `session/update` of this session, in order. */
  update(update: SessionUpdate): void;
  alert(alert: Alert): void;
}

/** What the content of a call that never ran says. */
export const NOT_RUN_TEXT = "Not run: the turn ended before this call ran.";

/**
 * Turns the Pod's events during one prompt turn into ACP `session/update`s:
 * - text and thinking deltas → `agent_message_chunk` / `agent_thought_chunk`;
 * - a tool call the model starts → `tool_call` (pending, titled by the tool's name); its complete
 *   arguments → `tool_call_update` with the real title, locations and raw input; the tool running
 *   → `in_progress`; its result → `completed` or `failed`, with the result as text content;
 * - each response's usage → `usage_update` (when the model's context window is known);
 * - alerts → the sink.
 *
 * Every call it announced ends `completed` or `failed` by the end of the turn (`finish`), also
 * those that never ran: denied, skipped by a hook, cut off by a cancellation.
 */
export class TurnReporter {
  /** Calls announced this turn that have not reached a final status, by call id. */
  private readonly open = new Map<string, string>();

  constructor(
    private readonly sink: TurnSink,
    private readonly projectRoot: string,
    private readonly contextWindow: number | undefined,
  ) {}

  /** Subscribes to the Pod's events for the turn; returns the function that stops it. */
  listen(pod: Pick<Pod, "on">): Unsubscribe {
    const sink = this.sink;
    const offs = [
      pod.on("text_delta", (event) => {
        if (event.text !== "")
          sink.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
      }),
      pod.on("thinking_delta", (event) => {
        if (event.text !== "")
          sink.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } });
      }),
      pod.on("tool_call_start", (event) => this.announce(event.callId, event.name)),
      pod.on("tool_call_complete", (event) => this.argumentsKnown(event.call)),
      pod.on("tool_start", (event) => this.running(event.call)),
      pod.on("tool_end", (event) => this.ended(event.result)),
      pod.on("turn_end", (event) => this.usage(event.response.usage)),
      pod.on("alert", (event) => sink.alert(event)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Ends a call now, with its reason as content (a rejection, before the model goes on). */
  settle(callId: string, status: ToolCallStatus, text: string): void {
    if (!this.open.delete(callId)) return;
    this.sink.update({
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      status,
      content: [textContent(text)],
    });
  }

  /**
   * Ends every call still open: with its result from history when it has one (a skip, a
   * cancellation marker), else failed as never run (the turn was cancelled while it waited for
   * approval, or before its arguments were complete).
   */
  finish(history: readonly Item[]): void {
    if (this.open.size === 0) return;
    const results = new Map<string, ToolResultItem>();
    for (let i = history.length - 1; i >= 0 && results.size < this.open.size; i--) {
      const item = history[i] as Item;
      if (item.type === "tool_result" && this.open.has(item.callId)) results.set(item.callId, item);
    }
    for (const callId of [...this.open.keys()]) {
      const result = results.get(callId);
      if (result !== undefined) this.ended(result);
      else this.settle(callId, "failed", NOT_RUN_TEXT);
    }
  }

  private announce(callId: string, name: string): void {
    this.open.set(callId, name);
    this.sink.update({
      sessionUpdate: "tool_call",
      toolCallId: callId,
      title: screenText(name),
      kind: toolKind(name),
      status: "pending",
    });
  }

  private argumentsKnown(call: ToolCall): void {
    // Every provider's calls get a start first; a call that somehow had none is announced here.
    if (!this.open.has(call.id)) this.announce(call.id, call.name);
    const view = toolCallView(call, this.projectRoot);
    this.sink.update({
      sessionUpdate: "tool_call_update",
      toolCallId: call.id,
      title: view.title,
      kind: view.kind,
      rawInput: call.parseError === undefined ? call.arguments : call.argumentsText,
      ...(view.locations.length > 0 && { locations: view.locations }),
    });
  }

  private running(call: ToolCall): void {
    if (!this.open.has(call.id)) this.argumentsKnown(call);
    this.sink.update({ sessionUpdate: "tool_call_update", toolCallId: call.id, status: "in_progress" });
  }

  private ended(result: ToolResultItem): void {
    this.settle(
      result.callId,
      result.isError === true ? "failed" : "completed",
      result.content ?? result.summary,
    );
  }

  private usage(usage: Usage | undefined): void {
    if (this.contextWindow === undefined || usage?.inputTokens === undefined) return;
    this.sink.update({
      sessionUpdate: "usage_update",
      used: usage.inputTokens + (usage.outputTokens ?? 0),
      size: this.contextWindow,
    });
  }
}

/**
 * A tool call's text as ACP content: screen text (`screenText`), since an editor may show a
 * tool's output in a terminal view; a control in it arrives as a placeholder.
 */
export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text: screenText(text) } };
}
