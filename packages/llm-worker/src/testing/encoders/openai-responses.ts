import type {
  WireOutputItem,
  WireOutputMessage,
  WireOutputReasoning,
  WireResponse,
  WireUsage,
} from "../../llm-client/schemes/openai-responses/wire.js";
import {
  pieces,
  type ScriptedBlock,
  type ScriptedResponse,
  type ScriptedUsage,
  stopReasonOf,
} from "../script.js";

/** A fixed creation time, so that encoded bodies are reproducible byte for byte. */
const CREATED_AT = 1_750_000_000;

/**
 * Renders a scripted response as the body the OpenAI Responses API streams: `response.created` /
 * `in_progress`, then per block an output item with its part events and deltas (`pieces` of
 * `pieceSize`), then the terminal event with the usage and the full output.
 *
 * Stop reasons: `end_turn`, `tool_use` and `stop_sequence` end with `response.completed` (this API
 * has no stop sequences, so `stop_sequence` decodes as `end_turn`); `max_tokens` and `refusal` with
 * `response.incomplete` (`max_output_tokens` / `content_filter`); `error` with `response.failed`.
 * A thinking block's `signature` becomes the reasoning item's `encrypted_content`. Without scripted
 * usage the terminal response carries `usage: null`.
 */
export function encodeOpenaiResponses(response: ScriptedResponse): string {
  const size = response.pieceSize ?? 8;
  const responseId = response.responseId ?? "resp_mock0001";
  const model = response.model ?? "gpt-mock-1";
  // Item ids share the response id's suffix, as the real API's do.
  const suffix = responseId.startsWith("resp_") ? responseId.slice("resp_".length) : responseId;
  const chunks: string[] = [];
  let sequence = 0;
  const send = (event: { type: string; [key: string]: unknown }): void => {
    chunks.push(
      `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`,
    );
  };

  const shell = (status: WireResponse["status"], output: WireOutputItem[], extra: object = {}) => ({
    id: responseId,
    object: "response",
    created_at: CREATED_AT,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: null,
    metadata: {},
    ...extra,
  });

  send({ type: "response.created", response: shell("in_progress", []) });
  send({ type: "response.in_progress", response: shell("in_progress", []) });

  const output: WireOutputItem[] = [];
  response.blocks.forEach((block, outputIndex) => {
    const id = `${itemPrefix(block)}_${suffix}${String(outputIndex).padStart(4, "0")}`;
    output.push(encodeItem(block, id, outputIndex, size, send));
  });

  const stopReason = stopReasonOf(response);
  const usage = response.usage ? wireUsage(response.usage) : null;
  if (stopReason === "error") {
    const error = { code: "server_error", message: "The model failed to generate a response." };
    send({ type: "response.failed", response: shell("failed", output, { usage, error }) });
  } else if (stopReason === "max_tokens" || stopReason === "refusal") {
    const reason = stopReason === "max_tokens" ? "max_output_tokens" : "content_filter";
    send({
      type: "response.incomplete",
      response: shell("incomplete", output, { usage, incomplete_details: { reason } }),
    });
  } else {
    send({ type: "response.completed", response: shell("completed", output, { usage }) });
  }
  return chunks.join("");
}

type Send = (event: { type: string; [key: string]: unknown }) => void;

function itemPrefix(block: ScriptedBlock): string {
  if (block.type === "text") return "msg";
  if (block.type === "thinking") return "rs";
  return "fc";
}

/** Streams one output item and returns it as `output_item.done` carries it. */
function encodeItem(
  block: ScriptedBlock,
  id: string,
  outputIndex: number,
  size: number,
  send: Send,
): WireOutputItem {
  const at = { output_index: outputIndex };
  switch (block.type) {
    case "text": {
      const added: WireOutputMessage = {
        type: "message",
        id,
        status: "in_progress",
        role: "assistant",
        content: [],
      };
      send({ type: "response.output_item.added", ...at, item: added });
      const part = { item_id: id, ...at, content_index: 0 };
      send({
        type: "response.content_part.added",
        ...part,
        part: { type: "output_text", annotations: [], logprobs: [], text: "" },
      });
      for (const delta of pieces(block.text, size)) {
        if (delta !== "") send({ type: "response.output_text.delta", ...part, delta, logprobs: [] });
      }
      send({ type: "response.output_text.done", ...part, text: block.text, logprobs: [] });
      const done = { type: "output_text" as const, annotations: [], logprobs: [], text: block.text };
      send({ type: "response.content_part.done", ...part, part: done });
      const item: WireOutputMessage = { ...added, status: "completed", content: [done] };
      send({ type: "response.output_item.done", ...at, item });
      return item;
    }
    case "thinking": {
      const encrypted = block.signature ?? null;
      const added: WireOutputReasoning = { type: "reasoning", id, summary: [], encrypted_content: encrypted };
      send({ type: "response.output_item.added", ...at, item: added });
      const summary = block.text === "" ? [] : [{ type: "summary_text" as const, text: block.text }];
      if (summary.length > 0) {
        const part = { item_id: id, ...at, summary_index: 0 };
        send({
          type: "response.reasoning_summary_part.added",
          ...part,
          part: { type: "summary_text", text: "" },
        });
        for (const delta of pieces(block.text, size)) {
          send({ type: "response.reasoning_summary_text.delta", ...part, delta });
        }
        send({ type: "response.reasoning_summary_text.done", ...part, text: block.text });
        send({ type: "response.reasoning_summary_part.done", ...part, part: summary[0] });
      }
      const item: WireOutputReasoning = { ...added, summary };
      send({ type: "response.output_item.done", ...at, item });
      return item;
    }
    case "tool_call": {
      const callId = block.id ?? `call_${id.slice("fc_".length)}`;
      const args = JSON.stringify(block.arguments ?? {});
      const added = {
        type: "function_call",
        id,
        status: "in_progress",
        arguments: "",
        call_id: callId,
        name: block.name,
      };
      send({ type: "response.output_item.added", ...at, item: added });
      for (const delta of pieces(args, size)) {
        send({ type: "response.function_call_arguments.delta", item_id: id, ...at, delta });
      }
      send({ type: "response.function_call_arguments.done", item_id: id, ...at, arguments: args });
      const item = { ...added, status: "completed", arguments: args };
      send({ type: "response.output_item.done", ...at, item });
      return item;
    }
  }
}

function wireUsage(usage: ScriptedUsage): WireUsage {
  const details: { cached_tokens: number; cache_write_tokens?: number } = {
    cached_tokens: usage.cacheReadInputTokens ?? 0,
  };
  if (usage.cacheCreationInputTokens !== undefined)
    details.cache_write_tokens = usage.cacheCreationInputTokens;
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: details,
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
