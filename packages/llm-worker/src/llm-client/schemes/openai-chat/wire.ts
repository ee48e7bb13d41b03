/**
 * Our own types for the OpenAI Chat Completions wire format (`POST /chat/completions` with
 * `stream: true`), written from the API reference. Only what this scheme sends or reads is modelled;
 * `test/conformance/openai-chat.ts` proves at the type level that the request body is one the
 * official SDK would accept. The SDK itself is never imported at runtime.
 *
 * OpenAI-compatible servers (Groq, xAI, DeepSeek, vLLM, OpenRouter, ...) add fields of their own to
 * the stream; the ones we read are marked where they appear.
 */

import type { JsonSchema } from "../../request.js";

// ---------------------------------------------------------------------------------------------
// Request body
// ---------------------------------------------------------------------------------------------

/** The JSON body of a streaming chat completion request. */
export interface OpenaiChatBody {
  model: string;
  messages: OpenaiChatMessage[];
  stream: true;
  /** `include_usage` makes the server send a last chunk with the usage (and `choices: []`). */
  stream_options: { include_usage: boolean };
  tools?: OpenaiChatTool[];
  tool_choice?: OpenaiChatToolChoice;
  /** The current name of the output limit; `max_tokens` is its deprecated predecessor. */
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  reasoning_effort?: OpenaiChatReasoningEffort;
  /** Structured output: the answer is JSON matching the schema. */
  response_format?: OpenaiChatResponseFormat;
}

export interface OpenaiChatResponseFormat {
  type: "json_schema";
  json_schema: {
    name: string;
    schema: { [key: string]: unknown };
    description?: string;
    strict?: boolean;
  };
}

export type OpenaiChatReasoningEffort = "minimal" | "low" | "medium" | "high";

export type OpenaiChatMessage =
  | OpenaiChatSystemMessage
  | OpenaiChatUserMessage
  | OpenaiChatAssistantMessage
  | OpenaiChatToolMessage;

export interface OpenaiChatSystemMessage {
  role: "system";
  content: string;
}

export interface OpenaiChatUserMessage {
  role: "user";
  /** Plain text, or text and image parts when the message has images. */
  content: string | OpenaiChatUserContentPart[];
}

export type OpenaiChatUserContentPart =
  | { type: "text"; text: string }
  /** `url`: an `https:` URL or a `data:image/…;base64,` URL. */
  | { type: "image_url"; image_url: { url: string } };

/** One assistant turn: its text (null when it only called tools) and the calls it made. */
export interface OpenaiChatAssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: OpenaiChatToolCall[];
}

export interface OpenaiChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The result of one tool call; it must follow the assistant message that made the call. */
export interface OpenaiChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export interface OpenaiChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: JsonSchema; strict?: boolean };
}

export type OpenaiChatToolChoice =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

// ---------------------------------------------------------------------------------------------
// Stream chunks (the `data:` payload of every SSE message but the final `[DONE]`)
// ---------------------------------------------------------------------------------------------

/**
 * One `chat.completion.chunk`. Every field is optional here because the decoder reads untrusted
 * JSON and checks what it uses; an error chunk (OpenAI mid-stream, Groq `event: error`) carries only
 * `error`.
 */
export interface OpenaiChatChunk {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  system_fingerprint?: string;
  choices?: OpenaiChatChoice[];
  /** Null on every chunk but the one that carries the usage (with `stream_options.include_usage`). */
  usage?: OpenaiChatUsage | null;
  error?: OpenaiChatStreamError | string;
}

export interface OpenaiChatChoice {
  index?: number;
  delta?: OpenaiChatDelta;
  finish_reason?: string | null;
  /** Token log probabilities, when asked for (never by this scheme); `null` otherwise. */
  logprobs?: unknown;
  /** vLLM: the stop string (or token id) that ended generation, beside `finish_reason: "stop"`. */
  stop_reason?: string | number | null;
}

export interface OpenaiChatDelta {
  role?: string;
  content?: string | null;
  refusal?: string | null;
  /** DeepSeek, xAI, vLLM (older): the visible reasoning. */
  reasoning_content?: string | null;
  /** Groq, OpenRouter, vLLM (newer): the same, under another name. */
  reasoning?: string | null;
  tool_calls?: OpenaiChatToolCallDelta[];
}

/** A piece of one tool call; `index` says which call of the response it belongs to. */
export interface OpenaiChatToolCallDelta {
  index?: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

/**
 * The provider's token counts. `prompt_tokens` already includes cached tokens. `completion_tokens`
 * includes reasoning tokens at OpenAI; some servers (xAI) count reasoning only in `total_tokens`.
 */
export interface OpenaiChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: {
    cached_tokens?: number;
    cache_write_tokens?: number;
    audio_tokens?: number;
  } | null;
  completion_tokens_details?: {
    reasoning_tokens?: number;
    audio_tokens?: number;
    accepted_prediction_tokens?: number;
    rejected_prediction_tokens?: number;
  } | null;
  /** DeepSeek's cache hit / miss counts (hit + miss = prompt_tokens). */
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
}

/** An error reported inside the stream, after the HTTP status was already 200. */
export interface OpenaiChatStreamError {
  message?: string;
  type?: string;
  /** A string code at OpenAI; an HTTP status number at some proxies (OpenRouter). */
  code?: string | number | null;
  param?: string | null;
  /** Groq: the HTTP status the error would have had. */
  status_code?: number;
}
