import { errorKindFromCode } from "../../error-kind.js";
import type { ErrorInfo, Event, StopReason, UsageEvent } from "../../event.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { JsonFrameDecoder } from "../json-frame-decoder.js";
import { isRecord, numberOrUndefined, stringOrUndefined } from "../wire-json.js";

/** How the open wire block is decoded; the deltas it accepts follow from it. */
type BlockKind =
  | "text"
  | "thinking"
  | "redacted_thinking"
  | "tool_use"
  | "server_tool_use"
  /** `*_tool_result` blocks, and block types this scheme does not know: kept whole, deltas ignored. */
  | "opaque";

interface OpenBlock {
  /** The `index` the wire gave the block. */
  wireIndex: number;
  kind: BlockKind;
  /** The `content_block` of the start event, for blocks rebuilt or kept whole. */
  start: Record<string, unknown>;
  /** Server tool input, gathered to rebuild the block at its stop. */
  json: string;
  sawJson: boolean;
}

type Json = Record<string, unknown>;

/**
 * Decodes an Anthropic Messages stream: `message_start`, then per block `content_block_start`,
 * `content_block_delta`*, `content_block_stop`, then `message_delta` (stop reason, cumulative usage)
 * and `message_stop`, the end marker; `ping` and `error` may come at any point.
 *
 * Block types: `text` (with `citations_delta` → `citation` deltas), `thinking` (`signature_delta` →
 * `signature` deltas), `redacted_thinking` (data in the start), `tool_use`; `server_tool_use` and
 * `mcp_tool_use` become `server_tool_use` blocks whose stop carries the rebuilt block
 * `{…start, input}` as `providerData.raw`; every `*_tool_result` block becomes a
 * `server_tool_result` with the whole block as `providerData.raw`. A block type this scheme does not
 * know is kept the same way (result-like, whole, sent back verbatim) rather than failing the stream,
 * and unknown event and delta types are ignored, as Anthropic's versioning policy asks of clients.
 */
export function createAnthropicDecoder(emit: (event: Event) => void): StreamDecoder {
  return new AnthropicDecoder(emit);
}

class AnthropicDecoder extends JsonFrameDecoder {
  protected readonly frameName = "Anthropic stream event";
  private messageStarted = false;
  private block: OpenBlock | undefined;
  private usage: Json | undefined;
  private rawStopReason: string | null = null;
  private sawClientToolCall = false;

  protected read(event: Json, frame: Frame): void {
    const data = frame.data;
    if (typeof event.type !== "string") {
      this.malformed("an event without a type", data);
      return;
    }
    switch (event.type) {
      case "message_start":
        this.onMessageStart(event, data);
        return;
      case "content_block_start":
        this.onBlockStart(event, data);
        return;
      case "content_block_delta":
        this.onBlockDelta(event, data);
        return;
      case "content_block_stop":
        this.onBlockStop(event, data);
        return;
      case "message_delta":
        this.onMessageDelta(event, data);
        return;
      case "message_stop":
        this.onMessageStop();
        return;
      case "ping":
        if (this.messageStarted) this.writer.ping();
        return;
      case "error":
        this.onError(event);
        return;
      default:
        // New event types may be added to the API at any time.
        return;
    }
  }

  // The end marker is message_stop: a `[DONE]` (appended by vercel/ai-style replays) means nothing.
  protected override onDoneMarker(): void {}

  end(): void {
    if (this.writer.isFinished) return;
    this.truncated(this.rawStopReason);
  }

  fail(error: ErrorInfo): void {
    this.writer.fail(error, this.rawStopReason);
  }

  private onMessageStart(event: Json, data: string): void {
    const message = event.message;
    if (!isRecord(message)) {
      this.malformed("message_start without a message", data);
      return;
    }
    this.messageStarted = true;
    this.writer.started(stringOrUndefined(message.id), stringOrUndefined(message.model));
    if (isRecord(message.usage)) {
      this.usage = { ...message.usage };
      this.writer.usage(normalizeAnthropicUsage(this.usage));
    }
  }

  private onBlockStart(event: Json, data: string): void {
    const block = event.content_block;
    if (typeof event.index !== "number" || !isRecord(block) || typeof block.type !== "string") {
      this.malformed("content_block_start without an index or a typed content_block", data);
      return;
    }
    if (this.block) this.closeBlock();
    const kind = this.openBlock(block, block.type);
    if (kind === undefined) {
      this.malformed(`a ${block.type} block without its required fields`, data);
      return;
    }
    this.block = { wireIndex: event.index, kind, start: block, json: "", sawJson: false };
  }

  /** Emits the block start (and any content the start already carries); undefined if malformed. */
  private openBlock(block: Json, type: string): BlockKind | undefined {
    const w = this.writer;
    switch (type) {
      case "text":
        w.openBlock({ blockType: "text" });
        if (typeof block.text === "string" && block.text !== "") w.delta({ kind: "text", text: block.text });
        if (Array.isArray(block.citations))
          for (const citation of block.citations) w.delta({ kind: "citation", citation });
        return "text";
      case "thinking":
        w.openBlock({ blockType: "thinking" });
        if (typeof block.thinking === "string" && block.thinking !== "")
          w.delta({ kind: "thinking", text: block.thinking });
        if (typeof block.signature === "string" && block.signature !== "")
          w.delta({ kind: "signature", signature: block.signature });
        return "thinking";
      case "redacted_thinking":
        if (typeof block.data !== "string") return undefined;
        w.openBlock({ blockType: "redacted_thinking", data: block.data });
        return "redacted_thinking";
      case "tool_use":
        if (typeof block.id !== "string" || typeof block.name !== "string") return undefined;
        this.sawClientToolCall = true;
        w.openBlock({ blockType: "tool_use", id: block.id, name: block.name });
        return "tool_use";
      case "server_tool_use":
      case "mcp_tool_use":
        if (typeof block.id !== "string" || typeof block.name !== "string") return undefined;
        w.openBlock({ blockType: "server_tool_use", id: block.id, name: block.name });
        return "server_tool_use";
      default: {
        // `*_tool_result` blocks and unknown types: the whole block arrives in the start.
        const toolUseId = stringOrUndefined(block.tool_use_id) ?? stringOrUndefined(block.id) ?? "";
        w.openBlock({
          blockType: "server_tool_result",
          toolUseId,
          resultType: type,
          providerData: { raw: block },
        });
        return "opaque";
      }
    }
  }

  private onBlockDelta(event: Json, data: string): void {
    const delta = event.delta;
    if (!isRecord(delta) || typeof delta.type !== "string") {
      this.malformed("content_block_delta without a typed delta", data);
      return;
    }
    const block = this.openBlockAt(event.index, data);
    if (!block || block.kind === "opaque") return;
    const w = this.writer;
    switch (delta.type) {
      case "text_delta":
        if (!this.expect(block, "text", delta.text, data)) return;
        if (delta.text !== "") w.delta({ kind: "text", text: delta.text });
        return;
      case "citations_delta":
        if (block.kind !== "text" || delta.citation === undefined) break;
        w.delta({ kind: "citation", citation: delta.citation });
        return;
      case "thinking_delta":
        if (!this.expect(block, "thinking", delta.thinking, data)) return;
        if (delta.thinking !== "") w.delta({ kind: "thinking", text: delta.thinking });
        return;
      case "signature_delta":
        if (!this.expect(block, "thinking", delta.signature, data)) return;
        if (delta.signature !== "") w.delta({ kind: "signature", signature: delta.signature });
        return;
      case "input_json_delta": {
        const json = delta.partial_json;
        if ((block.kind !== "tool_use" && block.kind !== "server_tool_use") || typeof json !== "string")
          break;
        block.sawJson = true;
        if (json === "") return;
        if (block.kind === "server_tool_use") block.json += json;
        w.delta({ kind: "input_json", json });
        return;
      }
      default:
        // New delta types may be added to the API at any time.
        return;
    }
    this.malformed(`a ${delta.type} in a ${block.kind} block`, data);
  }

  /** True if a string field arrived for a block of the expected kind; else reports the frame. */
  private expect(block: OpenBlock, kind: BlockKind, field: unknown, data: string): field is string {
    if (block.kind === kind && typeof field === "string") return true;
    this.malformed(`a delta that does not fit the open ${block.kind} block`, data);
    return false;
  }

  private onBlockStop(event: Json, data: string): void {
    if (!this.openBlockAt(event.index, data)) return;
    this.closeBlock();
  }

  /** The open block, if `index` is its wire index; else reports the frame. */
  private openBlockAt(index: unknown, data: string): OpenBlock | undefined {
    const block = this.block;
    if (block && block.wireIndex === index) return block;
    const open = block ? `block ${block.wireIndex} is open` : "no block is open";
    this.malformed(`an event for block ${String(index)} while ${open}`, data);
    return undefined;
  }

  private closeBlock(): void {
    const block = this.block;
    if (!block) return;
    this.block = undefined;
    if (block.kind === "server_tool_use") {
      this.writer.closeBlock({ raw: { ...block.start, input: serverToolInput(block) } });
      return;
    }
    if (block.kind === "tool_use" && !block.sawJson) {
      // The whole input came in the start (no input_json_delta): pass it on as the arguments.
      const input = block.start.input;
      if (isRecord(input) && Object.keys(input).length > 0)
        this.writer.delta({ kind: "input_json", json: JSON.stringify(input) });
    }
    this.writer.closeBlock();
  }

  private onMessageDelta(event: Json, data: string): void {
    const delta = event.delta;
    if (delta !== undefined && !isRecord(delta)) {
      this.malformed("message_delta with a delta that is not an object", data);
      return;
    }
    if (typeof delta?.stop_reason === "string") this.rawStopReason = delta.stop_reason;
    if (isRecord(event.usage)) {
      this.usage = overlayUsage(this.usage, event.usage);
      this.writer.usage(normalizeAnthropicUsage(this.usage));
    }
  }

  private onMessageStop(): void {
    this.closeBlock();
    let stopReason = anthropicStopReason(this.rawStopReason);
    // The unified contract: a response with client tool calls asks for them to be run.
    if (this.sawClientToolCall && (stopReason === "end_turn" || stopReason === "stop_sequence"))
      stopReason = "tool_use";
    this.writer.finish(stopReason, this.rawStopReason);
  }

  private onError(event: Json): void {
    const error = isRecord(event.error) ? event.error : {};
    const code = stringOrUndefined(error.type);
    const message = stringOrUndefined(error.message) ?? "the provider reported an error";
    const requestId = stringOrUndefined(event.request_id);
    this.writer.fail(
      {
        kind: errorKindFromCode(code, message),
        message,
        ...(code !== undefined && { code }),
        ...(requestId !== undefined && { requestId }),
        raw: event.error,
      },
      this.rawStopReason,
    );
  }
}

/** The server tool's input as an object: the streamed JSON, else what the start carried. */
function serverToolInput(block: OpenBlock): unknown {
  if (block.json !== "") {
    try {
      return JSON.parse(block.json);
    } catch {
      // Cut-off or invalid input: the start's value is the best we have.
    }
  }
  return block.start.input ?? {};
}

/**
 * Anthropic's `stop_reason` in the unified set:
 * - `pause_turn` (the API paused a long server-tool turn) → `pause_turn`: nothing is left for the
 *   caller to run, but the turn is not over; sending the response back as it is continues it;
 * - `model_context_window_exceeded` → `max_tokens`: the answer was cut off by a token limit;
 * - a missing or unknown reason → `end_turn`: the message did end (`message_stop` arrived).
 */
export function anthropicStopReason(raw: string | null): StopReason {
  switch (raw) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    case "stop_sequence":
      return "stop_sequence";
    case "tool_use":
      return "tool_use";
    case "pause_turn":
      return "pause_turn";
    case "refusal":
      return "refusal";
    default:
      return "end_turn";
  }
}

/**
 * The normalized usage of an Anthropic usage object. Anthropic's `input_tokens` is only the uncached
 * part of the prompt, so the whole prompt is it plus cache reads plus cache writes.
 */
export function normalizeAnthropicUsage(raw: Readonly<Record<string, unknown>>): Omit<UsageEvent, "type"> {
  const uncached = numberOrUndefined(raw.input_tokens);
  const cacheRead = numberOrUndefined(raw.cache_read_input_tokens);
  const cacheCreation = numberOrUndefined(raw.cache_creation_input_tokens);
  const output = numberOrUndefined(raw.output_tokens);
  const details = raw.output_tokens_details as { thinking_tokens?: unknown } | null | undefined;
  const reasoning = details ? numberOrUndefined(details.thinking_tokens) : undefined;

  const usage: Omit<UsageEvent, "type"> = { raw };
  if (uncached !== undefined || cacheRead !== undefined || cacheCreation !== undefined)
    usage.inputTokens = (uncached ?? 0) + (cacheRead ?? 0) + (cacheCreation ?? 0);
  if (output !== undefined) usage.outputTokens = output;
  if (usage.inputTokens !== undefined && output !== undefined) usage.totalTokens = usage.inputTokens + output;
  if (cacheRead !== undefined) usage.cacheReadInputTokens = cacheRead;
  if (cacheCreation !== undefined) usage.cacheCreationInputTokens = cacheCreation;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * The usage after a `message_delta`: its counts are cumulative, so every non-null field replaces
 * the one before. A new object, so that usage events already emitted keep their snapshot.
 */
export function overlayUsage(
  base: Readonly<Record<string, unknown>> | undefined,
  delta: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...base };
  for (const key in delta) {
    const value = delta[key];
    if (value !== null && value !== undefined) next[key] = value;
  }
  return next;
}
