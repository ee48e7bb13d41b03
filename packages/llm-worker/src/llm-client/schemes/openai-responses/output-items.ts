import type { EventWriter } from "../../event-writer.js";
import { MalformedFrame } from "../json-frame-decoder.js";
import { stringOrUndefined } from "../wire-json.js";
import type {
  WireOutputContentPart,
  WireOutputFunctionCall,
  WireOutputItem,
  WireOutputMessage,
  WireOutputReasoning,
  WireResponse,
  WireStreamEvent,
  WireSummaryText,
} from "./wire.js";

/** The output item being streamed; the Responses API streams one item at a time. */
type OpenItem =
  | { kind: "message"; outputIndex: number; itemId: string | undefined; nextContentIndex: number }
  | {
      kind: "reasoning";
      outputIndex: number;
      itemId: string | undefined;
      summary: string[];
      encryptedContent: string | null;
      thinkingSent: boolean;
    }
  | { kind: "function_call"; outputIndex: number; itemId: string | undefined; argumentsSent: boolean }
  | { kind: "server_tool"; outputIndex: number };

type ReasoningItem = Extract<OpenItem, { kind: "reasoning" }>;

/** The message content part whose text block is open. */
interface OpenPart {
  outputIndex: number;
  contentIndex: number;
  textSent: boolean;
}

/**
 * Turns output items into blocks: a thinking block per reasoning item, a tool_use block per
 * function call, a server_tool_use block per built-in tool item, and a text block per output text
 * or refusal part of a message. Where the stream skips a start (a delta or a done event with no
 * `added` before it) the start is synthesized; where it skips the deltas, the done event's text
 * fills the block.
 */
export class OutputItemBlocks {
  private item: OpenItem | undefined;
  private part: OpenPart | undefined;
  private toolCalls = 0;
  private refusals = 0;

  constructor(private readonly writer: EventWriter) {}

  /** The response has called at least one client tool. */
  get sawToolCall(): boolean {
    return this.toolCalls > 0;
  }

  /** The response has a refusal part. */
  get sawRefusal(): boolean {
    return this.refusals > 0;
  }

  itemAdded(outputIndex: number, item: WireOutputItem): void {
    this.closeItem();
    const itemId = stringOrUndefined(item.id);
    switch (item.type) {
      case "message":
        this.item = { kind: "message", outputIndex, itemId, nextContentIndex: 0 };
        return;
      case "reasoning": {
        const encrypted = (item as WireOutputReasoning).encrypted_content;
        this.writer.openBlock({
          blockType: "thinking",
          ...(itemId !== undefined && { providerData: { itemId } }),
        });
        this.item = {
          kind: "reasoning",
          outputIndex,
          itemId,
          summary: [],
          encryptedContent: typeof encrypted === "string" ? encrypted : null,
          thinkingSent: false,
        };
        return;
      }
      case "function_call": {
        const call = item as WireOutputFunctionCall;
        this.writer.openBlock({
          blockType: "tool_use",
          id: stringField(call.call_id, "item.call_id"),
          name: stringField(call.name, "item.name"),
          ...(itemId !== undefined && { providerData: { itemId } }),
        });
        this.item = { kind: "function_call", outputIndex, itemId, argumentsSent: false };
        this.toolCalls++;
        // Some servers put the whole arguments on the added item and stream no deltas.
        this.argumentsDone(call.arguments);
        return;
      }
      default:
        // A built-in tool call (web_search_call, code_interpreter_call, mcp_call, ...), kept whole.
        this.writer.openBlock({
          blockType: "server_tool_use",
          id: itemId ?? "",
          name: item.type,
          providerData: { raw: item },
        });
        this.item = { kind: "server_tool", outputIndex };
    }
  }

  itemDone(outputIndex: number, item: WireOutputItem): void {
    const open = this.item;
    if (!open || open.outputIndex !== outputIndex || kindOf(item) !== open.kind) {
      // No matching `output_item.added`: take the finished item as both start and end.
      this.itemAdded(outputIndex, item);
    }
    const current = this.item;
    if (!current) return;
    this.item = undefined;
    switch (current.kind) {
      case "message":
        this.closePart();
        this.remainingParts(current, (item as WireOutputMessage).content);
        return;
      case "reasoning": {
        const r = item as WireOutputReasoning;
        const summary = Array.isArray(r.summary) ? summaryTexts(r.summary) : current.summary;
        // A reasoning item that arrived whole (no summary deltas) still shows its summary.
        const text = current.thinkingSent ? "" : summary.join("");
        if (text !== "") this.writer.delta({ kind: "thinking", text });
        // The finished item is the one to send back: its encrypted content, or none.
        const encryptedContent = typeof r.encrypted_content === "string" ? r.encrypted_content : null;
        const itemId = stringOrUndefined(r.id) ?? current.itemId;
        this.writer.closeBlock({ ...(itemId !== undefined && { itemId }), summary, encryptedContent });
        return;
      }
      case "function_call": {
        const call = item as WireOutputFunctionCall;
        this.argumentsDone(call.arguments, current);
        const itemId = stringOrUndefined(call.id) ?? current.itemId;
        this.writer.closeBlock(itemId !== undefined ? { itemId } : undefined);
        return;
      }
      case "server_tool":
        this.writer.closeBlock({ raw: item });
        return;
    }
  }

  /** Closes the open item with what arrived (it ended without its `output_item.done`). */
  closeItem(): void {
    const open = this.item;
    if (!open) return;
    this.item = undefined;
    this.closePart();
    if (open.kind === "reasoning") {
      this.writer.closeBlock({
        ...(open.itemId !== undefined && { itemId: open.itemId }),
        summary: open.summary,
        encryptedContent: open.encryptedContent,
      });
    } else if (open.kind !== "message") {
      this.writer.closeBlock();
    }
  }

  /** Drops the open item without closing its block: the writer aborts the block on the error that follows. */
  forget(): void {
    this.item = undefined;
    this.part = undefined;
  }

  // --- reasoning ------------------------------------------------------------------------------

  summaryPartAdded(outputIndex: number, itemId: unknown, summaryIndex: number): void {
    const reasoning = this.reasoningItem(outputIndex, itemId);
    if (reasoning.summary[summaryIndex] === undefined) reasoning.summary[summaryIndex] = "";
  }

  /** A summary delta (with its part index) or a raw reasoning text delta (index undefined). */
  reasoningDelta(
    outputIndex: number,
    itemId: unknown,
    summaryIndex: number | undefined,
    delta: string,
  ): void {
    const reasoning = this.reasoningItem(outputIndex, itemId);
    if (summaryIndex !== undefined) {
      reasoning.summary[summaryIndex] = (reasoning.summary[summaryIndex] ?? "") + delta;
    }
    if (delta === "") return;
    reasoning.thinkingSent = true;
    this.writer.delta({ kind: "thinking", text: delta });
  }

  /** The reasoning item the summary events belong to; opened here if the stream skipped its start. */
  private reasoningItem(outputIndex: number, itemId: unknown): ReasoningItem {
    const open = this.item;
    if (open?.kind === "reasoning" && open.outputIndex === outputIndex) return open;
    this.itemAdded(outputIndex, { type: "reasoning", id: stringOrUndefined(itemId) } as WireOutputItem);
    return this.item as unknown as ReasoningItem;
  }

  // --- function calls -------------------------------------------------------------------------

  argumentsDelta(delta: string): void {
    const call = this.item;
    if (call?.kind !== "function_call" || delta === "") return;
    call.argumentsSent = true;
    this.writer.delta({ kind: "input_json", json: delta });
  }

  /** The whole arguments, sent only if no delta carried them. */
  argumentsDone(args: unknown, call: OpenItem | undefined = this.item): void {
    if (call?.kind !== "function_call" || call.argumentsSent) return;
    if (typeof args !== "string" || args === "") return;
    call.argumentsSent = true;
    this.writer.delta({ kind: "input_json", json: args });
  }

  // --- message content parts ------------------------------------------------------------------

  partAdded(outputIndex: number, contentIndex: number, itemId: unknown, part: unknown): void {
    if (isTextPart(part)) this.openPart(outputIndex, contentIndex, itemId);
  }

  textDelta(
    outputIndex: number,
    contentIndex: number,
    itemId: unknown,
    text: string,
    refusal: boolean,
  ): void {
    if (refusal) this.refusals++;
    if (!this.isOpenPart(outputIndex, contentIndex)) this.openPart(outputIndex, contentIndex, itemId);
    if (text === "") return;
    (this.part as OpenPart).textSent = true;
    this.writer.delta({ kind: "text", text });
  }

  /** The final text of a part (`output_text.done`, `refusal.done`): used only if no delta came. */
  textDone(
    outputIndex: number,
    contentIndex: number,
    itemId: unknown,
    text: unknown,
    refusal: boolean,
  ): void {
    if (refusal) this.refusals++;
    if (typeof text !== "string" || text === "") return;
    const part = this.part;
    if (part?.outputIndex === outputIndex && part.contentIndex === contentIndex && part.textSent) return;
    const message = this.item;
    const alreadyClosed =
      part === undefined &&
      message?.kind === "message" &&
      message.outputIndex === outputIndex &&
      contentIndex < message.nextContentIndex;
    if (!alreadyClosed) this.textDelta(outputIndex, contentIndex, itemId, text, false);
  }

  partDone(outputIndex: number, contentIndex: number, itemId: unknown, part: unknown): void {
    if (!isTextPart(part)) return;
    this.textDone(outputIndex, contentIndex, itemId, partText(part), part.type === "refusal");
    this.closePart();
  }

  private openPart(outputIndex: number, contentIndex: number, itemId: unknown): void {
    let message = this.item;
    if (message?.kind !== "message" || message.outputIndex !== outputIndex) {
      // A part with no `output_item.added` before it: synthesize the message item.
      this.closeItem();
      message = { kind: "message", outputIndex, itemId: stringOrUndefined(itemId), nextContentIndex: 0 };
      this.item = message;
    }
    this.closePart();
    this.writer.openBlock({
      blockType: "text",
      ...(message.itemId !== undefined && { providerData: { itemId: message.itemId } }),
    });
    this.part = { outputIndex, contentIndex, textSent: false };
    message.nextContentIndex = Math.max(message.nextContentIndex, contentIndex + 1);
  }

  private isOpenPart(outputIndex: number, contentIndex: number): boolean {
    const part = this.part;
    return part !== undefined && part.outputIndex === outputIndex && part.contentIndex === contentIndex;
  }

  private closePart(): void {
    if (!this.part) return;
    this.part = undefined;
    this.writer.closeBlock();
  }

  /** Parts of a finished message that no part event announced still become blocks. */
  private remainingParts(message: Extract<OpenItem, { kind: "message" }>, content: unknown): void {
    if (!Array.isArray(content)) return;
    for (let i = message.nextContentIndex; i < content.length; i++) {
      const part: unknown = content[i];
      if (!isTextPart(part)) continue;
      if (part.type === "refusal") this.refusals++;
      this.writer.openBlock({
        blockType: "text",
        ...(message.itemId !== undefined && { providerData: { itemId: message.itemId } }),
      });
      const text = partText(part as WireOutputContentPart);
      if (text !== "") this.writer.delta({ kind: "text", text });
      this.writer.closeBlock();
    }
  }
}

function kindOf(item: WireOutputItem): OpenItem["kind"] {
  if (item.type === "message" || item.type === "reasoning" || item.type === "function_call") return item.type;
  return "server_tool";
}

/*
 * Checked reads of the fields the decoder relies on. The stream is untrusted input: a field of the
 * wrong type throws `MalformedFrame`, which the decoder turns into a stream failure.
 */

export function stringField(value: unknown, name: string): string {
  if (typeof value !== "string") throw new MalformedFrame(`${name} is not a string`);
  return value;
}

export function responseOf(event: WireStreamEvent): WireResponse {
  const response = (event as { response?: unknown }).response;
  if (typeof response !== "object" || response === null) throw new MalformedFrame("no response object");
  return response as WireResponse;
}

export function itemOf(event: WireStreamEvent): WireOutputItem {
  const item = (event as { item?: unknown }).item;
  if (typeof item !== "object" || item === null || typeof (item as { type?: unknown }).type !== "string") {
    throw new MalformedFrame("no output item");
  }
  return item as WireOutputItem;
}

export function outputIndexOf(event: WireStreamEvent): number {
  const index = (event as { output_index?: unknown }).output_index;
  // Servers that leave it out stream one item at a time anyway.
  return typeof index === "number" ? index : 0;
}

export function contentIndexOf(event: WireStreamEvent): number {
  const index = (event as { content_index?: unknown }).content_index;
  return typeof index === "number" ? index : 0;
}

export function summaryIndexOf(index: unknown): number {
  return typeof index === "number" && index >= 0 ? index : 0;
}

/** The content parts that become text blocks: output text and refusals. */
export function isTextPart(part: unknown): part is WireOutputContentPart {
  if (typeof part !== "object" || part === null) return false;
  const type = (part as { type?: unknown }).type;
  return type === "output_text" || type === "refusal";
}

export function partText(part: WireOutputContentPart): string {
  const text = part.type === "refusal" ? part.refusal : part.text;
  return typeof text === "string" ? text : "";
}

export function summaryTexts(summary: readonly WireSummaryText[]): string[] {
  return summary.map((part) => (typeof part?.text === "string" ? part.text : ""));
}
