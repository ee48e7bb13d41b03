import { describe, expect, it } from "vitest";
import { assembleResponse } from "../../../timeline/collect-response.js";
import type { Event } from "../../event.js";
import type { Response } from "../../response.js";
import type { Frame, StreamDecoder } from "../../scheme.js";
import { createOpenaiChatDecoder } from "./decoder.js";
import type { OpenaiChatDelta, OpenaiChatUsage } from "./wire.js";

/** A frame: an object is sent as its JSON, a string as it is. */
type Input = Frame | Record<string, unknown> | string;

function run(inputs: Input[], options: { end?: boolean } = {}) {
  const events: Event[] = [];
  const decoder: StreamDecoder = createOpenaiChatDecoder((event) => events.push(event));
  for (const input of inputs) decoder.push(toFrame(input));
  if (options.end ?? true) decoder.end();
  return { events, decoder, response: () => assemble(events) };
}

function toFrame(input: Input): Frame {
  if (typeof input === "string") return { data: input };
  if (typeof input.data === "string") return input as unknown as Frame;
  return { data: JSON.stringify(input) };
}

function assemble(events: Event[]): Response {
  return assembleResponse(events, "openai-chat");
}

function chunk(delta: OpenaiChatDelta, finishReason: string | null = null, extra: object = {}) {
  return {
    id: "chatcmpl-t",
    object: "chat.completion.chunk",
    model: "gpt-test",
    choices: [{ index: 0, delta, finish_reason: finishReason, ...extra }],
  };
}

function usageChunk(usage: OpenaiChatUsage) {
  return { id: "chatcmpl-t", object: "chat.completion.chunk", model: "gpt-test", choices: [], usage };
}

const text = (t: string) => chunk({ content: t });
const call = (index: number, args: string, id?: string, name?: string) =>
  chunk({
    tool_calls: [
      {
        index,
        ...(id !== undefined && { id, type: "function" as const }),
        function: { ...(name !== undefined && { name }), arguments: args },
      },
    ],
  });
const finish = (reason: string) => chunk({}, reason);

/** The events without pings, in a compact form that shows block structure. */
function shape(events: Event[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case "block_start":
        return `start ${e.index} ${e.blockType}${e.blockType === "tool_use" ? ` ${e.id} ${e.name}` : ""}`;
      case "block_delta":
        return `delta ${e.index} ${"text" in e.delta ? e.delta.text : "json" in e.delta ? e.delta.json : ""}`;
      case "block_stop":
        return `stop ${e.index}`;
      case "block_abort":
        return `abort ${e.index}`;
      case "status":
        return `status ${e.status}${e.stopReason ? ` ${e.stopReason}` : ""}`;
      default:
        return e.type;
    }
  });
}

describe("openai-chat decoder: blocks", () => {
  it("starts with the response id and model, and merges consecutive deltas of one kind", () => {
    const { events, decoder } = run([
      chunk({ role: "assistant", content: "" }),
      chunk({ reasoning_content: "Let me " }),
      chunk({ reasoning_content: "think." }),
      text("Hello"),
      text(" there"),
      finish("stop"),
      "[DONE]",
    ]);
    expect(events[0]).toEqual({
      type: "status",
      status: "started",
      responseId: "chatcmpl-t",
      model: "gpt-test",
    });
    expect(shape(events)).toEqual([
      "status started",
      "start 0 thinking",
      "delta 0 Let me ",
      "delta 0 think.",
      "stop 0",
      "start 1 text",
      "delta 1 Hello",
      "delta 1  there",
      "stop 1",
      "status completed end_turn",
    ]);
    expect(decoder.done).toBe(true);
  });

  it("reads Groq's `reasoning` field as thinking and skips empty pieces", () => {
    const r = run([
      chunk({ role: "assistant", content: "" }),
      chunk({ reasoning: "Hmm." }),
      chunk({ content: "", reasoning: "" }),
      text("Answer."),
      finish("stop"),
    ]).response();
    expect(r.items.map((i) => i.type)).toEqual(["reasoning", "message"]);
    expect(r.reasoning).toBe("Hmm.");
    expect(r.text).toBe("Answer.");
  });

  it("keeps interleaved parallel tool calls apart: the live one streams, the others are buffered", () => {
    const { events, response } = run([
      call(0, "", "call_a", "get_weather"),
      call(0, '{"city":'),
      call(1, "", "call_b", "get_time"),
      call(1, '{"zone":'),
      call(0, '"Tokyo"'),
      call(2, '{"q":', "call_c", "search"),
      call(1, '"JST"}'),
      call(0, "}"),
      call(2, '"x"}'),
      finish("tool_calls"),
      usageChunk({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 }),
      "[DONE]",
    ]);
    expect(shape(events)).toEqual([
      "status started",
      "start 0 tool_use call_a get_weather",
      'delta 0 {"city":',
      'delta 0 "Tokyo"',
      "delta 0 }",
      "stop 0",
      "start 1 tool_use call_b get_time",
      'delta 1 {"zone":"JST"}',
      "stop 1",
      "start 2 tool_use call_c search",
      'delta 2 {"q":"x"}',
      "stop 2",
      "usage",
      "status completed tool_use",
    ]);
    expect(response().toolCalls.map((t) => [t.id, t.arguments])).toEqual([
      ["call_a", { city: "Tokyo" }],
      ["call_b", { zone: "JST" }],
      ["call_c", { q: "x" }],
    ]);
  });

  it("closes a tool call when text follows it", () => {
    const r = run([call(0, "{}", "a", "f"), text("done"), finish("tool_calls")]).response();
    expect(r.items.map((i) => i.type)).toEqual(["tool_call", "message"]);
  });
});

describe("openai-chat decoder: stop reasons", () => {
  it.each([
    ["stop", "end_turn"],
    ["length", "max_tokens"],
    ["tool_calls", "tool_use"],
    ["function_call", "tool_use"],
    ["content_filter", "refusal"],
    ["eos", "end_turn"],
  ])("maps finish_reason %s to %s", (reason, expected) => {
    const r = run([text("x"), finish(reason), "[DONE]"]).response();
    expect(r.status).toBe("completed");
    expect(r.stopReason).toBe(expected);
    expect(r.rawStopReason).toBe(reason);
  });

  it("says tool_use when the response made tool calls although finish_reason is stop", () => {
    const r = run([call(0, "{}", "a", "f"), finish("stop"), "[DONE]"]).response();
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("stop");
  });

  it("keeps max_tokens when the output was cut inside a tool call", () => {
    const r = run([call(0, '{"a":', "a", "f"), finish("length"), "[DONE]"]).response();
    expect(r.stopReason).toBe("max_tokens");
    expect(r.toolCalls[0]?.parseError).toBeDefined();
  });

  it("reads vLLM's stop_reason string as a stop sequence", () => {
    const r = run([text("1, 2"), chunk({}, "stop", { stop_reason: ", 3" }), "[DONE]"]).response();
    expect(r.stopReason).toBe("stop_sequence");
    expect(r.rawStopReason).toBe("stop");
  });

  it("turns a refusal into a text block and the refusal stop reason", () => {
    const r = run([
      chunk({ role: "assistant", content: null, refusal: "" }),
      chunk({ refusal: "I'm sorry, " }),
      chunk({ refusal: "I can't help with that." }),
      finish("stop"),
      "[DONE]",
    ]).response();
    expect(r.text).toBe("I'm sorry, I can't help with that.");
    expect(r.items).toHaveLength(1);
    expect(r.stopReason).toBe("refusal");
    expect(r.rawStopReason).toBe("stop");
  });

  it("keeps the last non-null finish_reason and completes at the end of the body without [DONE]", () => {
    const r = run([
      text("a"),
      finish("length"),
      chunk({}, null),
      usageChunk({ prompt_tokens: 1 }),
    ]).response();
    expect(r.status).toBe("completed");
    expect(r.rawStopReason).toBe("length");
    expect(r.usage?.raw).toEqual({ prompt_tokens: 1 });
  });

  it("fails a response that ends with finish_reason error", () => {
    const r = run([text("a"), finish("error"), "[DONE]"]).response();
    expect(r.status).toBe("failed");
    expect(r.stopReason).toBe("error");
    expect(r.rawStopReason).toBe("error");
    expect(r.error?.kind).toBe("server");
  });

  it("accepts [DONE] with no finish reason as the end", () => {
    const r = run([text("a"), "[DONE]"]).response();
    expect(r.status).toBe("completed");
    expect(r.stopReason).toBe("end_turn");
    expect(r.rawStopReason).toBeNull();
  });
});

describe("openai-chat decoder: usage", () => {
  it("reports OpenAI usage with cache reads, cache writes and reasoning inside completion_tokens", () => {
    const raw = {
      prompt_tokens: 2000,
      completion_tokens: 300,
      total_tokens: 2300,
      prompt_tokens_details: { cached_tokens: 1536, cache_write_tokens: 64, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 256, audio_tokens: 0 },
    };
    const { events } = run([text("a"), finish("stop"), usageChunk(raw), "[DONE]"]);
    expect(events.find((e) => e.type === "usage")).toEqual({
      type: "usage",
      inputTokens: 2000,
      outputTokens: 300,
      totalTokens: 2300,
      cacheReadInputTokens: 1536,
      cacheCreationInputTokens: 64,
      reasoningTokens: 256,
      raw,
    });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens, on the chunk that carries the finish reason", () => {
    const raw = { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105, prompt_cache_hit_tokens: 64 };
    const r = run([text("a"), { ...finish("length"), usage: raw }]).response();
    expect(r.usage).toEqual({
      inputTokens: 100,
      outputTokens: 5,
      totalTokens: 105,
      cacheReadInputTokens: 64,
      raw,
    });
    expect(r.stopReason).toBe("max_tokens");
  });

  it("adds reasoning to the output where the server counts it outside completion_tokens (xAI)", () => {
    const raw = {
      prompt_tokens: 307,
      completion_tokens: 26,
      total_tokens: 560,
      completion_tokens_details: { reasoning_tokens: 227 },
    };
    const r = run([text("a"), finish("stop"), usageChunk(raw)]).response();
    expect(r.usage?.outputTokens).toBe(253);
    expect(r.usage?.reasoningTokens).toBe(227);
  });
});

describe("openai-chat decoder: failures", () => {
  const rateLimit = {
    message: "Rate limit reached for gpt-4o",
    type: "requests",
    param: null,
    code: "rate_limit_exceeded",
  };

  it("fails on an error chunk mid-stream, keeping the text that arrived", () => {
    const { events, decoder } = run([text("Once upon"), { error: rateLimit }, text("ignored")], {
      end: false,
    });
    expect(decoder.done).toBe(true);
    expect(shape(events)).toEqual([
      "status started",
      "start 0 text",
      "delta 0 Once upon",
      "abort 0",
      "error",
      "status failed error",
    ]);
    expect(events.find((e) => e.type === "error")).toEqual({
      type: "error",
      kind: "rate_limit",
      message: "Rate limit reached for gpt-4o",
      code: "rate_limit_exceeded",
      raw: rateLimit,
    });
    expect(assemble(events).text).toBe("Once upon");
  });

  it("reads Groq's `event: error` frame, with its status code", () => {
    const error = {
      message: "bad tool call",
      type: "invalid_request_error",
      code: "tool_use_failed",
      status_code: 400,
    };
    const r = run([
      chunk({ reasoning: "x" }),
      { event: "error", data: JSON.stringify({ error }) },
    ]).response();
    expect(r.error).toEqual({
      kind: "invalid_request",
      message: "bad tool call",
      code: "tool_use_failed",
      status: 400,
      raw: error,
    });
    expect(r.rawStopReason).toBeNull();
    expect(r.reasoning).toBe("x");
  });

  it("classifies an error by its type when the code is null", () => {
    const error = { message: "The server had an error", type: "server_error", param: null, code: null };
    const r = run([{ error }]).response();
    expect(r.error).toMatchObject({ kind: "server", code: "server_error" });
  });

  it("reports an `event: error` frame whose data is not JSON as a provider error", () => {
    const r = run([{ event: "error", data: "upstream overloaded" }]).response();
    expect(r.error).toMatchObject({ message: "upstream overloaded", raw: "upstream overloaded" });
    expect(r.status).toBe("failed");
  });

  it("reports malformed JSON as a stream error with an excerpt, and ignores what follows", () => {
    const bad = `{"id":"x","choices":[{"delta":{"content":"${"y".repeat(300)}`;
    const { events, decoder } = run([text("a"), bad, text("b"), "[DONE]"]);
    expect(decoder.done).toBe(true);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ kind: "stream", raw: bad });
    expect(error?.type === "error" && error.message).toMatch(
      /^malformed OpenAI Chat chunk: invalid JSON: \{"id":"x"/,
    );
    expect(error?.type === "error" && error.message.length).toBeLessThan(200);
    expect(events.at(-1)).toMatchObject({ type: "status", status: "failed", stopReason: "error" });
    expect(events.filter((e) => e.type === "status")).toHaveLength(2);
  });

  it.each([
    ["a chunk that is not an object", "[1,2]"],
    ["choices that are not an array", JSON.stringify({ choices: { index: 0 } })],
    ["content that is not a string", JSON.stringify(chunk({ content: 5 as unknown as string }))],
    ["a negative tool call index", JSON.stringify(call(-1, "{}", "a", "f"))],
    ["arguments that are not a string", JSON.stringify(call(0, 7 as unknown as string, "a", "f"))],
  ])("reports %s as a stream error", (_what, data) => {
    const r = run([data]).response();
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ kind: "stream", raw: data });
  });

  it("reports a body that ends with no finish reason as truncated", () => {
    const { events } = run([text("The answer is")]);
    expect(shape(events)).toEqual([
      "status started",
      "start 0 text",
      "delta 0 The answer is",
      "abort 0",
      "error",
      "status failed error",
    ]);
    expect(events.find((e) => e.type === "error")).toMatchObject({
      kind: "stream",
      message: "the stream ended before the response was complete",
    });
  });

  it("reports an empty body as truncated", () => {
    const r = run([]).response();
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("stream");
  });

  it("leaves a tool call cut off by a transport failure out of the response", () => {
    const events: Event[] = [];
    const decoder = createOpenaiChatDecoder((e) => events.push(e));
    decoder.push(toFrame(call(0, '{"a":', "a", "f")));
    decoder.fail({ kind: "network", message: "socket hang up" });
    decoder.end();
    const r = assemble(events);
    expect(r.status).toBe("failed");
    expect(r.toolCalls).toEqual([]);
    expect(r.error).toEqual({ kind: "network", message: "socket hang up" });
    expect(events.filter((e) => e.type === "status" && e.status !== "started")).toHaveLength(1);
  });

  it("ends cancelled on an abort", () => {
    const events: Event[] = [];
    const decoder = createOpenaiChatDecoder((e) => events.push(e));
    decoder.push(toFrame(text("a")));
    decoder.fail({ kind: "aborted", message: "the request was aborted" });
    expect(assemble(events).status).toBe("cancelled");
    expect(decoder.done).toBe(true);
  });
});
