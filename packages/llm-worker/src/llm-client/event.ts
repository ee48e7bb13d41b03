/**
 * The normalized event model (seed 002, "event model"). Every provider scheme decodes its wire
 * format into this one flat union; the Timeline gives it block structure.
 *
 * Stream contract, for every scheme:
 * - the first event is `status: "started"` (with the response id and model when the wire has them);
 * - blocks never overlap: `block_start` → `block_delta`* → `block_stop` | `block_abort`, one at a time,
 *   with increasing `index`;
 * - `usage` events are cumulative snapshots: the last one is the response's usage;
 * - a failure is an `error` event (never a thrown exception), followed by the final status;
 * - the last event is exactly one `status` of `completed`, `failed` or `cancelled`, with a `stopReason`.
 */
export type Event =
  | PingEvent
  | UsageEvent
  | StatusEvent
  | ErrorEvent
  | BlockStartEvent
  | BlockDeltaEvent
  | BlockStopEvent
  | BlockAbortEvent;

/**
 * Why the model stopped, the same set for every provider. `pause_turn`: the provider paused a long
 * turn of its own server tools (Anthropic); the turn is not over, and sending the response back as
 * it is, as the last message, lets the model continue it (the Worker does so by itself).
 */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "error";

export type ResponseStatus = "started" | "completed" | "cancelled" | "failed";

/**
 * Block types. The seed names text, thinking, tool_use and tool_result; the others keep provider
 * payloads the seed does not model, so a UI can show them and the next request can send them back.
 */
export type BlockType =
  | "text"
  | "thinking"
  | "redacted_thinking"
  | "tool_use"
  | "tool_result"
  | "server_tool_use"
  | "server_tool_result";

export interface PingEvent {
  type: "ping";
  timestamp?: number;
}

/**
 * Token usage, the same meaning for every provider: `inputTokens` is the whole prompt that was
 * sent, cache hits included (Anthropic reports only the uncached part, so its decoder adds cache
 * read and creation); the cache fields are the breakdown of it. `outputTokens` includes reasoning.
 */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

export interface UsageEvent extends Usage {
  type: "usage";
  /** The provider's own usage object, field names unchanged (cumulative, like the rest). */
  raw: unknown;
}

export interface StatusEvent {
  type: "status";
  status: ResponseStatus;
  /** Set on the final status. */
  stopReason?: StopReason;
  /** The provider's own finish reason (`stop_reason`, `finish_reason`, `finishReason`, ...), or null. */
  rawStopReason?: string | number | null;
  /** Set on `started` when the wire carries them. */
  responseId?: string;
  model?: string;
  /** OpenAI Responses `incomplete_details` on an incomplete response. */
  incompleteDetails?: unknown;
}

/** What went wrong, as a value. Shared by `ErrorEvent` and the thrown `LlmError`. */
export type ErrorKind =
  | "authentication"
  | "permission"
  | "not_found"
  | "rate_limit"
  /**
   * A quota that waiting a few seconds will not refill: a daily limit, an empty balance
   * (OpenAI `insufficient_quota`). Not retried; `resetAt` says when it lifts, if the provider said.
   */
  | "quota_exhausted"
  | "overloaded"
  | "context_too_long"
  | "invalid_request"
  | "server"
  | "network"
  | "timeout"
  | "aborted"
  /** The stream itself was malformed or cut short. */
  | "stream";

export interface ErrorInfo {
  kind: ErrorKind;
  message: string;
  /** Provider error code or type (`overloaded_error`, `insufficient_quota`, ...). */
  code?: string;
  /** HTTP status, when the error came with one. */
  status?: number;
  requestId?: string;
  /** The provider's error payload as received. */
  raw?: unknown;
  /**
   * When the limit that refused the request lifts (ISO 8601), on `rate_limit` and
   * `quota_exhausted` errors when the provider said it: the time to schedule a resumed run at.
   */
  resetAt?: string;
}

export interface ErrorEvent extends ErrorInfo {
  type: "error";
}

/**
 * Provider data a block carries so that the next request can send it back byte-exact. Present on
 * `block_start` and/or `block_stop`; a field on the stop event wins over the same field on start.
 */
export interface ProviderData {
  /** OpenAI Responses: the output item id (`msg_…`, `rs_…`, `fc_…`). */
  itemId?: string;
  /** OpenAI Responses reasoning: `encrypted_content` (null when the request did not ask for it). */
  encryptedContent?: string | null;
  /** OpenAI Responses reasoning: the summary parts, in order. */
  summary?: string[];
  /** The provider's own block or item, for blocks that are sent back verbatim (server tools). */
  raw?: unknown;
}

interface BlockStartBase {
  type: "block_start";
  index: number;
  providerData?: ProviderData;
}

export type BlockStartEvent =
  | (BlockStartBase & { blockType: "text" })
  | (BlockStartBase & { blockType: "thinking" })
  | (BlockStartBase & { blockType: "redacted_thinking"; data: string })
  | (BlockStartBase & ToolUseStart)
  | (BlockStartBase & { blockType: "tool_result"; toolUseId: string })
  | (BlockStartBase & { blockType: "server_tool_use"; id: string; name: string })
  | (BlockStartBase & { blockType: "server_tool_result"; toolUseId: string; resultType: string });

export interface ToolUseStart {
  blockType: "tool_use";
  id: string;
  name: string;
  /** The wire carried no call id (Gemini before v3, Ollama); `id` was made up by the decoder. */
  synthesizedId?: true;
}

export type Delta =
  | { kind: "text"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "input_json"; json: string }
  /** Thinking signature (Anthropic `signature_delta`) or Gemini `thoughtSignature`; pieces concatenate. */
  | { kind: "signature"; signature: string }
  /** Anthropic `citations_delta`: one citation attached to the current text block. */
  | { kind: "citation"; citation: unknown };

export interface BlockDeltaEvent {
  type: "block_delta";
  index: number;
  delta: Delta;
}

export interface BlockStopEvent {
  type: "block_stop";
  index: number;
  blockType: BlockType;
  stopReason?: StopReason;
  providerData?: ProviderData;
}

export interface BlockAbortEvent {
  type: "block_abort";
  index: number;
  blockType: BlockType;
  reason: string;
}
