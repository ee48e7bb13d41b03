import type { Event } from "../../src/llm-client/event.js";
import type { Response } from "../../src/llm-client/response.js";
import type { Frame } from "../../src/llm-client/scheme.js";
import { createOpenaiResponsesDecoder } from "../../src/llm-client/schemes/openai-responses/decoder.js";
import { assembleResponse } from "../../src/timeline/collect-response.js";

/** Hand-written Responses stream events for the decoder tests (shapes as the API sends them). */
export type Wire = { type: string; [key: string]: unknown };

/** Feeds wire events (or raw data strings) to a fresh decoder and ends the body. */
export function decode(frames: Array<Wire | string>, opts: { end?: boolean } = {}) {
  const events: Event[] = [];
  const decoder = createOpenaiResponsesDecoder((e) => events.push(e));
  for (const f of frames) {
    const frame: Frame = typeof f === "string" ? { data: f } : { event: f.type, data: JSON.stringify(f) };
    decoder.push(frame);
  }
  if (opts.end !== false) decoder.end();
  return { events, decoder, response: (): Response => assembleResponse(events, "openai-responses") };
}

export const RESPONSE = { id: "resp_1", object: "response", model: "gpt-test" };
export const created: Wire = {
  type: "response.created",
  response: { ...RESPONSE, status: "in_progress", usage: null },
};
export const usage = {
  input_tokens: 1000,
  input_tokens_details: { cached_tokens: 800 },
  output_tokens: 300,
  output_tokens_details: { reasoning_tokens: 200 },
  total_tokens: 1300,
};
export const completed = (extra: object = {}): Wire => ({
  type: "response.completed",
  response: { ...RESPONSE, status: "completed", incomplete_details: null, usage, ...extra },
});
export const incomplete = (reason: string): Wire => ({
  type: "response.incomplete",
  response: { ...RESPONSE, status: "incomplete", incomplete_details: { reason }, usage },
});

export function message(
  id: string,
  outputIndex: number,
  text: string,
  kind: "output_text" | "refusal" = "output_text",
) {
  const part =
    kind === "refusal"
      ? { type: "refusal", refusal: "" }
      : { type: "output_text", text: "", annotations: [] };
  const donePart = kind === "refusal" ? { type: "refusal", refusal: text } : { ...part, text };
  const at = { item_id: id, output_index: outputIndex, content_index: 0 };
  const delta = kind === "refusal" ? "response.refusal.delta" : "response.output_text.delta";
  return [
    {
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
    },
    { type: "response.content_part.added", ...at, part },
    { type: delta, ...at, delta: text.slice(0, 3) },
    { type: delta, ...at, delta: text.slice(3) },
    { type: "response.content_part.done", ...at, part: donePart },
    {
      type: "response.output_item.done",
      output_index: outputIndex,
      item: { type: "message", id, role: "assistant", status: "completed", content: [donePart] },
    },
  ];
}

export function functionCall(id: string, callId: string, outputIndex: number, args: string) {
  const item = {
    type: "function_call",
    id,
    call_id: callId,
    name: "weather",
    arguments: "",
    status: "in_progress",
  };
  return [
    { type: "response.output_item.added", output_index: outputIndex, item },
    {
      type: "response.function_call_arguments.delta",
      item_id: id,
      output_index: outputIndex,
      delta: args.slice(0, 4),
    },
    {
      type: "response.function_call_arguments.delta",
      item_id: id,
      output_index: outputIndex,
      delta: args.slice(4),
    },
    {
      type: "response.function_call_arguments.done",
      item_id: id,
      output_index: outputIndex,
      arguments: args,
    },
    {
      type: "response.output_item.done",
      output_index: outputIndex,
      item: { ...item, arguments: args, status: "completed" },
    },
  ];
}
