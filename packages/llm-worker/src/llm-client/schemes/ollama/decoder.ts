import { errorKindFromCode } from "../../error-kind.js";
import type { ErrorInfo, Event, StopReason, Usage } from "../../event.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { JsonFrameDecoder } from "../json-frame-decoder.js";
import { excerpt, isRecord } from "../wire-json.js";
import { OLLAMA_USAGE_FIELDS, type OllamaUsage } from "./wire.js";

/** Makes an id for a tool call the wire sent without one. */
export type CallIdFactory = () => string;

const randomCallId: CallIdFactory = () => `call_${crypto.randomUUID()}`;

/**
 * Decodes Ollama's NDJSON chat stream. Ollama sends no block boundaries, so they are synthesized:
 * consecutive `thinking` pieces form one thinking block, consecutive `content` pieces one text block,
 * and every `tool_calls` entry (always whole) one tool_use block. The line with `done: true` ends
 * the response and carries the usage; a body that ends without it was cut short.
 */
export function createOllamaDecoder(
  emit: (event: Event) => void,
  newCallId: CallIdFactory = randomCallId,
): StreamDecoder {
  return new OllamaDecoder(emit, newCallId);
}

class OllamaDecoder extends JsonFrameDecoder {
  protected readonly frameName = "Ollama stream";
  private sawToolCall = false;

  constructor(
    emit: (event: Event) => void,
    private readonly newCallId: CallIdFactory,
  ) {
    super(emit);
  }

  protected read(line: Record<string, unknown>, frame: Frame): void {
    if (line.error !== undefined) {
      this.providerError(line.error);
      return;
    }
    const { message, done } = line;
    const messageOk = message === undefined || isRecord(message);
    const doneOk = done === undefined || typeof done === "boolean";
    if (!messageOk || !doneOk || (message === undefined && done === undefined)) {
      this.malformed("a line that is not a chat chunk (no message object or boolean done)", frame.data);
      return;
    }
    this.writer.started(undefined, typeof line.model === "string" ? line.model : undefined);
    if (isRecord(message) && !this.readMessage(message, frame.data)) return;
    if (done === true) this.finish(line);
  }

  end(): void {
    if (this.writer.isFinished) return;
    this.truncated();
  }

  fail(error: ErrorInfo): void {
    this.writer.fail(error);
  }

  /** Thinking, then content, then tool calls: the order the server produces them within one line. */
  private readMessage(message: Record<string, unknown>, data: string): boolean {
    const { thinking, content, tool_calls: toolCalls } = message;
    if (typeof thinking === "string" && thinking !== "") this.appendThinking(thinking);
    if (typeof content === "string" && content !== "") this.appendText(content);
    if (toolCalls === undefined || toolCalls === null) return true;
    if (!Array.isArray(toolCalls)) {
      this.malformed("tool_calls that is not an array", data);
      return false;
    }
    for (const call of toolCalls) {
      if (!this.readToolCall(call)) {
        this.malformed("a tool call without a function name or with invalid arguments", data);
        return false;
      }
    }
    return true;
  }

  private appendThinking(text: string): void {
    if (this.writer.openBlockType !== "thinking") this.writer.openBlock({ blockType: "thinking" });
    this.writer.delta({ kind: "thinking", text });
  }

  private appendText(text: string): void {
    if (this.writer.openBlockType !== "text") this.writer.openBlock({ blockType: "text" });
    this.writer.delta({ kind: "text", text });
  }

  private readToolCall(call: unknown): boolean {
    if (!isRecord(call) || !isRecord(call.function)) return false;
    const { name, arguments: args } = call.function;
    if (typeof name !== "string" || name === "") return false;
    let json: string;
    if (isRecord(args)) json = JSON.stringify(args);
    else if (typeof args === "string") json = args;
    else if (args === undefined || args === null) json = "";
    else return false;
    const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
    this.writer.openBlock(
      id === undefined
        ? { blockType: "tool_use", id: this.newCallId(), name, synthesizedId: true }
        : { blockType: "tool_use", id, name },
    );
    if (json !== "") this.writer.delta({ kind: "input_json", json });
    this.writer.closeBlock();
    this.sawToolCall = true;
    return true;
  }

  private finish(line: Record<string, unknown>): void {
    const usage = usageOf(line);
    if (usage !== undefined) this.writer.usage(usage);
    const doneReason =
      typeof line.done_reason === "string" && line.done_reason !== "" ? line.done_reason : null;
    this.writer.finish(stopReasonOf(doneReason, this.sawToolCall), doneReason);
  }

  /** Ollama reports a failure after the response started as a line `{"error": "<message>"}`. */
  private providerError(error: unknown): void {
    const message = typeof error === "string" ? error : excerpt(JSON.stringify(error) ?? String(error));
    this.writer.fail({ kind: errorKindFromCode(undefined, message, "server"), message, raw: error });
  }
}

/**
 * Ollama says `stop` both for the end of the turn and for a stop sequence, and has no refusal
 * signal; `length` is the token limit. A response with tool calls is a tool_use stop.
 */
function stopReasonOf(doneReason: string | null, sawToolCall: boolean): StopReason {
  if (doneReason === "length") return "max_tokens";
  return sawToolCall ? "tool_use" : "end_turn";
}

/**
 * The normalized usage and the raw usage object of the final line. Ollama has no prompt cache
 * counters and does not count reasoning apart, so only the totals are known.
 */
function usageOf(line: Record<string, unknown>): (Usage & { raw: OllamaUsage }) | undefined {
  const raw: OllamaUsage = {};
  let found = false;
  for (const field of OLLAMA_USAGE_FIELDS) {
    const value = line[field];
    if (typeof value === "number") {
      raw[field] = value;
      found = true;
    }
  }
  if (!found) return undefined;
  const usage: Usage & { raw: OllamaUsage } = { raw };
  if (raw.prompt_eval_count !== undefined) usage.inputTokens = raw.prompt_eval_count;
  if (raw.eval_count !== undefined) usage.outputTokens = raw.eval_count;
  if (raw.prompt_eval_count !== undefined && raw.eval_count !== undefined) {
    usage.totalTokens = raw.prompt_eval_count + raw.eval_count;
  }
  return usage;
}
