import { errorKindFromCode, errorKindFromStatus } from "../../error-kind.js";
import type { ErrorInfo, Event, StopReason, Usage } from "../../event.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { JsonFrameDecoder } from "../json-frame-decoder.js";
import { ToolCallStreams } from "../streamed-tool-calls.js";
import { numberOrUndefined, stringOrUndefined } from "../wire-json.js";
import type { OpenaiChatChoice, OpenaiChatChunk, OpenaiChatDelta, OpenaiChatUsage } from "./wire.js";

/**
 * Decodes a Chat Completions stream: `chat.completion.chunk` frames, then `data: [DONE]`.
 *
 * The wire has no block starts, so they are synthesized: consecutive `reasoning_content` /
 * `reasoning` pieces form one thinking block, consecutive `content` (and `refusal`) pieces one text
 * block, and each tool call index one tool_use block (see `ToolCallStreams`). Only the choice with
 * index 0 is read (we never ask for `n > 1`).
 *
 * The response is complete at `[DONE]`, or when the body ends after a `finish_reason` (some servers
 * send no `[DONE]`). A body that ends with neither is reported as truncated. An `error` in a chunk
 * (OpenAI mid-stream errors, Groq's `event: error`) fails the stream.
 */
export function createOpenaiChatDecoder(emit: (event: Event) => void): StreamDecoder {
  return new OpenaiChatDecoder(emit);
}

class OpenaiChatDecoder extends JsonFrameDecoder {
  protected readonly frameName = "OpenAI Chat chunk";
  private readonly toolCalls: ToolCallStreams;
  /** The last non-null `finish_reason` of choice 0. */
  private finishReason: string | null = null;
  private sawRefusal = false;
  /** vLLM names the stop string that ended the answer; `finish_reason` is then a plain "stop". */
  private stoppedBySequence = false;
  private sawChunk = false;

  constructor(emit: (event: Event) => void) {
    super(emit);
    this.toolCalls = new ToolCallStreams(this.writer);
  }

  protected override onDoneMarker(): void {
    this.complete();
  }

  // Groq sends `event: error` with a plain-text payload.
  protected override onInvalidJson(frame: Frame): void {
    if (frame.event === "error") this.providerError(frame.data);
    else super.onInvalidJson(frame);
  }

  protected read(chunk: Record<string, unknown>, frame: Frame): void {
    const data = frame.data;
    const c = chunk as OpenaiChatChunk;
    if (c.error !== undefined && c.error !== null) {
      if (this.finishReason !== null && isUsage(c.usage)) this.errorBesideFinalUsage(c.error, c.usage);
      else this.providerError(c.error);
      return;
    }
    if (frame.event === "error") {
      this.providerError(chunk);
      return;
    }
    if (!this.sawChunk) {
      this.sawChunk = true;
      this.writer.started(stringOrUndefined(c.id), stringOrUndefined(c.model));
    }
    const choices = c.choices;
    if (choices !== undefined && choices !== null) {
      if (!Array.isArray(choices)) {
        this.malformed("`choices` is not an array", data);
        return;
      }
      for (const choice of choices) {
        if (typeof choice !== "object" || choice === null) {
          this.malformed("a choice is not an object", data);
          return;
        }
        if ((choice.index ?? 0) !== 0) continue;
        const problem = this.choice(choice);
        if (problem !== undefined) {
          this.malformed(problem, data);
          return;
        }
      }
    }
    const usage = c.usage;
    if (usage !== undefined && usage !== null) {
      if (typeof usage !== "object") {
        this.malformed("`usage` is not an object", data);
        return;
      }
      this.usage(usage);
    }
  }

  end(): void {
    if (this.writer.isFinished) return;
    if (this.finishReason !== null) {
      this.complete();
      return;
    }
    this.truncated();
  }

  fail(error: ErrorInfo): void {
    this.writer.fail(error, this.finishReason);
  }

  /** One choice of a chunk; returns what is wrong with it, if anything. */
  private choice(choice: OpenaiChatChoice): string | undefined {
    const delta = choice.delta;
    if (delta !== undefined && delta !== null) {
      if (typeof delta !== "object") return "`delta` is not an object";
      const problem = this.delta(delta);
      if (problem !== undefined) return problem;
    }
    const finish = choice.finish_reason;
    if (finish !== undefined && finish !== null) {
      if (typeof finish !== "string") return "`finish_reason` is not a string";
      this.finishReason = finish;
      if (typeof choice.stop_reason === "string") this.stoppedBySequence = true;
      // No call of this choice gets more pieces: buffered calls can be emitted now, before the usage.
      this.toolCalls.flush();
    }
    return undefined;
  }

  private delta(delta: OpenaiChatDelta): string | undefined {
    if (!isTextOrAbsent(delta.content)) return "`content` is not a string";
    if (!isTextOrAbsent(delta.refusal)) return "`refusal` is not a string";
    if (!isTextOrAbsent(delta.reasoning_content) || !isTextOrAbsent(delta.reasoning))
      return "the reasoning is not a string";
    const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    if (reasoning !== undefined) this.appendText("thinking", reasoning);
    const content = nonEmpty(delta.content);
    if (content !== undefined) this.appendText("text", content);
    const refusal = nonEmpty(delta.refusal);
    if (refusal !== undefined) {
      this.sawRefusal = true;
      this.appendText("text", refusal);
    }
    const calls = delta.tool_calls;
    if (calls === undefined || calls === null) return undefined;
    if (!Array.isArray(calls)) return "`tool_calls` is not an array";
    for (const call of calls) {
      if (typeof call !== "object" || call === null) return "a tool call is not an object";
      const problem = this.toolCalls.push(call);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  /** A text or thinking piece: continues the open block of that kind, or starts one. */
  private appendText(kind: "text" | "thinking", text: string): void {
    if (this.writer.openBlockType !== kind) {
      this.toolCalls.interrupt();
      this.writer.openBlock({ blockType: kind });
    }
    this.writer.delta(kind === "text" ? { kind: "text", text } : { kind: "thinking", text });
  }

  private usage(raw: OpenaiChatUsage): void {
    this.writer.usage({ ...normalizeOpenaiChatUsage(raw), raw });
  }

  private complete(): void {
    this.toolCalls.flush();
    const finish = this.finishReason;
    if (finish === "error") {
      // OpenRouter and some gateways end a failed generation with `finish_reason: "error"`.
      this.writer.fail(
        { kind: "server", message: 'the provider ended the response with finish_reason "error"' },
        finish,
      );
      return;
    }
    this.writer.finish(this.stopReason(finish), finish);
  }

  private stopReason(finish: string | null): StopReason {
    switch (finish) {
      case "length":
        return "max_tokens";
      case "tool_calls":
      case "function_call":
        return "tool_use";
      case "content_filter":
        return "refusal";
      default:
        // "stop", no finish reason at all before [DONE], or a server's own value.
        if (this.sawRefusal) return "refusal";
        if (this.toolCalls.any) return "tool_use";
        return this.stoppedBySequence ? "stop_sequence" : "end_turn";
    }
  }

  /**
   * Some OpenAI-compatible servers send, after the finish reason, one chunk with both the usage
   * and an `error` (often why they stopped). The answer is whole: the usage is kept, the error is
   * reported without failing the stream, and the real finish reason (`length`) ends it.
   */
  private errorBesideFinalUsage(error: unknown, usage: OpenaiChatUsage): void {
    this.toolCalls.flush();
    this.writer.closeBlock();
    this.usage(usage);
    this.writer.error(errorInfoOf(error));
  }

  /** An error object (or text) the provider sent inside the stream. */
  private providerError(raw: unknown): void {
    this.writer.fail(errorInfoOf(raw), this.finishReason);
  }
}

function errorInfoOf(raw: unknown): ErrorInfo {
  if (typeof raw !== "object" || raw === null) {
    const message = typeof raw === "string" && raw !== "" ? raw : "the provider reported an error";
    return { kind: "server", message, raw };
  }
  const e = raw as Record<string, unknown>;
  const message = typeof e.message === "string" ? e.message : "the provider reported an error";
  const code = stringOrUndefined(e.code);
  const type = stringOrUndefined(e.type);
  const status =
    typeof e.status_code === "number" ? e.status_code : typeof e.code === "number" ? e.code : undefined;
  let kind = errorKindFromCode(code ?? type, message);
  // The code is often specific (`tool_use_failed`) where the type (`server_error`) classifies it.
  if (kind === "invalid_request" && type !== undefined && code !== undefined)
    kind = errorKindFromCode(type, message);
  if (kind === "invalid_request" && status !== undefined) kind = errorKindFromStatus(status, message);
  const info: ErrorInfo = { kind, message, raw };
  const reportedCode = code ?? type;
  if (reportedCode !== undefined) info.code = reportedCode;
  if (status !== undefined) info.status = status;
  return info;
}

function isUsage(value: unknown): value is OpenaiChatUsage {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTextOrAbsent(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string";
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Chat usage in the normalized meaning. `prompt_tokens` already counts cached tokens, so it is the
 * input as is; the cache read count is `prompt_tokens_details.cached_tokens`, or DeepSeek's
 * `prompt_cache_hit_tokens` where only that is given.
 *
 * Output includes reasoning. OpenAI counts reasoning inside `completion_tokens`; xAI leaves it out
 * and counts it only in `total_tokens`. The totals tell the two apart: when `total_tokens` equals
 * prompt + completion + reasoning (and not prompt + completion), the reasoning is added.
 */
export function normalizeOpenaiChatUsage(raw: OpenaiChatUsage): Usage {
  const usage: Usage = {};
  const input = numberOrUndefined(raw.prompt_tokens);
  const completion = numberOrUndefined(raw.completion_tokens);
  const total = numberOrUndefined(raw.total_tokens);
  const reasoning = numberOrUndefined(raw.completion_tokens_details?.reasoning_tokens);
  const cacheRead =
    numberOrUndefined(raw.prompt_tokens_details?.cached_tokens) ??
    numberOrUndefined(raw.prompt_cache_hit_tokens);
  const cacheWrite = numberOrUndefined(raw.prompt_tokens_details?.cache_write_tokens);

  if (input !== undefined) usage.inputTokens = input;
  if (completion !== undefined) {
    const reasoningOutsideCompletion =
      reasoning !== undefined &&
      reasoning > 0 &&
      input !== undefined &&
      total !== undefined &&
      total === input + completion + reasoning;
    usage.outputTokens = reasoningOutsideCompletion ? completion + reasoning : completion;
  }
  if (total !== undefined) usage.totalTokens = total;
  if (cacheRead !== undefined) usage.cacheReadInputTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheCreationInputTokens = cacheWrite;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}
