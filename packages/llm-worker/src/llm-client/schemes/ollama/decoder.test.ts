import { describe, expect, it } from "vitest";
import { assembleResponse } from "../../../timeline/collect-response.js";
import type { Event } from "../../event.js";
import { createOllamaDecoder } from "./decoder.js";

const MODEL = "qwen3:8b";

/** A streamed line, as the server writes it. */
function line(message: Record<string, unknown>): string {
  return JSON.stringify({
    model: MODEL,
    created_at: "2025-08-20T13:47:53.398465Z",
    message: { role: "assistant", content: "", ...message },
    done: false,
  });
}

function doneLine(doneReason: string | undefined, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model: MODEL,
    created_at: "2025-08-20T13:47:53.473471Z",
    message: { role: "assistant", content: "" },
    ...(doneReason !== undefined && { done_reason: doneReason }),
    done: true,
    total_duration: 246778792,
    load_duration: 39831125,
    prompt_eval_count: 25,
    prompt_eval_duration: 18102375,
    eval_count: 9,
    eval_duration: 104431583,
    ...extra,
  });
}

/** Pushes the lines, then ends the body (unless told not to), and returns every event. */
function decode(lines: string[], options: { end?: boolean } = {}): Event[] {
  const events: Event[] = [];
  let next = 0;
  const decoder = createOllamaDecoder(
    (event) => events.push(event),
    () => `synth_${next++}`,
  );
  for (const data of lines) decoder.push({ data });
  if (options.end !== false) decoder.end();
  return events;
}

function collect(events: Event[]) {
  return assembleResponse(events, "ollama");
}

function finalStatus(events: Event[]) {
  const last = events.at(-1);
  if (last?.type !== "status") throw new Error(`last event is ${last?.type}`);
  return last;
}

describe("ollama decoder", () => {
  it("starts with the model, synthesizes a text block and ends with usage and the stop reason", () => {
    const events = decode([line({ content: "Hel" }), line({ content: "lo" }), doneLine("stop")]);
    expect(events).toEqual([
      { type: "status", status: "started", model: MODEL },
      { type: "block_start", index: 0, blockType: "text" },
      { type: "block_delta", index: 0, delta: { kind: "text", text: "Hel" } },
      { type: "block_delta", index: 0, delta: { kind: "text", text: "lo" } },
      {
        type: "usage",
        inputTokens: 25,
        outputTokens: 9,
        totalTokens: 34,
        raw: {
          prompt_eval_count: 25,
          eval_count: 9,
          total_duration: 246778792,
          load_duration: 39831125,
          prompt_eval_duration: 18102375,
          eval_duration: 104431583,
        },
      },
      { type: "block_stop", index: 0, blockType: "text" },
      { type: "status", status: "completed", stopReason: "end_turn", rawStopReason: "stop" },
    ]);
  });

  it("cuts thinking, text and each tool call into blocks of their own, in order", () => {
    const events = decode([
      line({ thinking: "Let me " }),
      line({ thinking: "check." }),
      line({ thinking: "", content: "Checking " }),
      line({ content: "now." }),
      line({
        tool_calls: [
          { id: "call_a", function: { index: 0, name: "get_weather", arguments: { city: "Tokyo" } } },
          { function: { index: 1, name: "get_time", arguments: {} } },
        ],
      }),
      doneLine("stop"),
    ]);
    const starts = events.filter((e) => e.type === "block_start");
    expect(starts).toEqual([
      { type: "block_start", index: 0, blockType: "thinking" },
      { type: "block_start", index: 1, blockType: "text" },
      { type: "block_start", index: 2, blockType: "tool_use", id: "call_a", name: "get_weather" },
      {
        type: "block_start",
        index: 3,
        blockType: "tool_use",
        id: "synth_0",
        name: "get_time",
        synthesizedId: true,
      },
    ]);
    const r = collect(events);
    expect(r.reasoning).toBe("Let me check.");
    expect(r.text).toBe("Checking now.");
    expect(r.toolCalls).toEqual([
      { id: "call_a", name: "get_weather", argumentsText: '{"city":"Tokyo"}', arguments: { city: "Tokyo" } },
      { id: "synth_0", name: "get_time", argumentsText: "{}", arguments: {}, synthesizedId: true },
    ]);
    // Ollama says "stop" for a turn that ends in tool calls; the unified reason must say tool_use.
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("stop");
  });

  it("reads thinking, content and tool calls of one line in that order", () => {
    const events = decode([
      line({
        thinking: "hmm",
        content: "Sure.",
        tool_calls: [{ function: { name: "ls", arguments: { path: "." } } }],
      }),
      doneLine("stop"),
    ]);
    expect(collect(events).items.map((item) => item.type)).toEqual(["reasoning", "message", "tool_call"]);
  });

  it("takes tool call arguments sent as a JSON string as they are, and missing ones as none", () => {
    const r = collect(
      decode([
        line({ tool_calls: [{ function: { name: "a", arguments: '{"x":1}' } }] }),
        line({ tool_calls: [{ function: { name: "b" } }] }),
        doneLine("stop"),
      ]),
    );
    expect(r.toolCalls.map((call) => [call.name, call.argumentsText, call.arguments])).toEqual([
      ["a", '{"x":1}', { x: 1 }],
      ["b", "", {}],
    ]);
  });

  it("handles a tool call and usage that arrive on the done line itself", () => {
    const done = JSON.parse(doneLine("stop")) as Record<string, unknown>;
    done.message = {
      role: "assistant",
      content: "",
      tool_calls: [{ function: { name: "f", arguments: {} } }],
    };
    const r = collect(decode([JSON.stringify(done)]));
    expect(r.toolCalls.map((call) => call.name)).toEqual(["f"]);
    expect(r.stopReason).toBe("tool_use");
    expect(r.usage?.inputTokens).toBe(25);
  });

  it.each([
    ["stop", "end_turn"],
    ["length", "max_tokens"],
    ["load", "end_turn"],
    ["unload", "end_turn"],
    ["something_new", "end_turn"],
  ])("maps done_reason %s to %s", (doneReason, stopReason) => {
    const status = finalStatus(decode([line({ content: "x" }), doneLine(doneReason)]));
    expect(status).toEqual({ type: "status", status: "completed", stopReason, rawStopReason: doneReason });
  });

  it("keeps max_tokens when the limit was hit after a tool call", () => {
    const events = decode([
      line({ tool_calls: [{ function: { name: "f", arguments: {} } }] }),
      line({ content: "and then" }),
      doneLine("length"),
    ]);
    expect(finalStatus(events).stopReason).toBe("max_tokens");
  });

  it("reports a missing done_reason as null", () => {
    const status = finalStatus(decode([line({ content: "x" }), doneLine(undefined)]));
    expect(status).toEqual({
      type: "status",
      status: "completed",
      stopReason: "end_turn",
      rawStopReason: null,
    });
  });

  it("has no refusal signal: a refused answer is an ordinary stop", () => {
    const r = collect(decode([line({ content: "I can't help with that." }), doneLine("stop")]));
    expect(r.stopReason).toBe("end_turn");
  });

  it("sends no usage event when the done line carries no counts or durations", () => {
    const events = decode([
      line({ content: "x" }),
      JSON.stringify({
        model: MODEL,
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: "stop",
      }),
    ]);
    expect(events.some((e) => e.type === "usage")).toBe(false);
    expect(collect(events).usage).toBeUndefined();
  });

  it("normalizes usage: no cache or reasoning breakdown exists, absent counts stay absent", () => {
    const events = decode([
      line({ thinking: "t" }),
      line({ content: "x" }),
      JSON.stringify({
        model: MODEL,
        message: { role: "assistant", content: "" },
        done: true,
        eval_count: 7,
      }),
    ]);
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toEqual({ type: "usage", outputTokens: 7, raw: { eval_count: 7 } });
  });

  it("fails the stream on an error line mid-stream, aborting the open block", () => {
    const error = "an error was encountered while running the model: unexpected EOF";
    const events = decode([line({ content: "partial" }), JSON.stringify({ error }), doneLine("stop")]);
    expect(events.slice(-3)).toEqual([
      { type: "block_abort", index: 0, blockType: "text", reason: error },
      { type: "error", kind: "server", message: error, raw: error },
      { type: "status", status: "failed", stopReason: "error", rawStopReason: null },
    ]);
    const r = collect(events);
    expect(r.text).toBe("partial");
    expect(r.error?.raw).toBe(error);
  });

  it("classifies an error line by its message", () => {
    const message = "input length exceeds the context length";
    const events = decode([JSON.stringify({ error: message })]);
    expect(events).toContainEqual({ type: "error", kind: "context_too_long", message, raw: message });
    expect(finalStatus(events).status).toBe("failed");
  });

  it("keeps a non-string error value as raw and still gives a message", () => {
    const events = decode([JSON.stringify({ error: { message: "boom" } })]);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ message: '{"message":"boom"}', raw: { message: "boom" } });
  });

  it.each([
    ["invalid JSON", '{"model":"qwen3:8b","message":{"content":"x"', "invalid JSON"],
    ["a JSON array", "[1,2]", "not a JSON object"],
    ["an object of another shape", '{"status":"pulling manifest"}', "not a chat chunk"],
    ["a message that is not an object", '{"message":"hi","done":false}', "not a chat chunk"],
    ["a done flag that is not a boolean", '{"message":{"content":"x"},"done":"yes"}', "not a chat chunk"],
    ["tool_calls that is not an array", '{"message":{"tool_calls":{}},"done":false}', "not an array"],
    ["a tool call without a name", '{"message":{"tool_calls":[{"function":{}}]},"done":false}', "tool call"],
    [
      "tool call arguments of the wrong type",
      '{"message":{"tool_calls":[{"function":{"name":"f","arguments":3}}]},"done":false}',
      "tool call",
    ],
  ])("fails the stream on %s", (_name, data, words) => {
    const events = decode([line({ content: "ok" }), data, doneLine("stop")]);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ type: "error", kind: "stream", raw: data });
    expect(error?.type === "error" && error.message).toContain(words);
    expect(error?.type === "error" && error.message).toContain(data.slice(0, 20));
    expect(finalStatus(events)).toEqual({
      type: "status",
      status: "failed",
      stopReason: "error",
      rawStopReason: null,
    });
    expect(events.filter((e) => e.type === "status" && e.status !== "started")).toHaveLength(1);
  });

  it("shortens the excerpt of a long malformed line", () => {
    const data = `{"broken": "${"x".repeat(500)}`;
    const error = decode([data]).find((e) => e.type === "error");
    expect(error?.type === "error" && error.message.length).toBeLessThan(200);
  });

  it("reports a body that ends without the done line as truncated", () => {
    const events = decode([line({ content: "The answer is" })]);
    expect(events.slice(-3)).toEqual([
      {
        type: "block_abort",
        index: 0,
        blockType: "text",
        reason: "the stream ended before the response was complete",
      },
      { type: "error", kind: "stream", message: "the stream ended before the response was complete" },
      { type: "status", status: "failed", stopReason: "error", rawStopReason: null },
    ]);
  });

  it("reports an empty body as truncated", () => {
    expect(decode([])).toEqual([
      { type: "status", status: "started" },
      { type: "error", kind: "stream", message: "the stream ended before the response was complete" },
      { type: "status", status: "failed", stopReason: "error", rawStopReason: null },
    ]);
  });

  it("is done after the done line and ignores what follows", () => {
    const events: Event[] = [];
    const decoder = createOllamaDecoder((event) => events.push(event));
    decoder.push({ data: line({ content: "a" }) });
    expect(decoder.done).toBe(false);
    decoder.push({ data: doneLine("stop") });
    expect(decoder.done).toBe(true);
    const count = events.length;
    decoder.push({ data: line({ content: "late" }) });
    decoder.push({ data: "not json" });
    decoder.end();
    decoder.fail({ kind: "network", message: "reset" });
    expect(events).toHaveLength(count);
  });

  it("passes a transport failure on: an abort cancels, anything else fails", () => {
    const run = (kind: "aborted" | "network") => {
      const events: Event[] = [];
      const decoder = createOllamaDecoder((event) => events.push(event));
      decoder.push({ data: line({ thinking: "t" }) });
      decoder.fail({ kind, message: "gone" });
      expect(decoder.done).toBe(true);
      return events;
    };
    const aborted = run("aborted");
    expect(aborted).toContainEqual({ type: "block_abort", index: 0, blockType: "thinking", reason: "gone" });
    expect(finalStatus(aborted)).toEqual({
      type: "status",
      status: "cancelled",
      stopReason: "error",
      rawStopReason: null,
    });
    expect(finalStatus(run("network")).status).toBe("failed");
  });

  it("makes a different id for every call the wire sent without one", () => {
    const events: Event[] = [];
    const decoder = createOllamaDecoder((event) => events.push(event));
    const call = { function: { name: "f", arguments: {} } };
    decoder.push({ data: line({ tool_calls: [call, call] }) });
    decoder.push({ data: doneLine("stop") });
    const ids = events.flatMap((e) => (e.type === "block_start" && e.blockType === "tool_use" ? [e.id] : []));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f-]{36}$/);
  });
});
