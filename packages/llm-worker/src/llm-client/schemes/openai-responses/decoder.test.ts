import { describe, expect, it } from "vitest";
import {
  completed,
  created,
  decode,
  functionCall,
  incomplete,
  message,
  usage,
} from "../../../../test/support/openai-responses-kit.js";

describe("openai-responses decoder", () => {
  it("starts with the response id and model, and ends with one final status", () => {
    const { events } = decode([created, ...message("msg_1", 0, "Hello!"), completed()]);
    expect(events[0]).toEqual({ type: "status", status: "started", responseId: "resp_1", model: "gpt-test" });
    expect(events.filter((e) => e.type === "status")).toHaveLength(2);
    expect(events.at(-1)).toEqual({
      type: "status",
      status: "completed",
      stopReason: "end_turn",
      rawStopReason: "completed",
    });
  });

  it("makes one text block per content part, carrying the message item id", () => {
    const { response } = decode([created, ...message("msg_1", 0, "Hello there"), completed()]);
    expect(response().items).toEqual([
      {
        type: "message",
        role: "assistant",
        text: "Hello there",
        itemId: "msg_1",
        origin: "openai-responses",
      },
    ]);
  });

  it("maps completed with function calls to tool_use, keeping call_id and item id apart", () => {
    const { response } = decode([
      created,
      ...functionCall("fc_1", "call_1", 0, '{"city":"Rome"}'),
      completed(),
    ]);
    const r = response();
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("completed");
    expect(r.toolCalls).toEqual([
      { id: "call_1", name: "weather", argumentsText: '{"city":"Rome"}', arguments: { city: "Rome" } },
    ]);
    expect(r.items[0]).toMatchObject({ type: "tool_call", callId: "call_1", itemId: "fc_1" });
  });

  it("maps incomplete (max_output_tokens) to max_tokens and passes incomplete_details on", () => {
    const { response } = decode([
      created,
      ...message("msg_1", 0, "Cut off"),
      incomplete("max_output_tokens"),
    ]);
    const r = response();
    expect(r.status).toBe("completed");
    expect(r.stopReason).toBe("max_tokens");
    expect(r.rawStopReason).toBe("incomplete");
    expect(r.incompleteDetails).toEqual({ reason: "max_output_tokens" });
    expect(r.text).toBe("Cut off");
  });

  it("maps incomplete (content_filter) to refusal", () => {
    const r = decode([created, incomplete("content_filter")]).response();
    expect(r.stopReason).toBe("refusal");
    expect(r.rawStopReason).toBe("incomplete");
  });

  it("treats a refusal content part as a text block and the answer as a refusal", () => {
    const r = decode([
      created,
      ...message("msg_1", 0, "I can't help with that.", "refusal"),
      completed(),
    ]).response();
    expect(r.text).toBe("I can't help with that.");
    expect(r.stopReason).toBe("refusal");
    expect(r.rawStopReason).toBe("completed");
  });

  it("normalizes usage: input includes cached tokens, output includes reasoning; raw is unchanged", () => {
    const withWrites = { ...usage, input_tokens_details: { cached_tokens: 800, cache_write_tokens: 150 } };
    const { events } = decode([created, completed({ usage: withWrites })]);
    expect(events.find((e) => e.type === "usage")).toEqual({
      type: "usage",
      inputTokens: 1000,
      outputTokens: 300,
      totalTokens: 1300,
      cacheReadInputTokens: 800,
      cacheCreationInputTokens: 150,
      reasoningTokens: 200,
      raw: withWrites,
    });
  });

  it("makes a thinking block per reasoning item with summary parts and encrypted content from the done item", () => {
    const at = { item_id: "rs_1", output_index: 0 };
    const { events, response } = decode([
      created,
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "early" },
      },
      {
        type: "response.reasoning_summary_part.added",
        ...at,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta: "**Plan**" },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta: " first." },
      {
        type: "response.reasoning_summary_part.added",
        ...at,
        summary_index: 1,
        part: { type: "summary_text", text: "" },
      },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 1, delta: "**Then**" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "reasoning",
          id: "rs_1",
          summary: [
            { type: "summary_text", text: "**Plan** first." },
            { type: "summary_text", text: "**Then**" },
          ],
          encrypted_content: "final",
        },
      },
      ...message("msg_2", 1, "Answer"),
      completed(),
    ]);
    expect(events.find((e) => e.type === "block_stop")).toEqual({
      type: "block_stop",
      index: 0,
      blockType: "thinking",
      providerData: { itemId: "rs_1", summary: ["**Plan** first.", "**Then**"], encryptedContent: "final" },
    });
    const r = response();
    expect(r.reasoning).toBe("**Plan** first.**Then**");
    expect(r.items.map((i) => i.type)).toEqual(["reasoning", "message"]);
  });

  it("gives encryptedContent null when the reasoning item has none", () => {
    const r = decode([
      created,
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [] },
      },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [] },
      },
      completed(),
    ]).response();
    expect(r.items).toEqual([
      {
        type: "reasoning",
        text: "",
        itemId: "rs_1",
        summary: [],
        encryptedContent: null,
        origin: "openai-responses",
      },
    ]);
  });

  it("makes built-in tool items server_tool_use blocks that keep the final item", () => {
    const done = {
      type: "web_search_call",
      id: "ws_1",
      status: "completed",
      action: { type: "search", query: "weather Rome" },
    };
    const r = decode([
      created,
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "web_search_call", id: "ws_1", status: "in_progress" },
      },
      { type: "response.web_search_call.searching", item_id: "ws_1", output_index: 0 },
      { type: "response.output_item.done", output_index: 0, item: done },
      ...message("msg_1", 1, "It is sunny."),
      completed(),
    ]).response();
    expect(r.items[0]).toEqual({
      type: "server_tool",
      role: "call",
      id: "ws_1",
      name: "web_search_call",
      arguments: "",
      payload: done,
      origin: "openai-responses",
    });
    expect(r.toolCalls).toEqual([]);
    expect(r.stopReason).toBe("end_turn");
  });

  it("takes text and arguments from the done events when no deltas came", () => {
    const r = decode([
      created,
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "message",
          id: "msg_1",
          role: "assistant",
          content: [{ type: "output_text", text: "Whole" }],
        },
      },
      {
        type: "response.output_item.added",
        output_index: 1,
        item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "weather", arguments: "" },
      },
      {
        type: "response.function_call_arguments.done",
        item_id: "fc_1",
        output_index: 1,
        arguments: '{"a":1}',
      },
      {
        type: "response.output_item.done",
        output_index: 1,
        item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "weather", arguments: '{"a":1}' },
      },
      completed(),
    ]).response();
    expect(r.text).toBe("Whole");
    expect(r.toolCalls.map((t) => t.arguments)).toEqual([{ a: 1 }]);
  });

  it("shows the summary of a reasoning item that arrived whole, and takes ids from the done item", () => {
    const { response } = decode([
      created,
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "reasoning",
          id: "rs_9",
          summary: [{ type: "summary_text", text: "Thought about it." }],
          encrypted_content: "enc",
        },
      },
      {
        type: "response.output_item.done",
        output_index: 1,
        item: { type: "function_call", id: "fc_9", call_id: "call_9", name: "f", arguments: "{}" },
      },
      completed(),
    ]);
    const r = response();
    expect(r.items).toEqual([
      {
        type: "reasoning",
        text: "Thought about it.",
        itemId: "rs_9",
        summary: ["Thought about it."],
        encryptedContent: "enc",
        origin: "openai-responses",
      },
      {
        type: "tool_call",
        callId: "call_9",
        name: "f",
        arguments: "{}",
        itemId: "fc_9",
        origin: "openai-responses",
      },
    ]);
    expect(r.stopReason).toBe("tool_use");
  });

  it("synthesizes the reasoning block when summary deltas come without their item", () => {
    const r = decode([
      created,
      {
        type: "response.reasoning_summary_text.delta",
        item_id: "rs_x",
        output_index: 0,
        summary_index: 0,
        delta: "hmm",
      },
      completed(),
    ]).response();
    expect(r.items).toEqual([
      {
        type: "reasoning",
        text: "hmm",
        itemId: "rs_x",
        summary: ["hmm"],
        encryptedContent: null,
        origin: "openai-responses",
      },
    ]);
  });
});
