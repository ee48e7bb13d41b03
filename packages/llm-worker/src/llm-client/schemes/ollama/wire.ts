/**
 * Ollama's native chat API (`POST /api/chat`), our own types written from its documentation
 * (docs/api.md, api/types.go). Only what we send and what we read; the SDK is never imported.
 */

/** The request body of a streaming `/api/chat` call. */
export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  tools?: OllamaTool[];
  /** Thinking control: on/off, or an effort level for models that take one (gpt-oss). */
  think?: OllamaThink;
  options?: OllamaOptions;
  /** `"json"`, or a JSON schema the answer must match (structured output). */
  format?: "json" | { [key: string]: unknown };
  stream: true;
}

/** `"max"` exists on recent servers but not in every client; reach it through `providerOptions`. */
export type OllamaThink = boolean | "low" | "medium" | "high";

export type OllamaRole = "system" | "user" | "assistant" | "tool";

export interface OllamaMessage {
  role: OllamaRole;
  content: string;
  /** Assistant: the model's own reasoning, sent back so the model sees what it thought. */
  thinking?: string;
  tool_calls?: OllamaToolCall[];
  /** Tool: the name of the tool whose result this is. */
  tool_name?: string;
  /** Tool: the id of the call it answers (servers that issue call ids). */
  tool_call_id?: string;
  /** Images as base64 (no `data:` prefix), for vision models. */
  images?: string[];
}

export interface OllamaToolCall {
  /** Issued by recent servers; older ones send none. */
  id?: string;
  function: {
    index?: number;
    name: string;
    /** An object, never a JSON string. */
    arguments: Record<string, unknown>;
  };
}

export interface OllamaTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: OllamaToolParameters;
  };
}

/**
 * A tool's JSON Schema. The documented fields are typed; the rest of JSON Schema (`$defs`,
 * `additionalProperties`, ...) passes through untouched.
 */
export interface OllamaToolParameters {
  type?: string;
  required?: string[];
  properties?: Record<string, OllamaPropertySchema>;
  [keyword: string]: unknown;
}

export interface OllamaPropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: unknown;
  [keyword: string]: unknown;
}

/** The model options we set; any other option goes through `providerOptions.options`. */
export interface OllamaOptions {
  num_predict?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
}

/** One NDJSON line of a streamed chat response. */
export interface OllamaChatChunk {
  model?: string;
  created_at?: string;
  message?: OllamaResponseMessage;
  done?: boolean;
  /** `stop`, `length` (or `load` / `unload` for requests with no messages); only on the last line. */
  done_reason?: string;
  total_duration?: number;
  load_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
  eval_count?: number;
  eval_duration?: number;
}

export interface OllamaResponseMessage {
  role?: string;
  content?: string;
  thinking?: string;
  tool_calls?: OllamaResponseToolCall[];
}

/** A tool call as streamed: always whole, one call per entry. */
export interface OllamaResponseToolCall {
  id?: string;
  function?: {
    index?: number;
    name?: string;
    /** An object on the native API; a JSON string is tolerated. */
    arguments?: Record<string, unknown> | string;
  };
}

/** The line a server writes when generation fails after the response has started. */
export interface OllamaErrorLine {
  error: string;
}

/**
 * The usage object of the `done: true` line, as the fixture README defines Ollama's usage: the
 * counts and the durations (nanoseconds), field names unchanged, absent ones left out.
 */
export interface OllamaUsage {
  prompt_eval_count?: number;
  eval_count?: number;
  total_duration?: number;
  load_duration?: number;
  prompt_eval_duration?: number;
  eval_duration?: number;
}

export const OLLAMA_USAGE_FIELDS = [
  "prompt_eval_count",
  "eval_count",
  "total_duration",
  "load_duration",
  "prompt_eval_duration",
  "eval_duration",
] as const satisfies readonly (keyof OllamaUsage)[];
