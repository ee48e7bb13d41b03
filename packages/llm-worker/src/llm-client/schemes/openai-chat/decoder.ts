import { errorKindFromCode, errorKindFromStatus } from "../../error-kind.js";
import type { ErrorInfo, Event, StopReason, Usage } from "../../event.js";
import type { EventWriter } from "../../event-writer.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { JsonFrameDecoder } from "../json-frame-decoder.js";
import type {
  OpenaiChatChoice,
  OpenaiChatChunk,
  OpenaiChatDelta,
  OpenaiChatToolCallDelta,
  OpenaiChatUsage,
} from "./wire.js";

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

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
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

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

interface ToolCallState {
  index: number;
  id: string | undefined;
  name: string | undefined;
  /** Everything received so far, streamed or not. */
  arguments: string;
  /** pending: not yet a block (no name yet, or buffered); live: the open block; closed: emitted. */
  state: "pending" | "live" | "closed";
}

/**
 * Turns Chat `delta.tool_calls[]` pieces into `tool_use` blocks, one per `index`.
 *
 * Our blocks never overlap, but a server may interleave the pieces of parallel calls. So the call
 * being streamed stays live until another index appears; then it is closed if its arguments already
 * parse as complete JSON (the usual case: calls come one after the other). Otherwise the calls are
 * interleaved, and from then on every other call is buffered (id, name and arguments kept) while the
 * live one goes on streaming; the buffered calls are emitted whole, in index order, by `flush()` at
 * the end of the choice. A call opens as soon as its name is known; a call with no id on the wire
 * gets a synthesized one.
 */
export class ToolCallStreams {
  /** By wire index (a sparse array: indices are small integers). */
  private readonly calls: ToolCallState[] = [];
  private live: ToolCallState | undefined;
  private buffering = false;
  private lastIndex = -1;
  private count = 0;

  constructor(private readonly writer: EventWriter) {}

  /** Whether the response has made any tool call. */
  get any(): boolean {
    return this.count > 0;
  }

  /** Takes one tool call piece. Returns what is wrong with it when it breaks the protocol. */
  push(delta: OpenaiChatToolCallDelta): string | undefined {
    const fn = delta.function;
    const piece = fn?.arguments ?? "";
    if (typeof piece !== "string") return "tool call arguments are not a string";
    const index = this.indexOf(delta);
    if (index === undefined) return "a tool call index is not a non-negative integer";

    let call = this.calls[index];
    if (call === undefined) {
      call = { index, id: undefined, name: undefined, arguments: "", state: "pending" };
      this.calls[index] = call;
      this.count++;
    }
    if (call.state === "closed") {
      // A call is closed early only when its arguments were complete JSON; more of them would be lost.
      return piece.trim() === "" ? undefined : `tool call ${index} received arguments after it was complete`;
    }
    if (call.id === undefined && typeof delta.id === "string" && delta.id !== "") call.id = delta.id;
    if (call.name === undefined && typeof fn?.name === "string" && fn.name !== "") call.name = fn.name;
    call.arguments += piece;
    if (call.state === "live") {
      if (piece !== "") this.writer.delta({ kind: "input_json", json: piece });
      return undefined;
    }

    const live = this.live;
    if (live !== undefined) {
      if (isCompleteJson(live.arguments)) this.closeLive();
      else this.buffering = true;
    }
    if (!this.buffering && this.live === undefined && call.name !== undefined) this.openLive(call);
    return undefined;
  }

  /** Another kind of block is about to open: the live call ends here. */
  interrupt(): void {
    this.closeLive();
  }

  /** The choice is finished: closes the live call and emits the buffered ones, in index order. */
  flush(): void {
    this.closeLive();
    for (const call of this.calls) {
      if (call === undefined || call.state !== "pending") continue;
      this.openLive(call);
      this.closeLive();
    }
    this.buffering = false;
  }

  private openLive(call: ToolCallState): void {
    call.state = "live";
    this.live = call;
    const name = call.name ?? "";
    if (call.id === undefined) {
      this.writer.openBlock({ blockType: "tool_use", id: `call_${call.index}`, name, synthesizedId: true });
    } else {
      this.writer.openBlock({ blockType: "tool_use", id: call.id, name });
    }
    if (call.arguments !== "") this.writer.delta({ kind: "input_json", json: call.arguments });
  }

  private closeLive(): void {
    const live = this.live;
    if (live === undefined) return;
    this.live = undefined;
    live.state = "closed";
    this.writer.closeBlock();
  }

  /** The wire index, or for servers that leave it out: a new call when a new id shows up. */
  private indexOf(delta: OpenaiChatToolCallDelta): number | undefined {
    const index = delta.index;
    if (index === undefined || index === null) {
      const last = this.calls[this.lastIndex];
      const startsNewCall = typeof delta.id === "string" && last?.id !== undefined && last.id !== delta.id;
      this.lastIndex = this.lastIndex < 0 || startsNewCall ? this.lastIndex + 1 : this.lastIndex;
      return this.lastIndex;
    }
    if (!Number.isInteger(index) || index < 0) return undefined;
    this.lastIndex = index;
    return index;
  }
}

/** Whether tool arguments are a whole JSON value (objects and arrays only: a number could go on). */
function isCompleteJson(text: string): boolean {
  const trimmed = text.trimEnd();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  if (last !== 0x7d /* } */ && last !== 0x5d /* ] */) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}
