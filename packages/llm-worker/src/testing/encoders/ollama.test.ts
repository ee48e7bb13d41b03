import { describe, expect, it } from "vitest";
import { decodeStream } from "../../llm-client/decode.js";
import { collectResponse } from "../../timeline/collect-response.js";
import type { ScriptedResponse } from "../script.js";
import { encodeOllama } from "./ollama.js";

async function* bytes(text: string, sliceSize: number): AsyncGenerator<Uint8Array> {
  const all = new TextEncoder().encode(text);
  for (let at = 0; at < all.length; at += sliceSize) yield all.subarray(at, at + sliceSize);
}

function roundTrip(script: ScriptedResponse, sliceSize = 7) {
  return collectResponse(decodeStream("ollama", bytes(encodeOllama(script), sliceSize)), "ollama");
}

describe("encodeOllama", () => {
  it("renders the wire format: one line per piece, whole tool calls, then the done line", () => {
    const body = encodeOllama({
      blocks: [
        { type: "text", text: "Hello world" },
        { type: "tool_call", id: "call_1", name: "f", arguments: { a: 1 } },
      ],
      usage: { inputTokens: 10, outputTokens: 4 },
      pieceSize: 6,
      model: "llama3.2",
    });
    expect(body.endsWith("}\n")).toBe(true);
    const lines = body
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.message)).toEqual([
      { role: "assistant", content: "Hello " },
      { role: "assistant", content: "world" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", function: { index: 0, name: "f", arguments: { a: 1 } } }],
      },
      { role: "assistant", content: "" },
    ]);
    expect(lines.map((line) => line.done)).toEqual([false, false, false, true]);
    expect(lines[3]).toMatchObject({
      model: "llama3.2",
      done_reason: "stop",
      prompt_eval_count: 10,
      eval_count: 4,
    });
    for (const line of lines) expect(typeof line.created_at).toBe("string");
  });

  it("round-trips thinking, text, tool calls with arguments, usage and the stop reason", async () => {
    const r = await roundTrip({
      blocks: [
        { type: "thinking", text: "The user wants the weather — in two cities." },
        { type: "text", text: "Let me check both. 日本語も。" },
        {
          type: "tool_call",
          id: "call_tokyo",
          name: "get_weather",
          arguments: { city: "Tokyo", days: [1, 2] },
        },
        { type: "tool_call", name: "get_weather", arguments: { city: "Paris" } },
      ],
      usage: { inputTokens: 120, outputTokens: 48 },
      pieceSize: 5,
      model: "qwen3:8b",
    });
    expect(r.status).toBe("completed");
    expect(r.model).toBe("qwen3:8b");
    expect(r.reasoning).toBe("The user wants the weather — in two cities.");
    expect(r.text).toBe("Let me check both. 日本語も。");
    expect(r.items.map((item) => item.type)).toEqual(["reasoning", "message", "tool_call", "tool_call"]);
    expect(r.toolCalls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: "get_weather", args: { city: "Tokyo", days: [1, 2] } },
      { name: "get_weather", args: { city: "Paris" } },
    ]);
    expect(r.toolCalls[0]?.id).toBe("call_tokyo");
    expect(r.toolCalls[0]?.synthesizedId).toBeUndefined();
    expect(r.toolCalls[1]?.synthesizedId).toBe(true);
    expect(r.usage).toMatchObject({ inputTokens: 120, outputTokens: 48 });
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("stop");
  });

  it("round-trips a plain answer as end_turn, and max_tokens as length", async () => {
    const plain = await roundTrip({ blocks: [{ type: "text", text: "Fine." }] }, 1);
    expect([plain.text, plain.stopReason]).toEqual(["Fine.", "end_turn"]);
    const cut = await roundTrip({ blocks: [{ type: "text", text: "A long" }], stopReason: "max_tokens" });
    expect([cut.stopReason, cut.rawStopReason]).toEqual(["max_tokens", "length"]);
  });

  it("renders an error stop as an error line, which decodes as a failed stream", async () => {
    const script: ScriptedResponse = { blocks: [{ type: "text", text: "Part" }], stopReason: "error" };
    expect(encodeOllama(script)).not.toContain('"done":true');
    const r = await roundTrip(script);
    expect(r.status).toBe("failed");
    expect(r.stopReason).toBe("error");
    expect(r.text).toBe("Part");
    expect(typeof r.error?.raw).toBe("string");
  });

  it("sends counts only when usage is scripted", async () => {
    const r = await roundTrip({ blocks: [{ type: "text", text: "x" }] });
    expect(r.usage?.inputTokens).toBeUndefined();
    expect(r.usage?.raw).toHaveProperty("total_duration");
  });
});
