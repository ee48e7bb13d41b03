import { describe, expect, it } from "vitest";
import { decodeStream } from "../../llm-client/decode.js";
import type { StopReason } from "../../llm-client/event.js";
import type { Response } from "../../llm-client/response.js";
import { collectResponse } from "../../timeline/collect-response.js";
import type { ScriptedResponse } from "../script.js";
import { encodeOpenaiResponses } from "./openai-responses.js";

async function* chunked(body: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(body);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function roundTrip(script: ScriptedResponse, chunkSize = 7): Promise<Response> {
  const body = encodeOpenaiResponses(script);
  return collectResponse(decodeStream("openai-responses", chunked(body, chunkSize)), "openai-responses");
}

describe("encodeOpenaiResponses", () => {
  it("round-trips reasoning, text, tool calls, usage and the stop reason", async () => {
    const script: ScriptedResponse = {
      responseId: "resp_abc123",
      model: "gpt-5-mock",
      pieceSize: 3,
      blocks: [
        { type: "thinking", text: "Let me think… 日本語 too", signature: "gAAAAencrypted" },
        { type: "text", text: "I'll check the weather." },
        { type: "tool_call", id: "call_1", name: "weather", arguments: { location: "Florence, Italy" } },
        { type: "tool_call", name: "clock", arguments: {} },
      ],
      usage: { inputTokens: 120, outputTokens: 40, cacheReadInputTokens: 100 },
    };
    const r = await roundTrip(script);

    expect(r.responseId).toBe("resp_abc123");
    expect(r.model).toBe("gpt-5-mock");
    expect(r.status).toBe("completed");
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("completed");
    expect(r.reasoning).toBe("Let me think… 日本語 too");
    expect(r.text).toBe("I'll check the weather.");
    expect(r.items.map((i) => i.type)).toEqual(["reasoning", "message", "tool_call", "tool_call"]);
    expect(r.items[0]).toMatchObject({
      type: "reasoning",
      summary: ["Let me think… 日本語 too"],
      encryptedContent: "gAAAAencrypted",
      origin: "openai-responses",
    });
    expect(r.items[0]).toHaveProperty("itemId", expect.stringMatching(/^rs_/));
    expect(r.items[1]).toHaveProperty("itemId", expect.stringMatching(/^msg_/));
    expect(r.toolCalls.map((t) => ({ id: t.id, name: t.name, arguments: t.arguments }))).toEqual([
      { id: "call_1", name: "weather", arguments: { location: "Florence, Italy" } },
      { id: expect.stringMatching(/^call_/), name: "clock", arguments: {} },
    ]);
    expect(r.items[2]).toHaveProperty("itemId", expect.stringMatching(/^fc_/));
    expect(r.usage).toMatchObject({
      inputTokens: 120,
      outputTokens: 40,
      totalTokens: 160,
      cacheReadInputTokens: 100,
    });
    expect(r.error).toBeUndefined();
  });

  it("streams text in pieces of pieceSize", () => {
    const body = encodeOpenaiResponses({ blocks: [{ type: "text", text: "abcdefgh" }], pieceSize: 3 });
    const deltas = body
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line.includes('"response.output_text.delta"'))
      .map((line) => (JSON.parse(line.slice("data: ".length)) as { delta: string }).delta);
    expect(deltas).toEqual(["abc", "def", "gh"]);
  });

  it("numbers the events in order and names each SSE event after its type", () => {
    const body = encodeOpenaiResponses({ blocks: [{ type: "text", text: "hi" }] });
    const messages = body.trim().split("\n\n");
    messages.forEach((message, i) => {
      const [eventLine, dataLine] = message.split("\n");
      const data = JSON.parse((dataLine ?? "").slice("data: ".length)) as {
        type: string;
        sequence_number: number;
      };
      expect(eventLine).toBe(`event: ${data.type}`);
      expect(data.sequence_number).toBe(i);
    });
  });

  it.each<[StopReason, string]>([
    ["end_turn", "completed"],
    ["max_tokens", "incomplete"],
    ["refusal", "incomplete"],
    ["error", "failed"],
  ])("round-trips stop reason %s (status %s)", async (stopReason, raw) => {
    const r = await roundTrip({ blocks: [{ type: "text", text: "partial answer" }], stopReason });
    expect(r.stopReason).toBe(stopReason);
    expect(r.rawStopReason).toBe(raw);
    expect(r.text).toBe("partial answer");
    if (stopReason === "error") {
      expect(r.status).toBe("failed");
      expect(r.error).toMatchObject({ kind: "server", code: "server_error" });
    } else {
      expect(r.status).toBe("completed");
    }
  });

  it("reports cache writes and leaves usage out when none was scripted", async () => {
    const withWrites = await roundTrip({
      blocks: [{ type: "text", text: "ok" }],
      usage: { inputTokens: 50, outputTokens: 2, cacheCreationInputTokens: 30 },
    });
    expect(withWrites.usage).toMatchObject({
      inputTokens: 50,
      cacheCreationInputTokens: 30,
      cacheReadInputTokens: 0,
    });
    const without = await roundTrip({ blocks: [{ type: "text", text: "ok" }] });
    expect(without.usage).toBeUndefined();
  });

  it("encodes an empty text and a thinking block without summary", async () => {
    const r = await roundTrip({
      blocks: [
        { type: "thinking", text: "", signature: "enc" },
        { type: "text", text: "" },
      ],
    });
    expect(r.items).toEqual([
      expect.objectContaining({ type: "reasoning", text: "", summary: [], encryptedContent: "enc" }),
      expect.objectContaining({ type: "message", text: "" }),
    ]);
  });
});
