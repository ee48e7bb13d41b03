import { describe, expect, it } from "vitest";
import {
  blockStop,
  events,
  messageDelta,
  messageStop,
  response,
  sse,
  start,
  textDelta,
  textResponse,
  textStart,
} from "../../../../test/support/anthropic-decoder-streams.js";
import type { Event } from "../../event.js";
import { createAnthropicDecoder } from "./decoder.js";

describe("anthropic decoder: stop reasons", () => {
  it.each([
    ["end_turn", "end_turn"],
    ["max_tokens", "max_tokens"],
    ["stop_sequence", "stop_sequence"],
    ["tool_use", "tool_use"],
    ["refusal", "refusal"],
    ["pause_turn", "pause_turn"],
    ["model_context_window_exceeded", "max_tokens"],
    ["a_reason_added_later", "end_turn"],
  ])("maps %s to %s and keeps the raw value", async (raw, unified) => {
    const r = await response(textResponse(raw));
    expect(r.status).toBe("completed");
    expect(r.stopReason).toBe(unified);
    expect(r.rawStopReason).toBe(raw);
  });

  it("ends with end_turn and a null raw reason when message_stop comes without one", async () => {
    const r = await response(sse(start(), textStart(0), textDelta(0, "Hi"), blockStop(0), messageStop));
    expect(r).toMatchObject({ status: "completed", stopReason: "end_turn", rawStopReason: null, text: "Hi" });
  });

  it("reports tool_use when the response has client tool calls, whatever the wire says", async () => {
    const r = await response(
      sse(
        start(),
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "t1", name: "f", input: {} },
        },
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: '{"a":1}' },
        },
        blockStop(0),
        messageDelta("end_turn"),
        messageStop,
      ),
    );
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("end_turn");
    expect(r.toolCalls).toEqual([{ id: "t1", name: "f", argumentsText: '{"a":1}', arguments: { a: 1 } }]);
  });

  it("keeps a refusal's partial text and reports refusal", async () => {
    const r = await response(
      sse(start(), textStart(0), textDelta(0, "I can"), blockStop(0), messageDelta("refusal"), messageStop),
    );
    expect(r).toMatchObject({
      status: "completed",
      stopReason: "refusal",
      rawStopReason: "refusal",
      text: "I can",
    });
  });

  it("reports max_tokens for an answer cut off inside a tool call", async () => {
    const r = await response(
      sse(
        start(),
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "t1", name: "f", input: {} },
        },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"a":' } },
        blockStop(0),
        messageDelta("max_tokens"),
        messageStop,
      ),
    );
    expect(r.stopReason).toBe("max_tokens");
    expect(r.toolCalls[0]?.parseError).toBeDefined();
  });
});

describe("anthropic decoder: usage", () => {
  it("counts cache reads and writes into inputTokens and overlays message_delta's non-null counts", async () => {
    const startUsage = {
      input_tokens: 10,
      cache_creation_input_tokens: 50,
      cache_read_input_tokens: 100,
      output_tokens: 1,
      service_tier: "standard",
    };
    const deltaUsage = {
      input_tokens: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: 120,
      output_tokens: 30,
      output_tokens_details: { thinking_tokens: 12 },
    };
    const all = await events(
      sse(
        start(startUsage),
        textStart(0),
        textDelta(0, "x"),
        blockStop(0),
        messageDelta("end_turn", deltaUsage),
        messageStop,
      ),
    );
    const usages = all.filter((e) => e.type === "usage");
    expect(usages).toHaveLength(2);
    expect(usages[0]).toEqual({
      type: "usage",
      inputTokens: 160,
      outputTokens: 1,
      totalTokens: 161,
      cacheReadInputTokens: 100,
      cacheCreationInputTokens: 50,
      raw: startUsage,
    });
    expect(usages[1]).toEqual({
      type: "usage",
      inputTokens: 180,
      outputTokens: 30,
      totalTokens: 210,
      cacheReadInputTokens: 120,
      cacheCreationInputTokens: 50,
      reasoningTokens: 12,
      raw: {
        input_tokens: 10,
        cache_creation_input_tokens: 50,
        cache_read_input_tokens: 120,
        output_tokens: 30,
        service_tier: "standard",
        output_tokens_details: { thinking_tokens: 12 },
      },
    });
  });
});

describe("anthropic decoder: errors", () => {
  it("turns an error event mid-stream into an error with the provider's payload and a failed status", async () => {
    const error = { type: "overloaded_error", message: "Overloaded" };
    const all = await events(
      sse(start(), textStart(0), textDelta(0, "Half an ans"), { type: "error", error, request_id: "req_9" }),
    );
    expect(all.slice(-3)).toEqual([
      { type: "block_abort", index: 0, blockType: "text", reason: "Overloaded" },
      {
        type: "error",
        kind: "overloaded",
        message: "Overloaded",
        code: "overloaded_error",
        requestId: "req_9",
        raw: error,
      },
      { type: "status", status: "failed", stopReason: "error", rawStopReason: null },
    ]);
    const r = await response(sse(start(), textStart(0), textDelta(0, "Half"), { type: "error", error }));
    expect(r.text).toBe("Half");
    expect(r.error?.raw).toEqual(error);
  });

  it("classifies the error type with errorKindFromCode", async () => {
    const r = await response(
      sse(start(), { type: "error", error: { type: "rate_limit_error", message: "Slow down" } }),
    );
    expect(r.error).toMatchObject({ kind: "rate_limit", message: "Slow down", code: "rate_limit_error" });
  });

  it("fails the stream on malformed JSON, with an excerpt and the data", async () => {
    const bad = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"';
    const all = await events(sse(start(), textStart(0), bad, blockStop(0), messageStop));
    const error = all.find((e) => e.type === "error");
    expect(error).toMatchObject({ kind: "stream", raw: bad });
    expect(error?.type === "error" && error.message).toContain("invalid JSON");
    expect(error?.type === "error" && error.message).toContain('{"type":"content_block_delta"');
    expect(all.at(-1)).toEqual({
      type: "status",
      status: "failed",
      stopReason: "error",
      rawStopReason: null,
    });
    expect(all.filter((e) => e.type === "status" && e.status !== "started")).toHaveLength(1);
  });

  it.each([
    ["an event without a type", '{"index":0}'],
    ["a delta for a block that is not open", JSON.stringify(textDelta(3, "x"))],
    [
      "a delta that does not fit the block",
      JSON.stringify({
        type: "content_block_delta",
        index: 0,
        delta: { type: "thinking_delta", thinking: "x" },
      }),
    ],
    [
      "a text delta without text",
      JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta" } }),
    ],
    [
      "a tool_use block without an id",
      JSON.stringify({ type: "content_block_start", index: 1, content_block: { type: "tool_use" } }),
    ],
  ])("fails the stream on %s", async (_what, frame) => {
    const r = await response(
      sse(start(), textStart(0), frame, blockStop(0), messageDelta("end_turn"), messageStop),
    );
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ kind: "stream", raw: frame });
  });

  it("reports a stream that ends before message_stop as truncated", async () => {
    const r = await response(
      sse(start(), textStart(0), textDelta(0, "Hel"), blockStop(0), messageDelta("end_turn")),
    );
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({
      kind: "stream",
      message: "the stream ended before the response was complete",
    });
    expect(r.rawStopReason).toBe("end_turn");
    expect(r.text).toBe("Hel");
  });

  it("passes a transport failure on; an abort cancels", () => {
    const out: Event[] = [];
    const decoder = createAnthropicDecoder((e) => out.push(e));
    decoder.push({ event: "message_start", data: JSON.stringify(start()) });
    decoder.fail({ kind: "aborted", message: "the request was aborted" });
    expect(decoder.done).toBe(true);
    expect(out.at(-1)).toEqual({
      type: "status",
      status: "cancelled",
      stopReason: "error",
      rawStopReason: null,
    });
  });
});

describe("anthropic decoder: stream framing", () => {
  it("starts with status started carrying the id and model, and ignores a ping before it", async () => {
    const all = await events(
      sse({ type: "ping" }, start(), textStart(0), { type: "ping" }, blockStop(0), messageStop),
    );
    expect(all[0]).toEqual({ type: "status", status: "started", responseId: "msg_1", model: "claude-x" });
    expect(all.filter((e) => e.type === "ping")).toHaveLength(1);
  });

  it("accepts [DONE] and ignores everything after message_stop", () => {
    const out: Event[] = [];
    const decoder = createAnthropicDecoder((e) => out.push(e));
    for (const frame of [
      start(),
      textStart(0),
      textDelta(0, "a"),
      blockStop(0),
      messageDelta("end_turn"),
      messageStop,
    ])
      decoder.push({ data: JSON.stringify(frame) });
    expect(decoder.done).toBe(true);
    const count = out.length;
    decoder.push({ data: "[DONE]" });
    decoder.push({ data: JSON.stringify(textStart(1)) });
    decoder.end();
    expect(out).toHaveLength(count);
    expect(out.at(-1)).toMatchObject({ type: "status", status: "completed" });
  });

  it("ignores a [DONE] that comes early and unknown event and delta types", async () => {
    const r = await response(
      sse(
        start(),
        "[DONE]",
        { type: "some_future_event", x: 1 },
        textStart(0),
        { type: "content_block_delta", index: 0, delta: { type: "some_future_delta", x: 1 } },
        textDelta(0, "ok"),
        blockStop(0),
        messageDelta("end_turn"),
        messageStop,
      ),
    );
    expect(r).toMatchObject({ status: "completed", text: "ok" });
  });
});
