import type { ErrorInfo, Event, ProviderData, StopReason, Usage } from "./event.js";
import type { Item, SchemeName, ToolCallItem } from "./item.js";

/** A tool call of a response with its arguments parsed. */
export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text as streamed ("" when the model sent none). */
  argumentsText: string;
  /** Parsed arguments: `{}` for an empty text; undefined when the text is not valid JSON. */
  arguments: unknown;
  /** Why `argumentsText` did not parse; the worker answers such a call with an error result. */
  parseError?: string;
  synthesizedId?: true;
}

/** A whole response, gathered from its event stream (`client.complete`, `collectResponse`). */
export interface Response {
  responseId?: string;
  model?: string;
  /**
   * Every block as a history item, in stream order. A text or thinking block cut off by an error or
   * cancellation keeps what arrived; a tool call cut off mid-arguments is left out.
   */
  items: Item[];
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage?: Usage & { raw: unknown };
  status: "completed" | "failed" | "cancelled";
  stopReason: StopReason;
  rawStopReason: string | number | null;
  incompleteDetails?: unknown;
  /** The first error the stream reported. */
  error?: ErrorInfo;
}

export function parseToolArguments(text: string): { value: unknown; error?: string } {
  if (text.trim() === "") return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { value: undefined, error: `invalid JSON arguments: ${(err as Error).message}` };
  }
}

interface OpenBlock {
  start: Extract<Event, { type: "block_start" }>;
  text: string;
  json: string;
  signature: string;
  citations: unknown[];
}

/** Assembles a response one event at a time; `result()` may be called once the stream ended. */
export class ResponseAssembler {
  private readonly response: Response = {
    items: [],
    text: "",
    reasoning: "",
    toolCalls: [],
    status: "failed",
    stopReason: "error",
    rawStopReason: null,
  };
  private block: OpenBlock | undefined;
  private ended = false;

  constructor(private readonly origin: SchemeName) {}

  push(event: Event): void {
    const r = this.response;
    switch (event.type) {
      case "status":
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
        return;
      case "usage": {
        const { type: _type, ...usage } = event;
        r.usage = usage;
        return;
      }
      case "error":
        if (!r.error) {
          const { type: _type, ...info } = event;
          r.error = info;
        }
        return;
      case "ping":
        return;
      case "block_start":
        this.block = { start: event, text: "", json: "", signature: "", citations: [] };
        return;
      case "block_delta": {
        const b = this.block;
        if (!b) return;
        const d = event.delta;
        if (d.kind === "text" || d.kind === "thinking") b.text += d.text;
        else if (d.kind === "input_json") b.json += d.json;
        else if (d.kind === "signature") b.signature += d.signature;
        else b.citations.push(d.citation);
        return;
      }
      case "block_stop":
        if (this.block) this.finishBlock(this.block, event.providerData, false);
        this.block = undefined;
        return;
      case "block_abort":
        if (this.block) this.finishBlock(this.block, undefined, true);
        this.block = undefined;
        return;
    }
  }

  result(): Response {
    if (!this.ended) throw new Error("the stream has not ended");
    return this.response;
  }

  private finishBlock(b: OpenBlock, stopData: ProviderData | undefined, aborted: boolean): void {
    const start = b.start;
    const data: ProviderData = { ...start.providerData, ...stopData };
    const origin = this.origin;
    const signature = b.signature === "" ? undefined : b.signature;
    const r = this.response;
    switch (start.blockType) {
      case "text":
      case "tool_result": {
        r.text += b.text;
        r.items.push({
          type: "message",
          role: "assistant",
          text: b.text,
          ...(signature !== undefined && { signature }),
          ...(data.itemId !== undefined && { itemId: data.itemId }),
          ...(b.citations.length > 0 && { citations: b.citations }),
          origin,
        });
        return;
      }
      case "thinking":
        r.reasoning += b.text;
        r.items.push({
          type: "reasoning",
          text: b.text,
          ...(signature !== undefined && { signature }),
          ...(data.itemId !== undefined && { itemId: data.itemId }),
          ...(data.summary !== undefined && { summary: data.summary }),
          ...(data.encryptedContent !== undefined && { encryptedContent: data.encryptedContent }),
          origin,
        });
        return;
      case "redacted_thinking":
        r.items.push({ type: "redacted_reasoning", data: start.data, origin });
        return;
      case "tool_use": {
        if (aborted) return;
        const item: ToolCallItem = {
          type: "tool_call",
          callId: start.id,
          name: start.name,
          arguments: b.json,
          ...(signature !== undefined && { signature }),
          ...(data.itemId !== undefined && { itemId: data.itemId }),
          ...(start.synthesizedId && { synthesizedId: true as const }),
          origin,
        };
        r.items.push(item);
        const parsed = parseToolArguments(b.json);
        r.toolCalls.push({
          id: start.id,
          name: start.name,
          argumentsText: b.json,
          arguments: parsed.value,
          ...(parsed.error !== undefined && { parseError: parsed.error }),
          ...(start.synthesizedId && { synthesizedId: true as const }),
        });
        return;
      }
      case "server_tool_use":
        if (aborted) return;
        r.items.push({
          type: "server_tool",
          role: "call",
          id: start.id,
          name: start.name,
          arguments: b.json,
          payload: data.raw,
          origin,
        });
        return;
      case "server_tool_result":
        r.items.push({
          type: "server_tool",
          role: "result",
          id: start.toolUseId,
          name: start.resultType,
          payload: data.raw,
          origin,
        });
        return;
    }
  }
}

/** Gathers a whole event stream into one `Response`. */
export async function collectResponse(events: AsyncIterable<Event>, origin: SchemeName): Promise<Response> {
  const assembler = new ResponseAssembler(origin);
  for await (const event of events) assembler.push(event);
  return assembler.result();
}
