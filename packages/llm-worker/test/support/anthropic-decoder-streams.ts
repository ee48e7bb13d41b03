/** Helpers for the decoder tests: SSE bodies built from Anthropic event payloads, decoded. */
import { decodeStream } from "../../src/llm-client/decode.js";
import type { Event } from "../../src/llm-client/event.js";
import type { Response } from "../../src/llm-client/response.js";
import { anthropicScheme } from "../../src/llm-client/schemes/index.js";
import { collectResponse } from "../../src/timeline/collect-response.js";

/** An SSE body from event payloads, with `event:` lines as the API sends them. */
export function sse(...events: Array<Record<string, unknown> | string>): string {
  return events
    .map((e) => {
      if (typeof e === "string") return `data: ${e}\n\n`;
      return `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
    })
    .join("");
}

async function* bytes(body: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(body);
}

export async function events(body: string): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of decodeStream(anthropicScheme, bytes(body))) out.push(event);
  return out;
}

export function response(body: string): Promise<Response> {
  return collectResponse(decodeStream(anthropicScheme, bytes(body)), "anthropic");
}

export const start = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }) => ({
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "claude-x", content: [], usage },
});
export const textStart = (index: number) => ({
  type: "content_block_start",
  index,
  content_block: { type: "text", text: "" },
});
export const textDelta = (index: number, text: string) => ({
  type: "content_block_delta",
  index,
  delta: { type: "text_delta", text },
});
export const blockStop = (index: number) => ({ type: "content_block_stop", index });
export const messageDelta = (
  stop_reason: string | null,
  usage: Record<string, unknown> = { output_tokens: 5 },
) => ({
  type: "message_delta",
  delta: { stop_reason, stop_sequence: null },
  usage,
});
export const messageStop = { type: "message_stop" };

export function textResponse(stopReason: string | null): string {
  return sse(start(), textStart(0), textDelta(0, "Hi"), blockStop(0), messageDelta(stopReason), messageStop);
}
