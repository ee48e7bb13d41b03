import { describe, expect, it } from "vitest";
import { decodeStream } from "../../llm-client/decode.js";
import { collectResponse } from "../../timeline/collect-response.js";
import type { ScriptedResponse } from "../script.js";
import { encodeAnthropic } from "./anthropic.js";

async function* bytes(body: string): AsyncGenerator<Uint8Array> {
  // Odd slices, so that frames are cut anywhere, as on a real connection.
  const all = new TextEncoder().encode(body);
  for (let at = 0; at < all.length; at += 7) yield all.subarray(at, at + 7);
}

function roundTrip(script: ScriptedResponse) {
  return collectResponse(decodeStream("anthropic", bytes(encodeAnthropic(script))), "anthropic");
}

describe("encodeAnthropic", () => {
  it("round-trips blocks, tool calls with arguments, usage and the stop reason", async () => {
    const r = await roundTrip({
      responseId: "msg_42",
      model: "claude-mock",
      pieceSize: 3,
      blocks: [
        { type: "thinking", text: "Think about ÷ and ✓", signature: "c2lnbmF0dXJl" },
        { type: "text", text: "Checking the weather." },
        { type: "tool_call", id: "toolu_a", name: "weather", arguments: { city: "Rome", days: [1, 2] } },
        { type: "tool_call", name: "clock", arguments: {} },
      ],
      usage: {
        inputTokens: 1000,
        outputTokens: 77,
        cacheReadInputTokens: 600,
        cacheCreationInputTokens: 300,
      },
    });
    expect(r).toMatchObject({
      responseId: "msg_42",
      model: "claude-mock",
      status: "completed",
      stopReason: "tool_use",
      rawStopReason: "tool_use",
      text: "Checking the weather.",
      reasoning: "Think about ÷ and ✓",
    });
    expect(r.items[0]).toEqual({
      type: "reasoning",
      text: "Think about ÷ and ✓",
      signature: "c2lnbmF0dXJl",
      origin: "anthropic",
    });
    expect(r.toolCalls.map((t) => [t.id, t.name, t.arguments])).toEqual([
      ["toolu_a", "weather", { city: "Rome", days: [1, 2] }],
      [expect.stringMatching(/^toolu_/), "clock", {}],
    ]);
    expect(r.usage).toMatchObject({
      inputTokens: 1000,
      outputTokens: 77,
      cacheReadInputTokens: 600,
      cacheCreationInputTokens: 300,
      raw: {
        input_tokens: 100,
        cache_read_input_tokens: 600,
        cache_creation_input_tokens: 300,
        output_tokens: 77,
      },
    });
  });

  it("streams text in pieces of pieceSize, as the API's event sequence", () => {
    const body = encodeAnthropic({ blocks: [{ type: "text", text: "abcdefghij" }], pieceSize: 4 });
    const types = [...body.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(types).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(body).toContain('"text":"abcd"');
    expect(body).toContain('"text":"ij"');
  });

  it.each(["end_turn", "max_tokens", "stop_sequence", "refusal"] as const)(
    "carries stop reason %s",
    async (stop) => {
      const r = await roundTrip({ blocks: [{ type: "text", text: "x" }], stopReason: stop });
      expect(r.stopReason).toBe(stop);
      expect(r.rawStopReason).toBe(stop);
    },
  );

  it("renders a scripted error as a mid-stream error event", async () => {
    const r = await roundTrip({ blocks: [{ type: "text", text: "partial" }], stopReason: "error" });
    expect(r.status).toBe("failed");
    expect(r.error).toMatchObject({ kind: "server", code: "api_error", raw: { type: "api_error" } });
    expect(r.text).toBe("partial");
  });
});
