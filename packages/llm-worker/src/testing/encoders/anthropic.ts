import type {
  AnthropicContentBlock,
  AnthropicContentBlockDelta,
  AnthropicStreamEvent,
  AnthropicUsage,
} from "../../llm-client/schemes/anthropic/wire.js";
import { pieces, type ScriptedBlock, type ScriptedResponse, stopReasonOf } from "../script.js";

const DEFAULT_MODEL = "claude-sonnet-4-5-20250929";
const DEFAULT_MESSAGE_ID = "msg_01MockResponse00000000";
/** What the real API sends when generation fails after the stream has started. */
const MIDSTREAM_ERROR = { type: "api_error", message: "Internal server error" };

/**
 * Renders a scripted response as the SSE body of Anthropic's Messages stream: `message_start`
 * (id, model, usage so far), per block `content_block_start` / deltas in pieces /
 * `content_block_stop` (a `ping` after the first start, as the API does), then `message_delta` with
 * the stop reason and the cumulative usage, and `message_stop`. Tool input starts with an empty
 * `input_json_delta`, as on the wire. A scripted `error` stop ends with an `error` event instead of
 * the message delta and stop.
 *
 * Usage is split back into Anthropic's terms: `input_tokens` is the uncached part only. Thinking
 * without a scripted signature gets no `signature_delta` (a real one always has one).
 */
export function encodeAnthropic(response: ScriptedResponse): string {
  const pieceSize = response.pieceSize ?? 8;
  const stopReason = stopReasonOf(response);
  const usage = wireUsage(response);
  const out: string[] = [];
  const send = (event: AnthropicStreamEvent): void => {
    out.push(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };

  send({
    type: "message_start",
    message: {
      id: response.responseId ?? DEFAULT_MESSAGE_ID,
      model: response.model ?? DEFAULT_MODEL,
      usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens ?? 0) },
    },
  });
  response.blocks.forEach((block, index) => {
    send({ type: "content_block_start", index, content_block: startOf(block, index) });
    if (index === 0) send({ type: "ping" });
    for (const delta of deltasOf(block, pieceSize)) send({ type: "content_block_delta", index, delta });
    send({ type: "content_block_stop", index });
  });
  if (stopReason === "error") {
    send({ type: "error", error: MIDSTREAM_ERROR });
    return out.join("");
  }
  // The unified stop reasons other than `error` are Anthropic's own names.
  send({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage });
  send({ type: "message_stop" });
  return out.join("");
}

function startOf(block: ScriptedBlock, index: number): AnthropicContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "tool_call":
      return { type: "tool_use", id: block.id ?? `toolu_01Mock${index}`, name: block.name, input: {} };
  }
}

function deltasOf(block: ScriptedBlock, pieceSize: number): AnthropicContentBlockDelta[] {
  switch (block.type) {
    case "text":
      return pieces(block.text, pieceSize).map((text) => ({ type: "text_delta", text }));
    case "thinking": {
      const deltas: AnthropicContentBlockDelta[] = pieces(block.text, pieceSize).map((thinking) => ({
        type: "thinking_delta",
        thinking,
      }));
      if (block.signature !== undefined) deltas.push({ type: "signature_delta", signature: block.signature });
      return deltas;
    }
    case "tool_call": {
      const json = JSON.stringify(block.arguments ?? {});
      const deltas: AnthropicContentBlockDelta[] = [{ type: "input_json_delta", partial_json: "" }];
      for (const piece of pieces(json, pieceSize))
        deltas.push({ type: "input_json_delta", partial_json: piece });
      return deltas;
    }
  }
}

function wireUsage(response: ScriptedResponse): AnthropicUsage {
  const usage = response.usage ?? { inputTokens: 0, outputTokens: 0 };
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheCreation = usage.cacheCreationInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheCreation),
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.outputTokens,
  };
}
