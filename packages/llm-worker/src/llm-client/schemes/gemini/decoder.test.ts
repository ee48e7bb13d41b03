import { describe, expect, it } from "vitest";
import { assembleResponse, collectResponse } from "../../../timeline/collect-response.js";
import { decodeStream } from "../../decode.js";
import type { Event, StatusEvent } from "../../event.js";
import type { Response } from "../../response.js";
import { geminiScheme } from "../index.js";
import { GeminiDecoder } from "./decoder.js";

/** Feeds chunks (objects are serialized, strings sent as they are) and ends the body. */
function decode(chunks: Array<object | string>, options: { end?: boolean } = {}): Event[] {
  const events: Event[] = [];
  const decoder = new GeminiDecoder((e) => events.push(e));
  for (const chunk of chunks)
    decoder.push({ data: typeof chunk === "string" ? chunk : JSON.stringify(chunk) });
  if (options.end !== false) decoder.end();
  return events;
}

function assemble(events: Event[]): Response {
  return assembleResponse(events, "gemini");
}

function finalStatus(events: Event[]): StatusEvent {
  const last = events[events.length - 1];
  if (last?.type !== "status") throw new Error("the stream did not end with a status");
  return last;
}

const parts = (...list: object[]) => ({
  candidates: [{ content: { parts: list, role: "model" }, index: 0 }],
});
const finishing = (finishReason: string | number, ...list: object[]) => ({
  candidates: [{ content: { parts: list, role: "model" }, finishReason, index: 0 }],
});

describe("GeminiDecoder: stream contract", () => {
  it("starts with the response id and model, then text, usage and the final status", () => {
    const events = decode([
      { ...parts({ text: "Hel" }), responseId: "r1", modelVersion: "gemini-2.5-flash" },
      { ...finishing("STOP", { text: "lo" }), responseId: "r1", modelVersion: "gemini-2.5-flash" },
    ]);
    expect(events[0]).toEqual({
      type: "status",
      status: "started",
      responseId: "r1",
      model: "gemini-2.5-flash",
    });
    expect(events.map((e) => e.type)).toEqual([
      "status",
      "block_start",
      "block_delta",
      "block_delta",
      "block_stop",
      "status",
    ]);
    expect(finalStatus(events)).toEqual({
      type: "status",
      status: "completed",
      stopReason: "end_turn",
      rawStopReason: "STOP",
    });
  });

  it("waits for the end of the body after the finish reason, and ignores frames after the end", () => {
    const events: Event[] = [];
    const decoder = new GeminiDecoder((e) => events.push(e));
    decoder.push({ data: JSON.stringify(finishing("STOP", { text: "a" })) });
    expect(decoder.done).toBe(false);
    decoder.push({ data: JSON.stringify({ usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 } }) });
    decoder.end();
    expect(decoder.done).toBe(true);
    const count = events.length;
    decoder.push({ data: JSON.stringify(parts({ text: "late" })) });
    decoder.end();
    expect(events.length).toBe(count);
    expect(assemble(events).usage?.raw).toEqual({ promptTokenCount: 3, totalTokenCount: 3 });
  });

  it("accepts a [DONE] frame as the end of the body", () => {
    const events: Event[] = [];
    const decoder = new GeminiDecoder((e) => events.push(e));
    decoder.push({ data: JSON.stringify(finishing("STOP", { text: "ok" })) });
    decoder.push({ data: "[DONE]" });
    expect(decoder.done).toBe(true);
    expect(finalStatus(events).status).toBe("completed");
  });

  it("reports a body that ends without a finish reason as truncated, keeping the text and usage", () => {
    const events = decode([{ ...parts({ text: "half an ans" }), usageMetadata: { promptTokenCount: 5 } }]);
    const r = assemble(events);
    expect(r.status).toBe("failed");
    expect(r.stopReason).toBe("error");
    expect(r.error).toMatchObject({
      kind: "stream",
      message: "the stream ended before the response was complete",
    });
    expect(r.text).toBe("half an ans");
    expect(r.usage).toMatchObject({ inputTokens: 5 });
  });

  it("reports a transport failure, and an abort as cancelled", () => {
    const failed: Event[] = [];
    const a = new GeminiDecoder((e) => failed.push(e));
    a.push({ data: JSON.stringify(parts({ text: "x" })) });
    a.fail({ kind: "network", message: "socket hang up" });
    expect(finalStatus(failed)).toMatchObject({ status: "failed", stopReason: "error" });
    expect(failed.some((e) => e.type === "block_abort")).toBe(true);

    const cancelled: Event[] = [];
    const b = new GeminiDecoder((e) => cancelled.push(e));
    b.fail({ kind: "aborted", message: "the request was aborted" });
    expect(finalStatus(cancelled)).toMatchObject({ status: "cancelled", stopReason: "error" });
  });
});

describe("GeminiDecoder: finish reasons", () => {
  const cases: Array<[string | number, string, "completed" | "failed"]> = [
    ["STOP", "end_turn", "completed"],
    ["OTHER", "end_turn", "completed"],
    ["FINISH_REASON_UNSPECIFIED", "end_turn", "completed"],
    ["SOMETHING_NEW", "end_turn", "completed"],
    ["MAX_TOKENS", "max_tokens", "completed"],
    ["SAFETY", "refusal", "completed"],
    ["RECITATION", "refusal", "completed"],
    ["LANGUAGE", "refusal", "completed"],
    ["BLOCKLIST", "refusal", "completed"],
    ["PROHIBITED_CONTENT", "refusal", "completed"],
    ["SPII", "refusal", "completed"],
    ["IMAGE_SAFETY", "refusal", "completed"],
    ["MALFORMED_FUNCTION_CALL", "error", "failed"],
    ["UNEXPECTED_TOOL_CALL", "error", "failed"],
    ["TOO_MANY_TOOL_CALLS", "error", "failed"],
    // enum-encoding=int: the proto's numbers
    [1, "end_turn", "completed"],
    [2, "max_tokens", "completed"],
    [3, "refusal", "completed"],
    [5, "end_turn", "completed"], // OTHER
    [6, "refusal", "completed"], // LANGUAGE
    [10, "error", "failed"], // MALFORMED_FUNCTION_CALL
    [99, "end_turn", "completed"],
  ];
  for (const [raw, stopReason, status] of cases) {
    it(`maps ${JSON.stringify(raw)} to ${stopReason}`, () => {
      const status_ = finalStatus(decode([finishing(raw, { text: "t" })]));
      expect(status_).toMatchObject({ status, stopReason, rawStopReason: raw });
    });
  }

  it("fails a MALFORMED_FUNCTION_CALL with the finish message and no raw payload", () => {
    const events = decode([
      {
        candidates: [
          { finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: "Malformed function call: x" },
        ],
      },
    ]);
    const r = assemble(events);
    expect(r.error).toEqual({
      kind: "server",
      message: "Gemini stopped with MALFORMED_FUNCTION_CALL: Malformed function call: x",
      code: "MALFORMED_FUNCTION_CALL",
    });
  });

  it("blames the request for a missing thought signature", () => {
    const r = assemble(decode([finishing("MISSING_THOUGHT_SIGNATURE")]));
    expect(r.error?.kind).toBe("invalid_request");
  });

  it("says tool_use when the model returned function calls, even though Gemini says STOP", () => {
    const r = assemble(decode([finishing("STOP", { functionCall: { name: "f", args: {} } })]));
    expect(r).toMatchObject({ stopReason: "tool_use", rawStopReason: "STOP", status: "completed" });
  });

  it("keeps max_tokens when a response with a call was cut", () => {
    const r = assemble(decode([finishing("MAX_TOKENS", { functionCall: { name: "f", args: {} } })]));
    expect(r.stopReason).toBe("max_tokens");
  });

  it("treats a blocked prompt as a refusal with no finish reason", () => {
    for (const blockReason of ["PROHIBITED_CONTENT", 1]) {
      const events = decode([
        { promptFeedback: { blockReason }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } },
      ]);
      expect(finalStatus(events)).toMatchObject({
        status: "completed",
        stopReason: "refusal",
        rawStopReason: null,
      });
      expect(assemble(events).usage?.inputTokens).toBe(7);
    }
  });
});

describe("GeminiDecoder: errors", () => {
  it("fails on an error element mid-stream, with the provider's status, message and payload", () => {
    const error = {
      code: 429,
      message: "Resource has been exhausted (e.g. check quota).",
      status: "RESOURCE_EXHAUSTED",
    };
    const events = decode([parts({ text: "partial" }), { error }], { end: false });
    const r = assemble(events);
    expect(r.error).toEqual({
      kind: "rate_limit",
      message: error.message,
      code: "RESOURCE_EXHAUSTED",
      status: 429,
      raw: error,
    });
    expect(r).toMatchObject({ status: "failed", stopReason: "error", rawStopReason: null, text: "partial" });
    expect(events.some((e) => e.type === "block_abort")).toBe(true);
  });

  it("classifies an unknown status by its HTTP code", () => {
    const r = assemble(
      decode([{ error: { code: 503, message: "The model is overloaded.", status: "NEW_STATUS" } }]),
    );
    expect(r.error?.kind).toBe("overloaded");
    const s = assemble(decode([{ error: { code: 500, message: "Internal error", status: "INTERNAL" } }]));
    expect(s.error?.kind).toBe("server");
  });

  it("fails on invalid JSON with an excerpt of the frame", () => {
    const events = decode([parts({ text: "ok" }), '{"candidates": [{"content": {"parts": [{"text": "cut']);
    const r = assemble(events);
    expect(r.error?.kind).toBe("stream");
    expect(r.error?.message).toContain("invalid JSON");
    expect(r.error?.message).toContain('{"candidates": [{"content"');
    expect(r.error?.raw).toBe('{"candidates": [{"content": {"parts": [{"text": "cut');
    expect(r.status).toBe("failed");
  });

  it("fails on chunks of the wrong shape", () => {
    for (const bad of [
      "[1, 2]",
      '"text"',
      JSON.stringify({ candidates: {} }),
      JSON.stringify(parts({ text: 42 })),
      JSON.stringify(parts({ functionCall: { args: { a: 1 } } })),
      JSON.stringify(parts({ functionCall: { name: "f", args: [1] } })),
      JSON.stringify(finishing({ reason: "STOP" } as unknown as string)),
    ]) {
      const r = assemble(decode([bad]));
      expect(r.error?.kind, bad).toBe("stream");
      expect(r.error?.message, bad).toMatch(/^malformed Gemini chunk: /);
    }
  });

  it("shortens a long malformed frame in the message but keeps it whole as raw", () => {
    const long = `{"x": "${"y".repeat(1000)}`;
    const r = assemble(decode([long]));
    expect(r.error?.message.length).toBeLessThan(300);
    expect(r.error?.raw).toBe(long);
  });
});

describe("GeminiDecoder: usage", () => {
  it("normalizes cumulative usage: cache reads and tool-use prompt are input, thoughts are output", () => {
    const raw = {
      promptTokenCount: 1000,
      cachedContentTokenCount: 800,
      toolUsePromptTokenCount: 50,
      candidatesTokenCount: 30,
      thoughtsTokenCount: 70,
      totalTokenCount: 1150,
    };
    const events = decode([
      { ...parts({ text: "a" }), usageMetadata: { promptTokenCount: 1000, totalTokenCount: 1000 } },
      { ...finishing("STOP", { text: "b" }), usageMetadata: raw },
    ]);
    const usage = events.filter((e) => e.type === "usage");
    expect(usage).toEqual([
      {
        type: "usage",
        inputTokens: 1050,
        outputTokens: 100,
        reasoningTokens: 70,
        cacheReadInputTokens: 800,
        totalTokens: 1150,
        raw,
      },
    ]);
    // usage comes before the final status
    expect(events.findIndex((e) => e.type === "usage")).toBe(events.length - 2);
  });

  it("emits no usage when the stream carried none", () => {
    expect(decode([finishing("STOP", { text: "a" })]).some((e) => e.type === "usage")).toBe(false);
  });
});

describe("geminiScheme with decodeStream", () => {
  async function* body(text: string, size: number): AsyncGenerator<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }

  it("decodes SSE with CRLF separators and the JSON-array body alike", async () => {
    const chunks = [
      { ...parts({ text: "Olá " }), responseId: "r", modelVersion: "m" },
      { ...finishing("STOP", { text: "mundo" }), usageMetadata: { promptTokenCount: 2, totalTokenCount: 4 } },
    ];
    const sse = chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
    const array = `[${chunks.map((c) => JSON.stringify(c, null, 2)).join("\n,\r\n")}]`;
    for (const text of [sse, array]) {
      for (const size of [1, 5, 1000]) {
        const r = await collectResponse(decodeStream(geminiScheme, body(text, size)), "gemini");
        expect(r).toMatchObject({ text: "Olá mundo", responseId: "r", model: "m", stopReason: "end_turn" });
        expect(r.usage?.raw).toEqual({ promptTokenCount: 2, totalTokenCount: 4 });
      }
    }
  });

  it("reports a JSON array cut inside an element as malformed", async () => {
    const text = `[${JSON.stringify(parts({ text: "a" }))},\n{"candidates": [`;
    const r = await collectResponse(decodeStream(geminiScheme, body(text, 7)), "gemini");
    expect(r.error?.kind).toBe("stream");
    expect(r.text).toBe("a");
  });
});
