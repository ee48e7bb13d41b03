import type { StopReason } from "../../llm-client/event.js";
import type {
  GeminiError,
  GeminiResponsePart,
  GeminiStreamChunk,
  GeminiUsageMetadata,
} from "../../llm-client/schemes/gemini/wire.js";
import { pieces, type ScriptedBlock, type ScriptedResponse, stopReasonOf } from "../script.js";

const DEFAULT_MODEL = "gemini-2.5-flash";
/** What the API sends when generation fails after the stream has started. */
const MIDSTREAM_ERROR: GeminiError = {
  code: 500,
  message:
    "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  status: "INTERNAL",
};

/** Numbers the default response ids, so that two responses of one test never share one. */
let responseCounter = 0;

/**
 * Renders a scripted response as the SSE body of Gemini's `streamGenerateContent?alt=sse`: one
 * chunk per piece (`data: {...}` and CRLF CRLF, as Google sends it), each with the response id,
 * the model version and the usage so far; the last chunk carries the `finishReason` and the final
 * usage. There are no block boundaries on this wire. Thinking pieces are `thought: true` text parts,
 * the signature on the last of them; each tool call is one whole `functionCall` part (Gemini does
 * not stream arguments), with an `id` only when scripted (Gemini before 3 sends none).
 *
 * Stop reasons: `end_turn`, `tool_use` and `stop_sequence` → STOP (Gemini does not tell them apart),
 * `max_tokens` → MAX_TOKENS, `refusal` → SAFETY, `error` → an `{"error": ...}` element after the
 * blocks instead of a finish reason. Usage: `promptTokenCount` is the whole input and
 * `cachedContentTokenCount` the cache reads; cache writes have no place on this wire. Tool
 * arguments must be an object here: a string is parsed, anything else is sent as `{}`.
 */
export function encodeGemini(response: ScriptedResponse): string {
  const serial = ++responseCounter;
  const responseId = response.responseId ?? `MockGeminiResp${serial.toString().padStart(8, "0")}`;
  const modelVersion = response.model ?? DEFAULT_MODEL;
  const size = response.pieceSize ?? 8;
  const stopReason = stopReasonOf(response);
  const parts = response.blocks.flatMap((block) => partsOf(block, size));
  const running = runningUsage(response);
  const chunks: GeminiStreamChunk[] = parts.map((part) => ({
    candidates: [{ content: { parts: [part], role: "model" }, index: 0 }],
    ...(running !== undefined && { usageMetadata: running }),
    modelVersion,
    responseId,
  }));

  if (stopReason === "error") return [...chunks, { error: MIDSTREAM_ERROR }].map(sse).join("");
  if (chunks.length === 0)
    chunks.push({
      candidates: [{ content: { parts: [{ text: "" }], role: "model" }, index: 0 }],
      modelVersion,
      responseId,
    });
  const last = chunks[chunks.length - 1] as GeminiStreamChunk;
  const candidate = last.candidates?.[0];
  if (candidate !== undefined) candidate.finishReason = finishReasonOf(stopReason);
  const final = finalUsage(response);
  if (final !== undefined) last.usageMetadata = final;
  return chunks.map(sse).join("");
}

function sse(chunk: GeminiStreamChunk): string {
  return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
}

function partsOf(block: ScriptedBlock, size: number): GeminiResponsePart[] {
  switch (block.type) {
    case "text":
      return pieces(block.text, size).map((text) => ({ text }));
    case "thinking": {
      const parts: GeminiResponsePart[] = pieces(block.text, size).map((text) => ({ text, thought: true }));
      const last = parts[parts.length - 1];
      if (last !== undefined && block.signature !== undefined) last.thoughtSignature = block.signature;
      return parts;
    }
    case "tool_call":
      return [
        {
          functionCall: {
            ...(block.id !== undefined && { id: block.id }),
            name: block.name,
            args: argumentsObject(block.arguments),
          },
        },
      ];
  }
}

function argumentsObject(value: unknown): Record<string, unknown> {
  if (typeof value === "string") {
    try {
      return argumentsObject(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function finishReasonOf(stopReason: StopReason): string {
  switch (stopReason) {
    case "max_tokens":
      return "MAX_TOKENS";
    case "refusal":
      return "SAFETY";
    default:
      return "STOP";
  }
}

/** What chunks before the last report: the prompt is known from the start, the output is not yet. */
function runningUsage(response: ScriptedResponse): GeminiUsageMetadata | undefined {
  const usage = response.usage;
  if (usage === undefined) return undefined;
  return {
    promptTokenCount: usage.inputTokens,
    ...(usage.cacheReadInputTokens !== undefined && { cachedContentTokenCount: usage.cacheReadInputTokens }),
    totalTokenCount: usage.inputTokens,
  };
}

function finalUsage(response: ScriptedResponse): GeminiUsageMetadata | undefined {
  const usage = response.usage;
  if (usage === undefined) return undefined;
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    ...(usage.cacheReadInputTokens !== undefined && { cachedContentTokenCount: usage.cacheReadInputTokens }),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
}
