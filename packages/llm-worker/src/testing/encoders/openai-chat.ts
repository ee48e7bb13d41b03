import type { StopReason } from "../../llm-client/event.js";
import type {
  OpenaiChatChunk,
  OpenaiChatDelta,
  OpenaiChatStreamError,
  OpenaiChatUsage,
} from "../../llm-client/schemes/openai-chat/wire.js";
import { pieces, type ScriptedResponse, type ScriptedUsage, stopReasonOf } from "../script.js";

/** A fixed creation time keeps encoded bodies reproducible. */
const CREATED = 1_750_000_000;
const DEFAULT_MODEL = "gpt-4o-mini-2024-07-18";

/** Numbers the default response and call ids, so that two responses of one test never share them. */
let responseCounter = 0;

/**
 * Renders a scripted response as OpenAI Chat Completions would stream it with
 * `stream_options.include_usage`: a role-only first chunk, thinking as `reasoning_content` pieces
 * (as DeepSeek and xAI send it), text as `content` pieces, each tool call as a first delta with id,
 * name and empty arguments followed by argument pieces, a chunk with the `finish_reason`, the usage
 * chunk (`choices: []`, only when usage is scripted) and `data: [DONE]`.
 *
 * Stop reasons: `end_turn` and `stop_sequence` → `stop` (Chat does not tell them apart), `max_tokens`
 * → `length`, `tool_use` → `tool_calls`, `refusal` → the text as `refusal` pieces with `stop` (what
 * OpenAI sends when a model refuses), or `content_filter` when no text is scripted; `error` → an
 * `error` chunk after the blocks, with no finish reason and no `[DONE]`. Thinking signatures have no
 * place on this wire and are left out. Tool arguments given as a string are sent as that raw text
 * (so that a test can script malformed JSON); anything else is serialized with `JSON.stringify`.
 */
export function encodeOpenaiChat(response: ScriptedResponse): string {
  const serial = ++responseCounter;
  const id = response.responseId ?? `chatcmpl-mock${serial.toString().padStart(6, "0")}`;
  const model = response.model ?? DEFAULT_MODEL;
  const size = response.pieceSize ?? 8;
  const stopReason = stopReasonOf(response);
  const hasText = response.blocks.some((b) => b.type === "text");
  const textAsRefusal = stopReason === "refusal" && hasText;
  const out: string[] = [];
  const chunk = (choices: OpenaiChatChunk["choices"], usage: OpenaiChatUsage | null = null): void => {
    const body: OpenaiChatChunk = {
      id,
      object: "chat.completion.chunk",
      created: CREATED,
      model,
      system_fingerprint: "fp_mock",
      choices,
      usage,
    };
    out.push(`data: ${JSON.stringify(body)}\n\n`);
  };
  const delta = (d: OpenaiChatDelta, finishReason: string | null = null): void =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finishReason }]);

  const startsWithToolCall = response.blocks[0]?.type === "tool_call";
  delta({ role: "assistant", content: startsWithToolCall ? null : "", refusal: null });

  let toolIndex = 0;
  for (const block of response.blocks) {
    if (block.type === "text") {
      for (const piece of pieces(block.text, size))
        delta(textAsRefusal ? { refusal: piece } : { content: piece });
    } else if (block.type === "thinking") {
      for (const piece of pieces(block.text, size)) delta({ reasoning_content: piece });
    } else {
      const index = toolIndex++;
      const args =
        typeof block.arguments === "string" ? block.arguments : JSON.stringify(block.arguments ?? {});
      const callId = block.id ?? `call_mock${serial}x${index}`;
      delta({
        tool_calls: [{ index, id: callId, type: "function", function: { name: block.name, arguments: "" } }],
      });
      for (const piece of pieces(args, size))
        delta({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  }

  if (stopReason === "error") {
    const error: OpenaiChatStreamError = {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      param: null,
      code: null,
    };
    out.push(`data: ${JSON.stringify({ error })}\n\n`);
    return out.join("");
  }
  delta({}, finishReasonOf(stopReason, hasText));
  if (response.usage !== undefined) chunk([], wireUsageOf(response.usage));
  out.push("data: [DONE]\n\n");
  return out.join("");
}

function finishReasonOf(stopReason: StopReason, hasText: boolean): string {
  switch (stopReason) {
    case "max_tokens":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return hasText ? "stop" : "content_filter";
    default:
      return "stop";
  }
}

function wireUsageOf(usage: ScriptedUsage): OpenaiChatUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cacheReadInputTokens ?? 0,
      ...(usage.cacheCreationInputTokens !== undefined && {
        cache_write_tokens: usage.cacheCreationInputTokens,
      }),
      audio_tokens: 0,
    },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
