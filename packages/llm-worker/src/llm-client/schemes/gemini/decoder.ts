import { errorKindFromCode, errorKindFromStatus } from "../../error-kind.js";
import type { ErrorInfo, ErrorKind, StopReason, Usage } from "../../event.js";
import type { BlockOpening } from "../../event-writer.js";
import { JsonFrameDecoder, MalformedFrame } from "../json-frame-decoder.js";
import { StreamedArguments } from "../streamed-tool-calls.js";
import { isRecord, numberOrUndefined, stringOrUndefined } from "../wire-json.js";
import type {
  GeminiError,
  GeminiFunctionCallResponse,
  GeminiResponsePart,
  GeminiStreamChunk,
  GeminiUsageMetadata,
} from "./wire.js";

interface OpenStreamedCall {
  name: string;
  /** The wire id, when there was one. */
  id: string | undefined;
  args: StreamedArguments;
}

/**
 * Decodes Gemini `streamGenerateContent` chunks (SSE `data:` payloads or JSON array elements).
 *
 * Gemini sends no block boundaries: consecutive text parts with the same `thought` flag form one
 * block, each `functionCall` part is a block of its own (a call streamed as `partialArgs` stays
 * one block until a part without `willContinue` closes it), and a `thoughtSignature` belongs to
 * the block of its part; on an empty text part, to the block before it. Only the first candidate
 * is read. Inline data and file parts are not modelled and are skipped.
 *
 * There is no end marker either: the response is complete when the body ends after a chunk that
 * carried a `finishReason` (or a blocked prompt's `promptFeedback.blockReason`); a body that ends
 * without one was cut short.
 */
export class GeminiDecoder extends JsonFrameDecoder {
  protected readonly frameName = "Gemini chunk";
  private blockHasSignature = false;
  private streamedCall: OpenStreamedCall | undefined;
  /** The id of the last `executableCode`, which a `codeExecutionResult` without id answers. */
  private lastCodeId: string | undefined;
  private sawToolCall = false;
  private finishReason: string | number | undefined;
  private finishMessage: string | undefined;
  private promptBlocked = false;
  /** The latest (cumulative) usage; emitted once, just before the final status. */
  private usage: GeminiUsageMetadata | undefined;
  private idPrefix: string | undefined;
  private idCount = 0;

  protected read(chunk: Record<string, unknown>): void {
    const c = chunk as GeminiStreamChunk;
    if (c.error !== undefined) {
      this.failWithProviderError(c.error);
      return;
    }
    this.writer.started(stringOrUndefined(c.responseId), stringOrUndefined(c.modelVersion));
    if (c.usageMetadata !== undefined) {
      if (!isRecord(c.usageMetadata)) throw new MalformedFrame("usageMetadata is not an object");
      this.usage = c.usageMetadata;
    }
    if (c.promptFeedback !== undefined) {
      if (!isRecord(c.promptFeedback)) throw new MalformedFrame("promptFeedback is not an object");
      const reason = c.promptFeedback.blockReason;
      if (reason !== undefined && reason !== 0 && reason !== "BLOCK_REASON_UNSPECIFIED")
        this.promptBlocked = true;
    }
    const candidates = c.candidates;
    if (candidates === undefined) return;
    if (!Array.isArray(candidates)) throw new MalformedFrame("candidates is not an array");
    const candidate = candidates[0];
    if (candidate === undefined) return;
    if (!isRecord(candidate)) throw new MalformedFrame("a candidate is not an object");
    const content = candidate.content;
    if (content !== undefined) {
      if (!isRecord(content)) throw new MalformedFrame("content is not an object");
      const parts = content.parts;
      if (parts !== undefined) {
        if (!Array.isArray(parts)) throw new MalformedFrame("content.parts is not an array");
        for (const part of parts) this.readPart(part);
      }
    }
    const finishReason = candidate.finishReason;
    if (finishReason !== undefined && finishReason !== null) {
      if (typeof finishReason !== "string" && typeof finishReason !== "number")
        throw new MalformedFrame("finishReason is neither a string nor a number");
      this.finishReason = finishReason;
      if (typeof candidate.finishMessage === "string") this.finishMessage = candidate.finishMessage;
    }
  }

  end(): void {
    if (this.writer.isFinished) return;
    if (this.finishReason === undefined && !this.promptBlocked) {
      this.emitUsage();
      this.truncated();
      return;
    }
    this.closeStreamedCall();
    this.writer.closeBlock();
    this.emitUsage();
    const raw = this.finishReason ?? null;
    const name = raw === null ? undefined : finishReasonName(raw);
    // A blocked prompt has no finish reason of its own (README: null), only the block reason.
    let stopReason: StopReason = this.promptBlocked ? "refusal" : stopReasonOfFinish(name);
    if (stopReason === "error") {
      const reason = name ?? String(raw);
      const message = `Gemini stopped with ${reason}${this.finishMessage ? `: ${this.finishMessage}` : ""}`;
      this.writer.fail({ kind: failureKind(name), message, code: reason }, raw);
      return;
    }
    // Gemini says STOP after function calls; the calls are what the caller must act on.
    if (stopReason === "end_turn" && this.sawToolCall) stopReason = "tool_use";
    this.writer.finish(stopReason, raw);
  }

  fail(error: ErrorInfo): void {
    if (this.writer.isFinished) return;
    this.emitUsage();
    this.writer.fail(error, this.finishReason ?? null);
  }

  private readPart(part: unknown): void {
    if (!isRecord(part)) throw new MalformedFrame("a part is not an object");
    const p = part as GeminiResponsePart;
    const signature = p.thoughtSignature;
    if (signature !== undefined && typeof signature !== "string")
      throw new MalformedFrame("thoughtSignature is not a string");
    if (p.functionCall !== undefined) {
      this.readFunctionCall(p.functionCall, signature);
      return;
    }
    this.closeStreamedCall();
    if (p.text !== undefined) {
      if (typeof p.text !== "string") throw new MalformedFrame("text is not a string");
      this.readText(p.text, p.thought === true, signature);
    } else if (p.executableCode !== undefined) {
      this.readExecutableCode(p, p.executableCode);
    } else if (p.codeExecutionResult !== undefined) {
      this.readCodeExecutionResult(p, p.codeExecutionResult);
    } else if (signature !== undefined) {
      this.readText("", p.thought === true, signature);
    }
  }

  private readText(text: string, thought: boolean, signature: string | undefined): void {
    const blockType = thought ? "thinking" : "text";
    if (text.length === 0) {
      if (!signature) return; // an empty part adds nothing
      const open = this.writer.openBlockType;
      const attachable = open === "text" || open === "thinking" || open === "tool_use";
      if (!attachable || this.blockHasSignature) this.open({ blockType });
      this.addSignature(signature);
      return;
    }
    // A block carries one signature: a second one starts a new block.
    if (this.writer.openBlockType !== blockType || (signature && this.blockHasSignature))
      this.open({ blockType });
    this.writer.delta(thought ? { kind: "thinking", text } : { kind: "text", text });
    if (signature) this.addSignature(signature);
  }

  private readFunctionCall(value: unknown, signature: string | undefined): void {
    if (!isRecord(value)) throw new MalformedFrame("functionCall is not an object");
    const call = value as GeminiFunctionCallResponse;
    const { name, id } = call;
    if (name !== undefined && typeof name !== "string")
      throw new MalformedFrame("functionCall.name is not a string");
    if (id !== undefined && typeof id !== "string")
      throw new MalformedFrame("functionCall.id is not a string");
    if (call.args !== undefined && !isRecord(call.args))
      throw new MalformedFrame("functionCall.args is not an object");
    const streamed = this.streamedCall;
    if (streamed !== undefined) {
      const continues =
        !name || (name === streamed.name && call.args === undefined && (!id || id === streamed.id));
      if (continues) {
        this.continueStreamedCall(call, signature);
        return;
      }
      this.closeStreamedCall();
    }
    if (!name) {
      if (call.args === undefined && call.partialArgs === undefined) return; // a stray closing part
      throw new MalformedFrame("functionCall without a name");
    }
    const wireId = id ? id : undefined;
    this.open(
      wireId === undefined
        ? { blockType: "tool_use", id: this.syntheticId(), name, synthesizedId: true }
        : { blockType: "tool_use", id: wireId, name },
    );
    this.sawToolCall = true;
    if (signature) this.addSignature(signature);
    if (call.willContinue === true || call.partialArgs !== undefined) {
      this.streamedCall = { name, id: wireId, args: new StreamedArguments(call.args) };
      this.continueStreamedCall(call, undefined);
      return;
    }
    this.writer.delta({
      kind: "input_json",
      json: call.args === undefined ? "{}" : JSON.stringify(call.args),
    });
  }

  private continueStreamedCall(call: GeminiFunctionCallResponse, signature: string | undefined): void {
    const streamed = this.streamedCall as OpenStreamedCall;
    if (call.partialArgs !== undefined) streamed.args.applyAll(call.partialArgs);
    if (signature && !this.blockHasSignature) this.addSignature(signature);
    if (call.willContinue !== true) this.closeStreamedCall();
  }

  /** Ends a call streamed as `partialArgs`: its arguments are whole now, sent as one JSON text. */
  private closeStreamedCall(): void {
    const streamed = this.streamedCall;
    if (streamed === undefined) return;
    this.streamedCall = undefined;
    this.writer.delta({ kind: "input_json", json: streamed.args.json() });
  }

  /** Built-in code execution: the part is kept whole so that it can be sent back as it came. */
  private readExecutableCode(part: GeminiResponsePart, code: unknown): void {
    if (!isRecord(code)) throw new MalformedFrame("executableCode is not an object");
    const id = typeof code.id === "string" && code.id !== "" ? code.id : this.syntheticId();
    this.lastCodeId = id;
    this.open({ blockType: "server_tool_use", id, name: "code_execution", providerData: { raw: part } });
    this.writer.delta({
      kind: "input_json",
      json: JSON.stringify({ language: code.language, code: code.code }),
    });
  }

  private readCodeExecutionResult(part: GeminiResponsePart, result: unknown): void {
    if (!isRecord(result)) throw new MalformedFrame("codeExecutionResult is not an object");
    const toolUseId =
      typeof result.id === "string" && result.id !== "" ? result.id : (this.lastCodeId ?? this.syntheticId());
    this.open({
      blockType: "server_tool_result",
      toolUseId,
      resultType: "code_execution_result",
      providerData: { raw: part },
    });
  }

  private failWithProviderError(error: unknown): void {
    if (!isRecord(error)) throw new MalformedFrame("error is not an object");
    const e = error as GeminiError;
    const message =
      typeof e.message === "string" && e.message !== "" ? e.message : "Gemini reported an error";
    const status = stringOrUndefined(e.status);
    const httpStatus = typeof e.code === "number" ? e.code : undefined;
    let kind: ErrorKind = status === undefined ? "invalid_request" : errorKindFromCode(status, message);
    // A status name we do not know says less than the HTTP code beside it.
    if (kind === "invalid_request" && httpStatus !== undefined)
      kind = errorKindFromStatus(httpStatus, message);
    this.emitUsage();
    this.writer.fail(
      {
        kind,
        message,
        ...(status !== undefined && { code: status }),
        ...(httpStatus !== undefined && { status: httpStatus }),
        raw: error,
      },
      this.finishReason ?? null,
    );
  }

  private open(opening: BlockOpening): void {
    this.closeStreamedCall();
    this.writer.openBlock(opening);
    this.blockHasSignature = false;
  }

  private addSignature(signature: string): void {
    this.writer.delta({ kind: "signature", signature });
    this.blockHasSignature = true;
  }

  private emitUsage(): void {
    const raw = this.usage;
    if (raw === undefined) return;
    this.usage = undefined;
    this.writer.usage({ ...normalizeUsage(raw), raw });
  }

  /** For calls the wire gave no id: unique across responses, so history never holds two alike. */
  private syntheticId(): string {
    this.idPrefix ??= crypto.randomUUID().slice(0, 8);
    return `call_${this.idPrefix}_${this.idCount++}`;
  }
}

/**
 * `Candidate.FinishReason` by number, for `enum-encoding=int` responses. The numbers are the
 * proto's (google.ai.generativelanguage.v1beta), not the order of the documentation's list:
 * OTHER is 5 and LANGUAGE 6, and the image reasons were numbered after the tool ones.
 */
const FINISH_REASON_BY_NUMBER: readonly string[] = [
  "FINISH_REASON_UNSPECIFIED", // 0
  "STOP",
  "MAX_TOKENS",
  "SAFETY",
  "RECITATION",
  "OTHER", // 5
  "LANGUAGE",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "MALFORMED_FUNCTION_CALL", // 10
  "IMAGE_SAFETY",
  "UNEXPECTED_TOOL_CALL",
  "TOO_MANY_TOOL_CALLS",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_OTHER", // 15
  "NO_IMAGE",
  "IMAGE_RECITATION",
  "MISSING_THOUGHT_SIGNATURE", // 18
];

/** The finish reason's name, whichever way the wire encoded it (`undefined` for an unknown number). */
export function finishReasonName(raw: string | number): string | undefined {
  return typeof raw === "string" ? raw : FINISH_REASON_BY_NUMBER[raw];
}

/**
 * What a finish reason means for us.
 * - STOP, and reasons that are not a failure of the answer (OTHER, NO_IMAGE, unknown ones): a
 *   normal end. Gemini reports a matched stop sequence as STOP too, so `stop_sequence` never occurs.
 * - MAX_TOKENS, and Vertex's CONTINUATION (a per-request limit): the answer was cut.
 * - Every content filter (SAFETY, RECITATION, LANGUAGE, BLOCKLIST, PROHIBITED_CONTENT, SPII and
 *   the image ones): the model declined, `refusal`.
 * - The model produced something unusable (MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL,
 *   TOO_MANY_TOOL_CALLS, MALFORMED_RESPONSE) or our request was incomplete
 *   (MISSING_THOUGHT_SIGNATURE): a failed response, reported with an error of `failureKind`.
 */
export function stopReasonOfFinish(name: string | undefined): StopReason {
  switch (name) {
    case "MAX_TOKENS":
    case "CONTINUATION":
      return "max_tokens";
    case "SAFETY":
    case "RECITATION":
    case "LANGUAGE":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "refusal";
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
    case "TOO_MANY_TOOL_CALLS":
    case "MALFORMED_RESPONSE":
    case "MISSING_THOUGHT_SIGNATURE":
      return "error";
    default:
      return "end_turn";
  }
}

/**
 * The error kind of a finish reason that fails the response: the model's own slip is worth
 * another attempt (`server`); a missing thought signature is our request's fault.
 */
export function failureKind(name: string | undefined): ErrorKind {
  return name === "MISSING_THOUGHT_SIGNATURE" ? "invalid_request" : "server";
}

/**
 * Gemini's `usageMetadata` in the shared meaning. `promptTokenCount` already includes cached
 * content, so it is the whole prompt; tool-use prompt tokens (server tool results read by the
 * model) are input too. Thoughts are output, reported apart from `candidatesTokenCount`.
 * Gemini has no cache writes in a generate call, so `cacheCreationInputTokens` stays unset.
 */
export function normalizeUsage(raw: GeminiUsageMetadata): Usage {
  const usage: Usage = {};
  const prompt = numberOrUndefined(raw.promptTokenCount);
  const toolUse = numberOrUndefined(raw.toolUsePromptTokenCount);
  if (prompt !== undefined || toolUse !== undefined) usage.inputTokens = (prompt ?? 0) + (toolUse ?? 0);
  const candidates = numberOrUndefined(raw.candidatesTokenCount);
  const thoughts = numberOrUndefined(raw.thoughtsTokenCount);
  if (candidates !== undefined || thoughts !== undefined)
    usage.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  const cached = numberOrUndefined(raw.cachedContentTokenCount);
  if (cached !== undefined) usage.cacheReadInputTokens = cached;
  const total = numberOrUndefined(raw.totalTokenCount);
  if (total !== undefined) usage.totalTokens = total;
  return usage;
}
