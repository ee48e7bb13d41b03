import { describe, expect, it } from "vitest";
import { decodeStream } from "../../llm-client/decode.js";
import { collectResponse } from "../../timeline/collect-response.js";
import type { ScriptedResponse } from "../script.js";
import { encodeOpenaiChat } from "./openai-chat.js";

async function* bytes(text: string, sliceSize: number): AsyncGenerator<Uint8Array> {
  const all = new TextEncoder().encode(text);
  for (let at = 0; at < all.length; at += sliceSize) yield all.subarray(at, at + sliceSize);
}

function roundTrip(script: ScriptedResponse, sliceSize = 11) {
  return collectResponse(
    decodeStream("openai-chat", bytes(encodeOpenaiChat(script), sliceSize)),
    "openai-chat",
  );
}

/** The `data:` payloads of an encoded body, `[DONE]` kept as a string. */
function payloads(body: string): unknown[] {
  return body
    .split("\n\n")
    .filter((message) => message !== "")
    .map((message) => {
      expect(message.startsWith("data: ")).toBe(true);
      const data = message.slice("data: ".length);
      return data === "[DONE]" ? data : JSON.parse(data);
    });
}

describe("encodeOpenaiChat", () => {
  it("renders the wire format: role chunk, pieces, finish chunk, usage chunk, [DONE]", () => {
    const body = encodeOpenaiChat({
      blocks: [{ type: "text", text: "Hello world" }],
      usage: { inputTokens: 10, outputTokens: 2, cacheReadInputTokens: 4 },
      pieceSize: 6,
      responseId: "chatcmpl-1",
      model: "gpt-4.1",
    });
    const chunks = payloads(body);
    expect(chunks.at(-1)).toBe("[DONE]");
    const objects = chunks.slice(0, -1) as Array<Record<string, unknown>>;
    for (const chunk of objects)
      expect(chunk).toMatchObject({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "gpt-4.1" });
    expect(objects.map((c) => c.choices)).toEqual([
      [
        {
          index: 0,
          delta: { role: "assistant", content: "", refusal: null },
          logprobs: null,
          finish_reason: null,
        },
      ],
      [{ index: 0, delta: { content: "Hello " }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: { content: "world" }, logprobs: null, finish_reason: null }],
      [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }],
      [],
    ]);
    expect(objects.at(-1)?.usage).toMatchObject({
      prompt_tokens: 10,
      completion_tokens: 2,
      total_tokens: 12,
      prompt_tokens_details: { cached_tokens: 4 },
    });
  });

  it("streams each tool call as a first delta with id and name, then argument pieces", () => {
    const body = encodeOpenaiChat({
      blocks: [{ type: "tool_call", id: "call_a", name: "add", arguments: { a: 2, b: 3 } }],
      pieceSize: 5,
    });
    const deltas = (payloads(body).slice(0, -1) as Array<{ choices: Array<{ delta: unknown }> }>).map(
      (c) => c.choices[0]?.delta,
    );
    expect(deltas).toEqual([
      { role: "assistant", content: null, refusal: null },
      {
        tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "add", arguments: "" } }],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '2,"b"' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ":3}" } }] },
      {},
    ]);
  });

  it("round-trips thinking, text, tool calls with arguments, usage and the stop reason", async () => {
    const r = await roundTrip({
      blocks: [
        { type: "thinking", text: "The user wants the weather — in two cities." },
        { type: "text", text: "Let me check both. 日本語も。" },
        { type: "tool_call", id: "call_tokyo", name: "get_weather", arguments: { city: "Tokyo", days: 3 } },
        { type: "tool_call", name: "get_weather", arguments: { city: "Osaka", nested: { a: [1, 2] } } },
      ],
      usage: { inputTokens: 120, outputTokens: 40, cacheReadInputTokens: 100, cacheCreationInputTokens: 20 },
      pieceSize: 3,
      responseId: "chatcmpl-rt",
      model: "gpt-4o",
    });
    expect(r.status).toBe("completed");
    expect(r.responseId).toBe("chatcmpl-rt");
    expect(r.model).toBe("gpt-4o");
    expect(r.reasoning).toBe("The user wants the weather — in two cities.");
    expect(r.text).toBe("Let me check both. 日本語も。");
    expect(r.items.map((i) => i.type)).toEqual(["reasoning", "message", "tool_call", "tool_call"]);
    expect(r.toolCalls.map((t) => ({ id: t.id, name: t.name, arguments: t.arguments }))).toEqual([
      { id: "call_tokyo", name: "get_weather", arguments: { city: "Tokyo", days: 3 } },
      {
        id: expect.stringMatching(/^call_/),
        name: "get_weather",
        arguments: { city: "Osaka", nested: { a: [1, 2] } },
      },
    ]);
    expect(r.toolCalls[1]?.synthesizedId).toBeUndefined();
    expect(r.usage).toMatchObject({
      inputTokens: 120,
      outputTokens: 40,
      totalTokens: 160,
      cacheReadInputTokens: 100,
      cacheCreationInputTokens: 20,
    });
    expect(r.stopReason).toBe("tool_use");
    expect(r.rawStopReason).toBe("tool_calls");
  });

  it("gives every response its own default ids", async () => {
    const script: ScriptedResponse = { blocks: [{ type: "tool_call", name: "f", arguments: {} }] };
    const [a, b] = [await roundTrip(script), await roundTrip(script)];
    expect(a.responseId).not.toBe(b.responseId);
    expect(a.toolCalls[0]?.id).not.toBe(b.toolCalls[0]?.id);
  });

  it.each([
    ["end_turn", "end_turn", "stop"],
    ["stop_sequence", "end_turn", "stop"],
    ["max_tokens", "max_tokens", "length"],
    ["refusal", "refusal", "stop"],
  ] as const)("round-trips stop reason %s as %s (finish_reason %s)", async (stopReason, expected, raw) => {
    const r = await roundTrip({ blocks: [{ type: "text", text: "Some answer." }], stopReason });
    expect(r.status).toBe("completed");
    expect(r.stopReason).toBe(expected);
    expect(r.rawStopReason).toBe(raw);
    expect(r.text).toBe("Some answer.");
  });

  it("sends a refusal with no text as content_filter", async () => {
    const r = await roundTrip({ blocks: [], stopReason: "refusal" });
    expect(r.stopReason).toBe("refusal");
    expect(r.rawStopReason).toBe("content_filter");
  });

  it("ends an error response with an error chunk and no [DONE]", async () => {
    const body = encodeOpenaiChat({ blocks: [{ type: "text", text: "partial" }], stopReason: "error" });
    expect(body).not.toContain("[DONE]");
    const r = await roundTrip({ blocks: [{ type: "text", text: "partial" }], stopReason: "error" });
    expect(r.status).toBe("failed");
    expect(r.stopReason).toBe("error");
    expect(r.error).toMatchObject({ kind: "server", code: "server_error" });
    expect(r.text).toBe("partial");
  });

  it("sends string arguments as raw text, so malformed JSON can be scripted", async () => {
    const r = await roundTrip({ blocks: [{ type: "tool_call", id: "c", name: "f", arguments: '{"a":' }] });
    expect(r.toolCalls[0]?.argumentsText).toBe('{"a":');
    expect(r.toolCalls[0]?.parseError).toBeDefined();
  });

  it("omits the usage chunk when no usage is scripted", async () => {
    const body = encodeOpenaiChat({ blocks: [{ type: "text", text: "hi" }] });
    expect(body).not.toContain('"choices":[]');
    expect((await roundTrip({ blocks: [{ type: "text", text: "hi" }] })).usage).toBeUndefined();
  });
});
