import { errorKindFromCode } from "../../error-kind.js";
import type { ErrorInfo, Event, StopReason, UsageEvent } from "../../event.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { JsonFrameDecoder, MalformedFrame } from "../json-frame-decoder.js";
import { numberOrUndefined, stringOrUndefined } from "../wire-json.js";
import type {
  WireArgumentsDeltaEvent,
  WireArgumentsDoneEvent,
  WireContentPartEvent,
  WireErrorEvent,
  WireLifecycleEvent,
  WireOutputContentPart,
  WireOutputFunctionCall,
  WireOutputItem,
  WireOutputMessage,
  WireOutputReasoning,
  WireReasoningDeltaEvent,
  WireRefusalDoneEvent,
  WireResponse,
  WireStreamEvent,
  WireSummaryPartEvent,
  WireTextDeltaEvent,
  WireTextDoneEvent,
  WireUsage,
} from "./wire.js";

export function createOpenaiResponsesDecoder(emit: (event: Event) => void): StreamDecoder {
  return new OpenaiResponsesDecoder(emit);
}

/** The output item being streamed; the Responses API streams one item at a time. */
interface OpenItem {
  /** A built-in tool item (web_search_call, mcp_call, ...) is a `server_tool`. */
  kind: "message" | "reasoning" | "function_call" | "server_tool";
  outputIndex: number;
  itemId: string | undefined;
  /**
   * A delta carried text (the reasoning, the arguments, the open part's text), so the whole text a
   * done event repeats is not sent again.
   */
  sent: boolean;
  /** Reasoning: the summary parts so far and the encrypted content, in case no done item comes. */
  summary: string[];
  encryptedContent: string | null;
  /** Message: the content part whose text block is open, and the first part no event has reached. */
  part: number | undefined;
  nextContentIndex: number;
}

/**
 * Decodes the Responses API event stream. Output items become blocks: a thinking block per
 * reasoning item, a tool_use block per function call, a server_tool_use block per built-in tool
 * item, and a text block per output text or refusal part of a message. Servers skip events: where a
 * delta or a done event comes with no `added` before it the start is synthesized, and where the
 * deltas are skipped the done event's whole text fills the block (`write`). The stream ends at
 * `response.completed`, `response.incomplete` or `response.failed`; a body that ends before one of
 * them is a truncation, unless an `error` event already said why.
 */
class OpenaiResponsesDecoder extends JsonFrameDecoder {
  protected readonly frameName = "openai-responses event";
  private item: OpenItem | undefined;
  /** The response has called at least one client tool. */
  private sawToolCall = false;
  /** The response has a refusal part. */
  private sawRefusal = false;
  /** An `error` event came; the stream fails with it if no terminal event follows. */
  private reportedError: ErrorInfo | undefined;

  protected read(json: Record<string, unknown>, frame: Frame): void {
    const event = json as unknown as WireStreamEvent;
    const type = typeof event.type === "string" ? event.type : frame.event;
    if (type === undefined) {
      this.malformed("no event type", frame.data);
      return;
    }
    this.handle(type, event);
  }

  end(): void {
    if (this.writer.isFinished) return;
    if (this.reportedError) {
      this.writer.fail(this.reportedError, null, true);
      return;
    }
    this.truncated();
  }

  fail(error: ErrorInfo): void {
    this.writer.fail(error);
  }

  private handle(type: string, event: WireStreamEvent): void {
    switch (type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued": {
        const response = responseOf(event);
        this.writer.started(stringOrUndefined(response.id), stringOrUndefined(response.model));
        return;
      }
      case "response.output_item.added":
        this.itemAdded(outputIndexOf(event), itemOf(event));
        return;
      case "response.output_item.done":
        this.itemDone(outputIndexOf(event), itemOf(event));
        return;
      case "response.content_part.added":
      case "response.content_part.done": {
        const e = event as WireContentPartEvent;
        if (!isTextPart(e.part)) return;
        if (type === "response.content_part.added") {
          this.openPart(outputIndexOf(e), contentIndexOf(e), e.item_id);
          return;
        }
        if (e.part.type === "refusal") this.sawRefusal = true;
        this.partText(e, partText(e.part), true);
        this.closePart();
        return;
      }
      case "response.output_text.delta":
      case "response.refusal.delta":
        if (type === "response.refusal.delta") this.sawRefusal = true;
        this.partText(event, stringField((event as WireTextDeltaEvent).delta, "delta"), false);
        return;
      case "response.output_text.done":
      case "response.refusal.done": {
        const e = event as WireTextDoneEvent | WireRefusalDoneEvent;
        if (type === "response.refusal.done") this.sawRefusal = true;
        this.partText(e, "text" in e ? e.text : e.refusal, true);
        return;
      }
      case "response.reasoning_summary_part.added": {
        const e = event as WireSummaryPartEvent;
        const summary = this.reasoningItem(e).summary;
        const index = summaryIndexOf(e.summary_index);
        if (summary[index] === undefined) summary[index] = "";
        return;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        // A summary delta adds to its summary part too; a raw reasoning text delta only streams.
        const e = event as WireReasoningDeltaEvent;
        const delta = stringField(e.delta, "delta");
        const index =
          type === "response.reasoning_summary_text.delta" ? summaryIndexOf(e.summary_index) : undefined;
        const reasoning = this.reasoningItem(e);
        if (index !== undefined) reasoning.summary[index] = (reasoning.summary[index] ?? "") + delta;
        this.write(reasoning, "thinking", delta, false);
        return;
      }
      case "response.function_call_arguments.delta":
      case "response.function_call_arguments.done": {
        const done = type === "response.function_call_arguments.done";
        const args = done
          ? (event as WireArgumentsDoneEvent).arguments
          : stringField((event as WireArgumentsDeltaEvent).delta, "delta");
        if (this.item?.kind === "function_call") this.write(this.item, "input_json", args, done);
        return;
      }
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        this.terminal(type, responseOf(event));
        return;
      case "error":
        this.providerError(event as WireErrorEvent);
        return;
      default:
        // Progress events of built-in tools, annotations, audio, ...: nothing to normalize.
        return;
    }
  }

  /**
   * Text into the open block: a delta, or (`whole`) the whole text a done event or a finished item
   * repeats, written only if no delta carried it (servers that skip the deltas).
   */
  private write(item: OpenItem, kind: "text" | "thinking" | "input_json", text: unknown, whole: boolean) {
    if (typeof text !== "string" || text === "" || (whole && item.sent)) return;
    item.sent = true;
    this.writer.delta(kind === "input_json" ? { kind, json: text } : { kind, text });
  }

  // --- output items ---------------------------------------------------------------------------

  /** Opens the item (closing the open one) and, but for a message, its block. */
  private itemAdded(outputIndex: number, item: WireOutputItem): OpenItem {
    this.closeItem();
    const itemId = stringOrUndefined(item.id);
    const kind = kindOf(item);
    const encrypted = (item as WireOutputReasoning).encrypted_content;
    const open: OpenItem = {
      kind,
      outputIndex,
      itemId,
      sent: false,
      summary: [],
      encryptedContent: kind === "reasoning" && typeof encrypted === "string" ? encrypted : null,
      part: undefined,
      nextContentIndex: 0,
    };
    const providerData = itemId !== undefined ? { providerData: { itemId } } : {};
    if (kind === "reasoning") this.writer.openBlock({ blockType: "thinking", ...providerData });
    if (kind === "function_call") {
      const call = item as WireOutputFunctionCall;
      this.writer.openBlock({
        blockType: "tool_use",
        id: stringField(call.call_id, "item.call_id"),
        name: stringField(call.name, "item.name"),
        ...providerData,
      });
      this.sawToolCall = true;
      // Some servers put the whole arguments on the added item and stream no deltas.
      this.write(open, "input_json", call.arguments, true);
    }
    if (kind === "server_tool") {
      // A built-in tool call, kept whole.
      this.writer.openBlock({
        blockType: "server_tool_use",
        id: itemId ?? "",
        name: item.type,
        providerData: { raw: item },
      });
    }
    this.item = open;
    return open;
  }

  /** The open item at `outputIndex`, or `item` started here where the stream skipped its `added`. */
  private itemAt(outputIndex: number, item: WireOutputItem): OpenItem {
    const open = this.item;
    if (open?.outputIndex === outputIndex && open.kind === kindOf(item)) return open;
    return this.itemAdded(outputIndex, item);
  }

  /** A finished item: with no `added` before it, it is both start and end. */
  private itemDone(outputIndex: number, item: WireOutputItem): void {
    const open = this.itemAt(outputIndex, item);
    const itemId = stringOrUndefined(item.id) ?? open.itemId;
    switch (open.kind) {
      case "message":
        this.remainingParts(open, (item as WireOutputMessage).content);
        break;
      case "reasoning": {
        const r = item as WireOutputReasoning;
        if (Array.isArray(r.summary)) open.summary = r.summary.map((p) => stringOrUndefined(p?.text) ?? "");
        // A reasoning item that arrived whole (no summary deltas) still shows its summary.
        this.write(open, "thinking", open.summary.join(""), true);
        // The finished item is the one to send back: its encrypted content, or none.
        open.encryptedContent = stringOrUndefined(r.encrypted_content) ?? null;
        open.itemId = itemId;
        this.closeItem();
        break;
      }
      case "function_call":
        this.write(open, "input_json", (item as WireOutputFunctionCall).arguments, true);
        this.writer.closeBlock(itemId !== undefined ? { itemId } : undefined);
        break;
      case "server_tool":
        this.writer.closeBlock({ raw: item });
        break;
    }
    this.item = undefined;
  }

  /** Closes the open item with what arrived (it ended without its `output_item.done`). */
  private closeItem(): void {
    const open = this.item;
    if (!open) return;
    this.closePart();
    this.item = undefined;
    if (open.kind === "reasoning") {
      const { itemId, summary, encryptedContent } = open;
      this.writer.closeBlock({ ...(itemId !== undefined && { itemId }), summary, encryptedContent });
    } else if (open.kind !== "message") {
      this.writer.closeBlock();
    }
  }

  /** The reasoning item the summary events belong to. */
  private reasoningItem(event: WireSummaryPartEvent | WireReasoningDeltaEvent): OpenItem {
    const item = { type: "reasoning", id: stringOrUndefined(event.item_id) } as WireOutputItem;
    return this.itemAt(outputIndexOf(event), item);
  }

  // --- message content parts ------------------------------------------------------------------

  /** A part's text: a delta, or (`whole`) its final text, which a part closed already ignores. */
  private partText(event: WireStreamEvent, text: unknown, whole: boolean): void {
    const outputIndex = outputIndexOf(event);
    const contentIndex = contentIndexOf(event);
    const open =
      this.item?.kind === "message" && this.item.outputIndex === outputIndex ? this.item : undefined;
    if (whole) {
      if (typeof text !== "string" || text === "") return;
      if (open && open.part === undefined && contentIndex < open.nextContentIndex) return;
    }
    const itemId = (event as { item_id?: unknown }).item_id;
    const message = open?.part === contentIndex ? open : this.openPart(outputIndex, contentIndex, itemId);
    this.write(message, "text", text, whole);
  }

  /** Opens the part's text block, and its message item if the stream skipped its start. */
  private openPart(outputIndex: number, contentIndex: number, itemId: unknown): OpenItem {
    const message = this.itemAt(outputIndex, {
      type: "message",
      id: stringOrUndefined(itemId),
    } as WireOutputItem);
    this.closePart();
    this.writer.openBlock({
      blockType: "text",
      ...(message.itemId !== undefined && { providerData: { itemId: message.itemId } }),
    });
    message.part = contentIndex;
    message.sent = false;
    message.nextContentIndex = Math.max(message.nextContentIndex, contentIndex + 1);
    return message;
  }

  private closePart(): void {
    if (this.item?.part === undefined) return;
    this.item.part = undefined;
    this.writer.closeBlock();
  }

  /** Parts of a finished message that no part event announced still become blocks. */
  private remainingParts(message: OpenItem, content: unknown): void {
    this.closePart();
    if (!Array.isArray(content)) return;
    for (let i = message.nextContentIndex; i < content.length; i++) {
      const part: unknown = content[i];
      if (!isTextPart(part)) continue;
      if (part.type === "refusal") this.sawRefusal = true;
      this.write(this.openPart(message.outputIndex, i, message.itemId), "text", partText(part), false);
      this.closePart();
    }
  }

  // --- the end --------------------------------------------------------------------------------

  private terminal(type: WireLifecycleEvent["type"], response: WireResponse): void {
    const failed = type === "response.failed";
    // A failed response's unfinished item is aborted (by the writer), not kept as if complete.
    if (failed) this.item = undefined;
    else this.closeItem();
    this.writer.started(stringOrUndefined(response.id), stringOrUndefined(response.model));
    if (typeof response.usage === "object" && response.usage !== null) {
      this.writer.usage(normalizeUsage(response.usage));
    }
    const status = typeof response.status === "string" ? response.status : type.slice("response.".length);
    const details = response.incomplete_details ?? undefined;
    const extra = details !== undefined ? { incompleteDetails: details } : undefined;
    if (!failed) {
      this.writer.finish(this.stopReason(type, response), status, extra);
    } else if (this.reportedError) {
      this.writer.fail(this.reportedError, status, true);
    } else {
      this.writer.error(errorFromFailedResponse(response));
      this.writer.finish("error", status, extra);
    }
  }

  private stopReason(type: WireLifecycleEvent["type"], response: WireResponse): StopReason {
    if (type === "response.incomplete") {
      const reason = response.incomplete_details?.reason;
      if (reason === "max_output_tokens") return "max_tokens";
      if (reason === "content_filter") return "refusal";
    }
    // Completed (or incomplete for another reason): the model's own content decides.
    if (this.sawToolCall) return "tool_use";
    if (this.sawRefusal) return "refusal";
    return "end_turn";
  }

  private providerError(event: WireErrorEvent): void {
    const info = errorFromEvent(event);
    this.item = undefined; // the writer aborts its block
    this.writer.error(info);
    this.reportedError ??= info;
  }
}

/*
 * Checked reads of the fields the decoder relies on. The stream is untrusted input: a field of the
 * wrong type throws `MalformedFrame`, which the decoder turns into a stream failure.
 */

function kindOf(item: WireOutputItem): OpenItem["kind"] {
  if (item.type === "message" || item.type === "reasoning" || item.type === "function_call") return item.type;
  return "server_tool";
}

function stringField(value: unknown, name: string): string {
  if (typeof value !== "string") throw new MalformedFrame(`${name} is not a string`);
  return value;
}

function responseOf(event: WireStreamEvent): WireResponse {
  const response = (event as { response?: unknown }).response;
  if (typeof response !== "object" || response === null) throw new MalformedFrame("no response object");
  return response as WireResponse;
}

function itemOf(event: WireStreamEvent): WireOutputItem {
  const item = (event as { item?: unknown }).item;
  if (typeof item !== "object" || item === null || typeof (item as { type?: unknown }).type !== "string") {
    throw new MalformedFrame("no output item");
  }
  return item as WireOutputItem;
}

/** Servers that leave the indices out stream one item and one part at a time anyway. */
function outputIndexOf(event: WireStreamEvent): number {
  return numberOrUndefined((event as { output_index?: unknown }).output_index) ?? 0;
}

function contentIndexOf(event: WireStreamEvent): number {
  return numberOrUndefined((event as { content_index?: unknown }).content_index) ?? 0;
}

function summaryIndexOf(index: unknown): number {
  return typeof index === "number" && index >= 0 ? index : 0;
}

/** The content parts that become text blocks: output text and refusals. */
function isTextPart(part: unknown): part is WireOutputContentPart {
  if (typeof part !== "object" || part === null) return false;
  const type = (part as { type?: unknown }).type;
  return type === "output_text" || type === "refusal";
}

function partText(part: WireOutputContentPart): string {
  const text = part.type === "refusal" ? part.refusal : part.text;
  return typeof text === "string" ? text : "";
}

/** An `error` event as an error; `raw` is the whole event, as received. */
export function errorFromEvent(event: WireErrorEvent): ErrorInfo {
  // The API reference puts code/message at the top level; the live API nests them in `error`.
  const nested = typeof event.error === "object" && event.error !== null ? event.error : undefined;
  const code = nested
    ? (stringOrUndefined(nested.code) ?? stringOrUndefined(nested.type))
    : stringOrUndefined(event.code);
  const message =
    stringOrUndefined(nested ? nested.message : event.message) ?? "the provider reported an error";
  return {
    kind: errorKindFromCode(code, message),
    message,
    ...(code !== undefined && { code }),
    raw: event,
  };
}

/** The error of a `response.failed` that no `error` event announced; `raw` is `response.error`. */
export function errorFromFailedResponse(response: WireResponse): ErrorInfo {
  const error = response.error ?? undefined;
  const code = stringOrUndefined(error?.code);
  const message = stringOrUndefined(error?.message) ?? "the response failed";
  return {
    kind: code !== undefined ? errorKindFromCode(code, message) : "server",
    message,
    ...(code !== undefined && { code }),
    ...(error !== undefined && { raw: error }),
  };
}

/**
 * The Responses usage object in the normalized meaning. `input_tokens` already counts cached
 * tokens (unlike Anthropic, nothing is added) and `output_tokens` counts reasoning; `raw` is the
 * provider's object, unchanged.
 */
export function normalizeUsage(usage: WireUsage): Omit<UsageEvent, "type"> {
  const input = usage.input_tokens_details ?? undefined;
  const output = usage.output_tokens_details ?? undefined;
  return {
    ...(typeof usage.input_tokens === "number" && { inputTokens: usage.input_tokens }),
    ...(typeof usage.output_tokens === "number" && { outputTokens: usage.output_tokens }),
    ...(typeof usage.total_tokens === "number" && { totalTokens: usage.total_tokens }),
    ...(typeof input?.cached_tokens === "number" && { cacheReadInputTokens: input.cached_tokens }),
    // Not in the API reference, but some deployments report prompt-cache writes here.
    ...(typeof input?.cache_write_tokens === "number" && {
      cacheCreationInputTokens: input.cache_write_tokens,
    }),
    ...(typeof output?.reasoning_tokens === "number" && { reasoningTokens: output.reasoning_tokens }),
    raw: usage,
  };
}
