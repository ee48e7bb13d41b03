/**
 * The Timeline's event types (seed 002, "timeline::event").
 *
 * Input: the flat llm-client `Event` union. The seed converts it into a `timeline::Event` of the
 * same shape; here the shapes are identical too, so the boundary is a type (`TimelineEvent`) and not
 * a copy: copying every one of 100,000 deltas per response would buy nothing. The layers above
 * import these names from the timeline, never from llm-client.
 *
 * Output: one lifecycle event type per block kind. Every block kind's events share the `kind`
 * discriminant of the llm-client `Delta`, so a delta reaches its handlers as the very object the
 * decoder emitted (no allocation per delta); only start / stop / abort, once per block, are new.
 * Events are shared by every handler of a kind, hence read-only.
 */
import type {
  BlockAbortEvent,
  BlockDeltaEvent,
  BlockStartEvent,
  BlockStopEvent,
  Delta,
  Event,
  ProviderData,
  StopReason,
} from "../llm-client/event.js";

export type {
  BlockType,
  ErrorEvent,
  PingEvent,
  ProviderData,
  ResponseStatus,
  StatusEvent,
  StopReason,
  UsageEvent,
} from "../llm-client/event.js";

/** What the Timeline consumes: the normalized llm-client event, unchanged (see the file comment). */
export type TimelineEvent = Event;

/** A piece of a delta, exactly as the decoder emitted it. */
type DeltaOf<K extends Delta["kind"]> = Readonly<Extract<Delta, { kind: K }>>;

export type TextDelta = DeltaOf<"text">;
export type ThinkingDelta = DeltaOf<"thinking">;
export type InputJsonDelta = DeltaOf<"input_json">;
/** A thinking signature, or a Gemini thought signature attached to a text part or a tool call. */
export type SignatureDelta = DeltaOf<"signature">;
/** One citation attached to the open text block (Anthropic `citations_delta`). */
export type CitationDelta = DeltaOf<"citation">;

/** The end of a block that was cut off (error, cancellation, `abortCurrentBlock()`). */
export interface BlockAborted {
  readonly kind: "abort";
  readonly index: number;
  readonly reason: string;
}

// --- text (also carries `tool_result` blocks, as the seed routes them) -------------------------

export interface TextBlockStart {
  readonly kind: "start";
  readonly index: number;
  /** `tool_result` blocks are delivered to text handlers; this tells them apart. */
  readonly blockType: "text" | "tool_result";
  /** Set for a `tool_result` block: the call it answers. */
  readonly toolUseId?: string;
  readonly providerData?: ProviderData;
}

export interface TextBlockStop {
  readonly kind: "stop";
  readonly index: number;
  readonly stopReason?: StopReason;
  readonly providerData?: ProviderData;
}

export type TextBlockEvent =
  | TextBlockStart
  | TextDelta
  | CitationDelta
  | SignatureDelta
  | TextBlockStop
  | BlockAborted;

// --- thinking ------------------------------------------------------------------------------------

export interface ThinkingBlockStart {
  readonly kind: "start";
  readonly index: number;
  readonly providerData?: ProviderData;
}

export interface ThinkingBlockStop {
  readonly kind: "stop";
  readonly index: number;
  /** OpenAI Responses reasoning: item id, summary parts, encrypted content. */
  readonly providerData?: ProviderData;
}

export type ThinkingBlockEvent =
  | ThinkingBlockStart
  | ThinkingDelta
  | SignatureDelta
  | ThinkingBlockStop
  | BlockAborted;

// --- tool use ------------------------------------------------------------------------------------

/** The identity of a tool call, repeated on every lifecycle event but the deltas (as in the seed). */
export interface ToolUseIdentity {
  readonly index: number;
  /** "" when the block was opened implicitly, by a delta with no start. */
  readonly id: string;
  readonly name: string;
  /** The wire carried no call id; `id` was made up by the decoder. */
  readonly synthesizedId?: true;
}

export interface ToolUseBlockStart extends ToolUseIdentity {
  readonly kind: "start";
  readonly providerData?: ProviderData;
}

export interface ToolUseBlockStop extends ToolUseIdentity {
  readonly kind: "stop";
  readonly providerData?: ProviderData;
}

export interface ToolUseBlockAborted extends ToolUseIdentity {
  readonly kind: "abort";
  readonly reason: string;
}

export type ToolUseBlockEvent =
  | ToolUseBlockStart
  | InputJsonDelta
  | SignatureDelta
  | ToolUseBlockStop
  | ToolUseBlockAborted;

// --- every block, raw ------------------------------------------------------------------------------

/**
 * The flat llm-client block events, for blocks of every type: the only way to see the block types
 * the seed has no kind for (`redacted_thinking`, `server_tool_use`, `server_tool_result`).
 */
export type RawBlockEvent =
  | Readonly<BlockStartEvent>
  | Readonly<BlockDeltaEvent>
  | Readonly<BlockStopEvent>
  | Readonly<BlockAbortEvent>;
