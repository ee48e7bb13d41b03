import { errorKindFromCode } from "../../error-kind.js";
import type { ErrorInfo, Event, StopReason, UsageEvent } from "../../event.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { JsonFrameDecoder } from "../json-frame-decoder.js";
import { stringOrUndefined } from "../wire-json.js";
import {
  contentIndexOf,
  itemOf,
  OutputItemBlocks,
  outputIndexOf,
  responseOf,
  stringField,
  summaryIndexOf,
} from "./output-items.js";
import type {
  WireArgumentsDeltaEvent,
  WireArgumentsDoneEvent,
  WireContentPartEvent,
  WireErrorEvent,
  WireLifecycleEvent,
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

/**
 * Decodes the Responses API event stream (see `OutputItemBlocks` for how items become blocks).
 * The stream ends at `response.completed`, `response.incomplete` or `response.failed`; a body that
 * ends before one of them is a truncation, unless an `error` event already said why.
 */
class OpenaiResponsesDecoder extends JsonFrameDecoder {
  protected readonly frameName = "openai-responses event";
  private readonly items: OutputItemBlocks;
  /** An `error` event came; the stream fails with it if no terminal event follows. */
  private reportedError: ErrorInfo | undefined;

  constructor(emit: (event: Event) => void) {
    super(emit);
    this.items = new OutputItemBlocks(this.writer);
  }

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
    const items = this.items;
    switch (type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued": {
        const response = responseOf(event);
        this.writer.started(stringOrUndefined(response.id), stringOrUndefined(response.model));
        return;
      }
      case "response.output_item.added":
        items.itemAdded(outputIndexOf(event), itemOf(event));
        return;
      case "response.output_item.done":
        items.itemDone(outputIndexOf(event), itemOf(event));
        return;
      case "response.content_part.added":
      case "response.content_part.done": {
        const e = event as WireContentPartEvent;
        if (type === "response.content_part.added") {
          items.partAdded(outputIndexOf(e), contentIndexOf(e), e.item_id, e.part);
        } else {
          items.partDone(outputIndexOf(e), contentIndexOf(e), e.item_id, e.part);
        }
        return;
      }
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const e = event as WireTextDeltaEvent;
        const delta = stringField(e.delta, "delta");
        items.textDelta(
          outputIndexOf(e),
          contentIndexOf(e),
          e.item_id,
          delta,
          type === "response.refusal.delta",
        );
        return;
      }
      case "response.output_text.done":
      case "response.refusal.done": {
        const e = event as WireTextDoneEvent | WireRefusalDoneEvent;
        const text = "text" in e ? e.text : e.refusal;
        items.textDone(
          outputIndexOf(e),
          contentIndexOf(e),
          e.item_id,
          text,
          type === "response.refusal.done",
        );
        return;
      }
      case "response.reasoning_summary_part.added": {
        const e = event as WireSummaryPartEvent;
        items.summaryPartAdded(outputIndexOf(e), e.item_id, summaryIndexOf(e.summary_index));
        return;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const e = event as WireReasoningDeltaEvent;
        const delta = stringField(e.delta, "delta");
        const summaryIndex =
          type === "response.reasoning_summary_text.delta" ? summaryIndexOf(e.summary_index) : undefined;
        items.reasoningDelta(outputIndexOf(e), e.item_id, summaryIndex, delta);
        return;
      }
      case "response.function_call_arguments.delta":
        items.argumentsDelta(stringField((event as WireArgumentsDeltaEvent).delta, "delta"));
        return;
      case "response.function_call_arguments.done":
        items.argumentsDone((event as WireArgumentsDoneEvent).arguments);
        return;
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

  private terminal(type: WireLifecycleEvent["type"], response: WireResponse): void {
    const failed = type === "response.failed";
    // A failed response's unfinished item is aborted (by the writer), not kept as if complete.
    if (failed) this.items.forget();
    else this.items.closeItem();
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
    if (this.items.sawToolCall) return "tool_use";
    if (this.items.sawRefusal) return "refusal";
    return "end_turn";
  }

  private providerError(event: WireErrorEvent): void {
    const info = errorFromEvent(event);
    this.items.forget();
    this.writer.error(info);
    this.reportedError ??= info;
  }
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
