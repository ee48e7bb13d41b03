/**
 * The one place a response is assembled: the built-in collectors registered on a Timeline build the
 * history items, the text and the tool calls of a `Response` as the blocks end, and say so through
 * one callback (the Worker's `*_complete` events). `client.complete`, the fallback chain and the
 * Worker all read responses this way. See DESIGN.md, "One response, one path".
 */
import type { BlockStartEvent, Event, StopReason } from "../llm-client/event.js";
import type { SchemeName } from "../llm-client/item.js";
import type { Response, ToolCall } from "../llm-client/response.js";
import type { RawBlockEvent } from "./event.js";
import type { Handler, RawBlockKind } from "./handler.js";
import { type CollectedText, TextBlockCollector } from "./text-block-collector.js";
import { type CollectedThinking, ThinkingBlockCollector } from "./thinking-block-collector.js";
import type { Timeline } from "./timeline.js";
import { type CollectedToolCall, ToolCallCollector } from "./tool-call-collector.js";

/** A block that ended whole (stopped, not aborted), as the Worker's `*_complete` events tell it. */
export type CompletedBlock =
  | { type: "text_complete"; index: number; text: string }
  | { type: "thinking_complete"; index: number; text: string }
  | { type: "tool_call_complete"; call: ToolCall };

/**
 * Builds one `Response` at a time from a Timeline's blocks (`begin()` starts the next). Feed it
 * events through `dispatch`, not the Timeline's own, so a stream's final status can end a block
 * left open.
 */
export class ResponseCollector {
  private response = emptyResponse();
  private origin: SchemeName;
  private ended = false;
  /** Blocks that ended during the dispatch under way, told once every handler has seen the end. */
  private completed: CompletedBlock[] = [];
  private readonly text = new TextBlockCollector((block, index, stopped) =>
    this.addText(block, index, stopped),
  );
  private readonly thinking = new ThinkingBlockCollector((block, index, stopped) =>
    this.addThinking(block, index, stopped),
  );
  private readonly tools = new ToolCallCollector((call) => this.addToolCall(call));

  /**
   * Registers on `timeline` (first, so the response is whole before later handlers see a block
   * end); `onComplete` hears of every block that stopped, after every handler saw it stop.
   */
  constructor(
    private readonly timeline: Timeline,
    origin: SchemeName,
    private readonly onComplete?: (block: CompletedBlock) => void,
  ) {
    this.origin = origin;
    timeline.onTextBlock(this.text);
    timeline.onThinkingBlock(this.thinking);
    timeline.onToolUseBlock(this.tools);
    timeline.onRawBlock(
      new UnroutedBlocks(
        () => this.response,
        () => this.origin,
      ),
    );
    timeline.onStatus((event) => {
      const r = this.response;
      if (event.status === "started") {
        if (event.responseId !== undefined) r.responseId = event.responseId;
        if (event.model !== undefined) r.model = event.model;
        return;
      }
      this.ended = true;
      r.status = event.status;
      r.stopReason = event.stopReason ?? (event.status === "completed" ? "end_turn" : "error");
      r.rawStopReason = event.rawStopReason ?? null;
      if (event.incompleteDetails !== undefined) r.incompleteDetails = event.incompleteDetails;
    });
    timeline.onUsage(({ type: _type, ...usage }) => {
      this.response.usage = usage;
    });
    timeline.onError(({ type: _type, ...info }) => {
      this.response.error ??= info;
    });
  }

  /** Starts a new response (a new request, or a fallback to another model's `origin`). */
  begin(origin: SchemeName): void {
    this.origin = origin;
    this.response = emptyResponse();
    this.ended = false;
    this.completed = [];
    this.text.clear();
    this.thinking.clear();
    this.tools.clear();
  }

  /**
   * Feeds one provider event to the Timeline. A final status with a block still open ends that
   * block first, so every handler sees it end: a completed stream stops it (a client that never
   * sent `block_stop`), a cancelled or failed one aborts it.
   */
  dispatch(event: Event): void {
    const open = this.timeline.currentBlock;
    if (open && event.type === "status" && event.status !== "started") {
      if (event.status === "completed")
        this.timeline.dispatch({ type: "block_stop", index: open.index, blockType: open.blockType });
      else this.timeline.abortCurrentBlock(this.abortReason(event.status));
    }
    this.timeline.dispatch(event);
    if (this.completed.length === 0) return;
    const completed = this.completed;
    this.completed = [];
    for (const block of completed) this.onComplete?.(block);
  }

  /** The response so far; throws until a final status arrived. */
  result(): Response {
    if (!this.ended) throw new Error("the stream has not ended");
    return this.response;
  }

  private abortReason(status: "cancelled" | "failed"): string {
    if (status === "cancelled") return "the response was cancelled";
    return `the response failed: ${this.response.error?.message ?? "no reason given"}`;
  }

  private addText(block: CollectedText, index: number, stopped: boolean): void {
    const r = this.response;
    r.text += block.text;
    r.items.push({
      type: "message",
      role: "assistant",
      text: block.text,
      ...(block.signature !== undefined && { signature: block.signature }),
      ...(block.itemId !== undefined && { itemId: block.itemId }),
      ...(block.citations !== undefined && { citations: block.citations }),
      origin: this.origin,
    });
    if (stopped && this.onComplete) this.completed.push({ type: "text_complete", index, text: block.text });
  }

  private addThinking(block: CollectedThinking, index: number, stopped: boolean): void {
    const r = this.response;
    r.reasoning += block.text;
    r.items.push({ type: "reasoning", ...block, origin: this.origin });
    if (stopped && this.onComplete)
      this.completed.push({ type: "thinking_complete", index, text: block.text });
  }

  private addToolCall(collected: CollectedToolCall): void {
    const { signature, itemId, ...call } = collected;
    const r = this.response;
    r.items.push({
      type: "tool_call",
      callId: call.id,
      name: call.name,
      arguments: call.argumentsText,
      ...(signature !== undefined && { signature }),
      ...(itemId !== undefined && { itemId }),
      ...(call.synthesizedId && { synthesizedId: true as const }),
      origin: this.origin,
    });
    r.toolCalls.push(call);
    if (this.onComplete) this.completed.push({ type: "tool_call_complete", call });
  }
}

interface UnroutedScope {
  start: BlockStartEvent | undefined;
  json: string;
}

/**
 * The blocks no seed kind carries (`redacted_thinking`, server tool use and results), from the raw
 * block events: they are history too. A server tool call cut off mid-arguments is left out.
 */
class UnroutedBlocks implements Handler<RawBlockKind, UnroutedScope> {
  constructor(
    private readonly response: () => Response,
    private readonly origin: () => SchemeName,
  ) {}

  createScope(): UnroutedScope {
    return { start: undefined, json: "" };
  }

  onEvent(scope: UnroutedScope, event: RawBlockEvent): void {
    if (event.type === "block_start") {
      if (UNROUTED.has(event.blockType)) scope.start = event;
      return;
    }
    const start = scope.start;
    if (!start) return;
    if (event.type === "block_delta") {
      if (event.delta.kind === "input_json") scope.json += event.delta.json;
      return;
    }
    const origin = this.origin();
    const items = this.response().items;
    const payload = { ...start.providerData, ...(event.type === "block_stop" ? event.providerData : {}) }.raw;
    if (start.blockType === "redacted_thinking")
      items.push({ type: "redacted_reasoning", data: start.data, origin });
    else if (start.blockType === "server_tool_result") {
      items.push({
        type: "server_tool",
        role: "result",
        id: start.toolUseId,
        name: start.resultType,
        payload,
        origin,
      });
    } else if (start.blockType === "server_tool_use" && event.type === "block_stop") {
      items.push({
        type: "server_tool",
        role: "call",
        id: start.id,
        name: start.name,
        arguments: scope.json,
        payload,
        origin,
      });
    }
  }
}

const UNROUTED = new Set(["redacted_thinking", "server_tool_use", "server_tool_result"]);

function emptyResponse(): Response {
  return {
    items: [],
    text: "",
    reasoning: "",
    toolCalls: [],
    status: "failed",
    stopReason: "error" satisfies StopReason,
    rawStopReason: null,
  };
}
