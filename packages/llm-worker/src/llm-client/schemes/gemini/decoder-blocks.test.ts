import { describe, expect, it } from "vitest";
import { assembleResponse } from "../../../timeline/collect-response.js";
import type { Event } from "../../event.js";
import type { Response } from "../../response.js";
import { GeminiDecoder } from "./decoder.js";

/** Feeds chunks and ends the body; how Gemini parts become blocks is all these tests look at. */
function decode(chunks: object[]): Event[] {
  const events: Event[] = [];
  const decoder = new GeminiDecoder((e) => events.push(e));
  for (const chunk of chunks) decoder.push({ data: JSON.stringify(chunk) });
  decoder.end();
  return events;
}

function assemble(events: Event[]): Response {
  return assembleResponse(events, "gemini");
}

const parts = (...list: object[]) => ({
  candidates: [{ content: { parts: list, role: "model" }, index: 0 }],
});
const finishing = (finishReason: string, ...list: object[]) => ({
  candidates: [{ content: { parts: list, role: "model" }, finishReason, index: 0 }],
});

describe("GeminiDecoder: blocks", () => {
  it("merges consecutive parts of one kind and splits thoughts from text", () => {
    const r = assemble(
      decode([
        parts({ text: "Let me ", thought: true }),
        parts({ text: "think.", thought: true }, { text: "The answer" }),
        finishing("STOP", { text: " is 4." }),
      ]),
    );
    expect(r.items).toEqual([
      { type: "reasoning", text: "Let me think.", origin: "gemini" },
      { type: "message", role: "assistant", text: "The answer is 4.", origin: "gemini" },
    ]);
  });

  it("attaches the signature of an empty text part to the block before it", () => {
    const r = assemble(
      decode([
        parts({ functionCall: { name: "f", args: { a: 1 } } }),
        finishing("STOP", { text: "", thoughtSignature: "SIG" }),
      ]),
    );
    expect(r.items).toEqual([
      expect.objectContaining({ type: "tool_call", name: "f", arguments: '{"a":1}', signature: "SIG" }),
    ]);
  });

  it("gives a leading signature-only part a block of its own, which later text joins", () => {
    const r = assemble(
      decode([parts({ text: "", thoughtSignature: "SIG" }), finishing("STOP", { text: "Hi" })]),
    );
    expect(r.items).toEqual([
      { type: "message", role: "assistant", text: "Hi", signature: "SIG", origin: "gemini" },
    ]);
  });

  it("starts a new block for a second signature, so that no signature is garbled", () => {
    const r = assemble(
      decode([
        parts({ text: "one", thoughtSignature: "S1" }),
        finishing("STOP", { text: "two", thoughtSignature: "S2" }),
      ]),
    );
    expect(r.items.map((i) => (i.type === "message" ? [i.text, i.signature] : []))).toEqual([
      ["one", "S1"],
      ["two", "S2"],
    ]);
  });

  it("skips empty text parts and parts it does not model", () => {
    const r = assemble(
      decode([
        parts({ text: "" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }),
        finishing("STOP", { text: "done" }),
      ]),
    );
    expect(r.items).toEqual([{ type: "message", role: "assistant", text: "done", origin: "gemini" }]);
  });

  it("makes one block per function call, with the wire id or a unique synthesized one", () => {
    const r = assemble(
      decode([
        finishing(
          "STOP",
          { functionCall: { name: "add", args: { a: 1 } }, thoughtSignature: "S" },
          { functionCall: { name: "add", args: { a: 2 } } },
          { functionCall: { id: "fc_1", name: "mul" } },
        ),
      ]),
    );
    expect(r.toolCalls.map((t) => [t.name, t.arguments, t.synthesizedId])).toEqual([
      ["add", { a: 1 }, true],
      ["add", { a: 2 }, true],
      ["mul", {}, undefined],
    ]);
    const [first, second, third] = r.toolCalls;
    expect(first?.id).not.toBe(second?.id);
    expect(third?.id).toBe("fc_1");
    expect(r.items[0]).toMatchObject({ signature: "S" });
    expect(r.items[1]).not.toHaveProperty("signature");
    const other = assemble(decode([finishing("STOP", { functionCall: { name: "add", args: {} } })]));
    expect(other.toolCalls[0]?.id).not.toBe(first?.id);
  });

  it("assembles arguments streamed as partialArgs until the closing empty call", () => {
    const events = decode([
      parts({ functionCall: { id: "c1", name: "weather", willContinue: true }, thoughtSignature: "SIG" }),
      parts({
        functionCall: {
          partialArgs: [{ jsonPath: "$.location", stringValue: "New ", willContinue: true }],
          willContinue: true,
        },
      }),
      parts({
        functionCall: {
          partialArgs: [
            { jsonPath: "$.location", stringValue: "York" },
            { jsonPath: "$.days", numberValue: 3 },
            { jsonPath: "$.options.metric", boolValue: true },
            { jsonPath: "$.stops[1]['name']", stringValue: "b" },
            { jsonPath: "$.note", nullValue: "NULL_VALUE" },
          ],
          willContinue: true,
        },
      }),
      finishing("STOP", { functionCall: {} }),
    ]);
    // one input_json delta, once the arguments are whole
    expect(events.filter((e) => e.type === "block_delta" && e.delta.kind === "input_json")).toHaveLength(1);
    const r = assemble(events);
    expect(r.toolCalls).toEqual([
      expect.objectContaining({
        id: "c1",
        name: "weather",
        arguments: {
          location: "New York",
          days: 3,
          options: { metric: true },
          stops: [null, { name: "b" }],
          note: null,
        },
      }),
    ]);
    expect(r.items[0]).toMatchObject({ signature: "SIG" });
    expect(r.stopReason).toBe("tool_use");
  });

  it("accepts streamed arguments whose pieces repeat the call's name and end without willContinue", () => {
    const r = assemble(
      decode([
        parts({
          functionCall: {
            name: "f",
            partialArgs: [{ jsonPath: "$.city", stringValue: "San", willContinue: true }],
            willContinue: true,
          },
        }),
        parts({ functionCall: { name: "f", partialArgs: [{ jsonPath: "$.city", stringValue: " Jose" }] } }),
        finishing("STOP", { functionCall: { name: "g", args: { x: 1 } } }),
      ]),
    );
    expect(r.toolCalls.map((t) => [t.name, t.arguments])).toEqual([
      ["f", { city: "San Jose" }],
      ["g", { x: 1 }],
    ]);
  });

  it("replaces a string piece that does not continue the previous one", () => {
    const r = assemble(
      decode([
        parts({
          functionCall: {
            name: "f",
            willContinue: true,
            partialArgs: [{ jsonPath: "$.a", stringValue: "x" }],
          },
        }),
        finishing("STOP", { functionCall: { partialArgs: [{ jsonPath: "$.a", stringValue: "y" }] } }),
      ]),
    );
    expect(r.toolCalls[0]?.arguments).toEqual({ a: "y" });
  });

  it("fails on a partialArgs entry it cannot place", () => {
    const r = assemble(
      decode([
        parts({ functionCall: { name: "f", willContinue: true, partialArgs: [{ stringValue: "x" }] } }),
      ]),
    );
    expect(r.error?.message).toContain("partialArgs entry without a jsonPath");
  });

  it("drops a streamed call cut off by the end of the body", () => {
    const r = assemble(decode([parts({ functionCall: { name: "f", willContinue: true } })]));
    expect(r.toolCalls).toEqual([]);
    expect(r.error?.kind).toBe("stream");
  });

  it("keeps built-in code execution parts whole, as server tool items", () => {
    const code = { executableCode: { language: "PYTHON", code: "print(1+1)", id: "ec1" } };
    const result = { codeExecutionResult: { outcome: "OUTCOME_OK", output: "2\n", id: "ec1" } };
    const r = assemble(decode([parts(code), parts(result), finishing("STOP", { text: "It is 2." })]));
    expect(r.items).toEqual([
      {
        type: "server_tool",
        role: "call",
        id: "ec1",
        name: "code_execution",
        arguments: '{"language":"PYTHON","code":"print(1+1)"}',
        payload: code,
        origin: "gemini",
      },
      {
        type: "server_tool",
        role: "result",
        id: "ec1",
        name: "code_execution_result",
        payload: result,
        origin: "gemini",
      },
      { type: "message", role: "assistant", text: "It is 2.", origin: "gemini" },
    ]);
    expect(r.stopReason).toBe("end_turn");
  });

  it("pairs a code result without id with the code before it", () => {
    const r = assemble(
      decode([
        parts(
          { executableCode: { language: "PYTHON", code: "1" } },
          { codeExecutionResult: { outcome: "OUTCOME_OK" } },
        ),
        finishing("STOP"),
      ]),
    );
    const [call, result] = r.items;
    expect(call?.type === "server_tool" && result?.type === "server_tool" && call.id === result.id).toBe(
      true,
    );
  });
});
