/**
 * Our own types for the Anthropic Messages API wire format (`POST /v1/messages`, `stream: true`),
 * written from the documented API. Only what this scheme sends or reads is modelled; the official
 * SDK is never imported at runtime (`test/conformance/anthropic.ts` checks these against it).
 */

// ---------------------------------------------------------------------------------------------
// Request body
// ---------------------------------------------------------------------------------------------

/** A prompt-cache breakpoint: everything up to and including the marked block is cached. */
export interface AnthropicCacheControl {
  type: "ephemeral";
}

export interface AnthropicTextBlockParam {
  type: "text";
  text: string;
  cache_control?: AnthropicCacheControl;
}

/** A thinking block sent back with its signature, exactly as the API produced it. */
export interface AnthropicThinkingBlockParam {
  type: "thinking";
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlockParam {
  type: "redacted_thinking";
  data: string;
}

export interface AnthropicToolUseBlockParam {
  type: "tool_use";
  id: string;
  name: string;
  /** The tool input: always a JSON object on this API. */
  input: Record<string, unknown>;
}

/** An image: its bytes (base64) or a URL the API fetches. */
export interface AnthropicImageBlockParam {
  type: "image";
  source:
    | { type: "base64"; media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; data: string }
    | { type: "url"; url: string };
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlockParam {
  type: "tool_result";
  tool_use_id: string;
  /** Text alone, or text and images when the tool returned images. */
  content?: string | Array<AnthropicTextBlockParam | AnthropicImageBlockParam>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

/**
 * A block the API produced (server tool call or result, or a block type this scheme does not know)
 * that goes back in the next request byte-exact. Its shape is Anthropic's own; we never look inside.
 */
export interface AnthropicEchoedBlock {
  type: string;
}

/** Blocks of a user turn. */
export type AnthropicUserBlockParam =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicToolResultBlockParam;

/** Blocks of an assistant turn that this scheme builds itself. */
export type AnthropicOwnAssistantBlockParam =
  | AnthropicTextBlockParam
  | AnthropicThinkingBlockParam
  | AnthropicRedactedThinkingBlockParam
  | AnthropicToolUseBlockParam;

export type AnthropicAssistantBlockParam = AnthropicOwnAssistantBlockParam | AnthropicEchoedBlock;

export interface AnthropicUserMessage {
  role: "user";
  content: AnthropicUserBlockParam[];
}

export interface AnthropicAssistantMessage {
  role: "assistant";
  content: AnthropicAssistantBlockParam[];
}

export type AnthropicMessageParam = AnthropicUserMessage | AnthropicAssistantMessage;

/** A client tool: the model calls it, our code runs it. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: "object"; [key: string]: unknown };
  cache_control?: AnthropicCacheControl;
}

/** Anthropic's web search, run by Anthropic (a server tool): its calls come back as `server_tool_use`. */
export interface AnthropicWebSearchTool {
  type: "web_search_20250305";
  name: "web_search";
  max_uses?: number;
  allowed_domains?: string[];
  cache_control?: AnthropicCacheControl;
}

export type AnthropicToolChoice =
  | { type: "auto" }
  | { type: "any" }
  | { type: "none" }
  | { type: "tool"; name: string };

/** Extended thinking with a token budget (at least 1024, below `max_tokens`). */
export interface AnthropicThinkingConfig {
  type: "enabled";
  budget_tokens: number;
}

/** The body of a streaming Messages request as this scheme builds it. */
export interface AnthropicMessagesBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessageParam[];
  system?: AnthropicTextBlockParam[];
  tools?: Array<AnthropicTool | AnthropicWebSearchTool>;
  tool_choice?: AnthropicToolChoice;
  thinking?: AnthropicThinkingConfig;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  /** Structured output: the answer is JSON matching `format.schema`. */
  output_config?: AnthropicOutputConfig;
  stream: true;
}

export interface AnthropicOutputConfig {
  format: { type: "json_schema"; schema: { [key: string]: unknown } };
}

// ---------------------------------------------------------------------------------------------
// Stream events (server-sent events; the `event:` name equals the payload's `type`)
// ---------------------------------------------------------------------------------------------

/**
 * Token counts. `input_tokens` is only the uncached part of the prompt; cache reads and writes are
 * counted separately. In `message_delta` the counts are cumulative and a field may be null.
 */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

export type AnthropicStopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded";

export interface AnthropicMessageStartEvent {
  type: "message_start";
  message: {
    id: string;
    model: string;
    usage: AnthropicUsage;
  };
}

export interface AnthropicTextBlock {
  type: "text";
  text: string;
  citations?: unknown[] | null;
}

export interface AnthropicThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** `server_tool_use` (web search, code execution, ...) or `mcp_tool_use`: run by Anthropic, not by us. */
export interface AnthropicServerToolUseBlock {
  type: "server_tool_use" | "mcp_tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** Any `*_tool_result` block (`web_search_tool_result`, `mcp_tool_result`, ...): content comes whole. */
export interface AnthropicServerToolResultBlock {
  type: string;
  tool_use_id: string;
  content?: unknown;
}

/** The block of a `content_block_start`; block types added to the API later are kept as they come. */
export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicServerToolUseBlock
  | AnthropicServerToolResultBlock
  | { type: string };

export interface AnthropicContentBlockStartEvent {
  type: "content_block_start";
  index: number;
  content_block: AnthropicContentBlock;
}

export type AnthropicContentBlockDelta =
  | { type: "text_delta"; text: string }
  | { type: "input_json_delta"; partial_json: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "signature_delta"; signature: string }
  | { type: "citations_delta"; citation: unknown }
  | { type: string };

export interface AnthropicContentBlockDeltaEvent {
  type: "content_block_delta";
  index: number;
  delta: AnthropicContentBlockDelta;
}

export interface AnthropicContentBlockStopEvent {
  type: "content_block_stop";
  index: number;
}

export interface AnthropicMessageDeltaEvent {
  type: "message_delta";
  delta: { stop_reason: AnthropicStopReason | null; stop_sequence?: string | null };
  usage: AnthropicUsage;
}

export interface AnthropicMessageStopEvent {
  type: "message_stop";
}

export interface AnthropicPingEvent {
  type: "ping";
}

/** An error inside a stream that had already started (`overloaded_error`, `api_error`, ...). */
export interface AnthropicErrorEvent {
  type: "error";
  error: { type: string; message: string };
  request_id?: string;
}

export type AnthropicStreamEvent =
  | AnthropicMessageStartEvent
  | AnthropicContentBlockStartEvent
  | AnthropicContentBlockDeltaEvent
  | AnthropicContentBlockStopEvent
  | AnthropicMessageDeltaEvent
  | AnthropicMessageStopEvent
  | AnthropicPingEvent
  | AnthropicErrorEvent;
