import { describe, expect, it } from "vitest";
import { decodeStream } from "../../llm-client/decode.js";
import type { StopReason } from "../../llm-client/event.js";
import type { Response } from "../../llm-client/response.js";
import { collectResponse } from "../../timeline/collect-response.js";
import type { ScriptedResponse } from "../script.js";
import { encodeGemini } from "./gemini.js";

async function* bytes(text: string, sliceSize: number): AsyncGenerator<Uint8Array> {
  const all = new TextEncoder().encode(text);
  for (let at = 0; at < all.length; at += sliceSize) yield all.subarray(at, at + sliceSize);
}

function roundTrip(script: ScriptedResponse, sliceSize = 7): Promise<Response> {
  return collectResponse(decodeStream("gemini", bytes(encodeGemini(script), sliceSize)), "gemini");
}

/** The JSON payloads of an encoded body. */
function payloads(body: string): Array<Record<string, unknown>> {
  expect(body.endsWith("\r\n\r\n")).toBe(true);
  return body
    .split("\r\n\r\n")
    .filter((message) => message !== "")
    .map((message) => {
      expect(message.startsWith("data: ")).toBe(true);
      return JSON.parse(message.slice("data: ".length)) as Record<string, unknown>;
    });
}

describe("encodeGemini", () => {
  it("renders the wire format: one chunk per piece, the finish reason and final usage on the last", () => {
    const chunks = payloads(
      encodeGemini({
        blocks: [
          { type: "text", text: "Hello world" },
          { type: "tool_call", name: "f", arguments: { a: 1 } },
        ],
        usage: { inputTokens: 10, outputTokens: 4 },
        pieceSize: 6,
        responseId: "resp1",
        model: "gemini-2.5-pro",
      }),
    );
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ responseId: "resp1", modelVersion: "gemini-2.5-pro" });
    expect(chunks.map((c) => c.candidates)).toEqual([
      [{ content: { parts: [{ text: "Hello " }], role: "model" }, index: 0 }],
      [{ content: { parts: [{ text: "world" }], role: "model" }, index: 0 }],
      [
        {
          content: { parts: [{ functionCall: { name: "f", args: { a: 1 } } }], role: "model" },
          index: 0,
          finishReason: "STOP",
        },
      ],
    ]);
    expect(chunks[0]?.usageMetadata).toEqual({ promptTokenCount: 10, totalTokenCount: 10 });
    expect(chunks[2]?.usageMetadata).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 4,
      totalTokenCount: 14,
    });
  });

  it("round-trips thoughts with their signature, text, tool calls, usage and the stop reason", async () => {
    const r = await roundTrip({
      blocks: [
        { type: "thinking", text: "Let me think… 日本語 too", signature: "c2lnbmF0dXJl" },
        { type: "text", text: "I'll check the weather." },
        { type: "tool_call", id: "fc_1", name: "weather", arguments: { location: "Florence, Italy" } },
        { type: "tool_call", name: "clock", arguments: '{"tz":"UTC"}' },
      ],
      usage: { inputTokens: 120, outputTokens: 40, cacheReadInputTokens: 100 },
      pieceSize: 3,
      responseId: "abc",
      model: "gemini-3-pro-preview",
    });
    expect(r).toMatchObject({
      responseId: "abc",
      model: "gemini-3-pro-preview",
      status: "completed",
      stopReason: "tool_use",
      rawStopReason: "STOP",
      reasoning: "Let me think… 日本語 too",
      text: "I'll check the weather.",
    });
    expect(r.items.map((i) => i.type)).toEqual(["reasoning", "message", "tool_call", "tool_call"]);
    expect(r.items[0]).toMatchObject({ signature: "c2lnbmF0dXJl", origin: "gemini" });
    expect(
      r.toolCalls.map((t) => ({ id: t.synthesizedId ? null : t.id, name: t.name, arguments: t.arguments })),
    ).toEqual([
      { id: "fc_1", name: "weather", arguments: { location: "Florence, Italy" } },
      { id: null, name: "clock", arguments: { tz: "UTC" } },
    ]);
    expect(r.usage).toMatchObject({
      inputTokens: 120,
      outputTokens: 40,
      cacheReadInputTokens: 100,
      totalTokens: 160,
    });
  });

  const stops: Array<[StopReason, string | null, StopReason]> = [
    ["end_turn", "STOP", "end_turn"],
    ["stop_sequence", "STOP", "end_turn"],
    ["max_tokens", "MAX_TOKENS", "max_tokens"],
    ["refusal", "SAFETY", "refusal"],
  ];
  for (const [scripted, raw, decoded] of stops) {
    it(`renders ${scripted} as ${raw}`, async () => {
      const r = await roundTrip({ blocks: [{ type: "text", text: "some text" }], stopReason: scripted });
      expect(r).toMatchObject({
        status: "completed",
        rawStopReason: raw,
        stopReason: decoded,
        text: "some text",
      });
    });
  }

  it("renders an error stop as an error element after the blocks", async () => {
    const body = encodeGemini({ blocks: [{ type: "text", text: "partial" }], stopReason: "error" });
    expect(payloads(body).at(-1)).toEqual({
      error: expect.objectContaining({ code: 500, status: "INTERNAL" }),
    });
    const r = await roundTrip({ blocks: [{ type: "text", text: "partial" }], stopReason: "error" });
    expect(r).toMatchObject({ status: "failed", stopReason: "error", text: "partial" });
    expect(r.error).toMatchObject({ kind: "server", code: "INTERNAL", status: 500 });
  });

  it("renders an empty response as one finishing chunk", async () => {
    const chunks = payloads(encodeGemini({ blocks: [] }));
    expect(chunks).toHaveLength(1);
    const r = await roundTrip({ blocks: [] });
    expect(r).toMatchObject({ status: "completed", stopReason: "end_turn", items: [] });
    expect(r.usage).toBeUndefined();
  });

  it("gives each response its own default id", () => {
    const a = payloads(encodeGemini({ blocks: [] }))[0]?.responseId;
    const b = payloads(encodeGemini({ blocks: [] }))[0]?.responseId;
    expect(typeof a).toBe("string");
    expect(a).not.toBe(b);
  });
});
