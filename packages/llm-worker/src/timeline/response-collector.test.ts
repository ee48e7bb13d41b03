/**
 * The one response assembler: contract-abiding streams (written through `EventWriter`, as every
 * decoder does) and streams that break the contract, through a Timeline, into a `Response` whose
 * items, text and calls are what arrived, whether the stream ended normally or was cut off.
 */
import { describe, expect, it } from "vitest";
import type { Event } from "../llm-client/event.js";
import { EventWriter } from "../llm-client/event-writer.js";
import { assembleResponse } from "./collect-response.js";
import type { TextBlockEvent } from "./event.js";
import { type CompletedBlock, ResponseCollector } from "./response-collector.js";
import { Timeline } from "./timeline.js";

function stream(write: (writer: EventWriter) => void): Event[] {
  const events: Event[] = [];
  write(new EventWriter((event) => events.push(event)));
  return events;
}

const scenarios: Record<string, Event[]> = {
  "thinking, text and parallel tool calls": stream((w) => {
    w.started("msg_1", "model-x");
    w.openBlock({ blockType: "thinking" });
    for (const piece of ["The user ", "wants ", "two files."]) w.delta({ kind: "thinking", text: piece });
    w.delta({ kind: "signature", signature: "sig-" });
    w.delta({ kind: "signature", signature: "123" });
    w.openBlock({ blockType: "text" });
    w.delta({ kind: "text", text: "Reading both." });
    w.usage({ inputTokens: 10, outputTokens: 3, raw: {} });
    w.openBlock({ blockType: "tool_use", id: "call_1", name: "read" });
    for (const piece of ['{"pa', 'th":"a', '.txt"}']) w.delta({ kind: "input_json", json: piece });
    w.openBlock({ blockType: "tool_use", id: "call_2", name: "read" });
    w.delta({ kind: "input_json", json: "{not json" });
    w.openBlock({ blockType: "tool_use", id: "call_3", name: "now", synthesizedId: true });
    w.ping();
    w.finish("tool_use", "tool_use");
  }),
  "an error in the middle of a tool call": stream((w) => {
    w.openBlock({ blockType: "text" });
    w.delta({ kind: "text", text: "Let me check" });
    w.openBlock({ blockType: "tool_use", id: "call_1", name: "search" });
    w.delta({ kind: "input_json", json: '{"q":"ha' });
    w.fail({ kind: "overloaded", message: "Overloaded" });
  }),
  "a cancellation in the middle of the text": stream((w) => {
    w.openBlock({ blockType: "thinking" });
    w.delta({ kind: "thinking", text: "hmm" });
    w.openBlock({ blockType: "text" });
    w.delta({ kind: "text", text: "Half an ans" });
    w.fail({ kind: "aborted", message: "the request was aborted" });
  }),
};

describe("ResponseCollector", () => {
  it("builds items, text, reasoning and parsed calls in stream order", () => {
    const r = assembleResponse(scenarios["thinking, text and parallel tool calls"] ?? [], "anthropic");
    expect(r).toMatchObject({
      responseId: "msg_1",
      model: "model-x",
      status: "completed",
      stopReason: "tool_use",
    });
    expect(r.text).toBe("Reading both.");
    expect(r.reasoning).toBe("The user wants two files.");
    expect(r.items.map((i) => i.type)).toEqual([
      "reasoning",
      "message",
      "tool_call",
      "tool_call",
      "tool_call",
    ]);
    expect(r.items[0]).toMatchObject({ type: "reasoning", signature: "sig-123", origin: "anthropic" });
    expect(r.toolCalls.map((c) => [c.id, c.arguments, c.parseError !== undefined, c.synthesizedId])).toEqual([
      ["call_1", { path: "a.txt" }, false, undefined],
      ["call_2", undefined, true, undefined],
      ["call_3", {}, false, true],
    ]);
    expect(r.usage).toMatchObject({ inputTokens: 10, outputTokens: 3 });
  });

  it("keeps the text before an error and drops the call it cut off", () => {
    const r = assembleResponse(scenarios["an error in the middle of a tool call"] ?? [], "anthropic");
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("overloaded");
    expect(r.items).toEqual([
      { type: "message", role: "assistant", text: "Let me check", origin: "anthropic" },
    ]);
    expect(r.toolCalls).toEqual([]);
  });

  it("keeps half a text and half a thought on cancellation", () => {
    const r = assembleResponse(scenarios["a cancellation in the middle of the text"] ?? [], "anthropic");
    expect(r.reasoning).toBe("hmm");
    expect(r.text).toBe("Half an ans");
  });

  it("takes text deltas that came with no block_start or block_stop as a text block", () => {
    const completed: CompletedBlock[] = [];
    const collector = new ResponseCollector(new Timeline(), "openai-chat", (b) => completed.push(b));
    collector.dispatch({ type: "block_delta", index: 0, delta: { kind: "text", text: "Hel" } });
    collector.dispatch({ type: "block_delta", index: 0, delta: { kind: "text", text: "lo" } });
    collector.dispatch({ type: "status", status: "completed", stopReason: "end_turn" });
    const r = collector.result();
    expect(r.text).toBe("Hello");
    expect(r.items).toEqual([{ type: "message", role: "assistant", text: "Hello", origin: "openai-chat" }]);
    expect(completed).toEqual([{ type: "text_complete", index: 0, text: "Hello" }]);
  });

  it("aborts a block left open by a cancelled stream, before the status, for every handler", () => {
    const timeline = new Timeline();
    const collector = new ResponseCollector(timeline, "anthropic");
    const seen: string[] = [];
    timeline.onTextBlock((e: TextBlockEvent) =>
      seen.push(e.kind === "abort" ? `abort: ${e.reason}` : e.kind),
    );
    timeline.onStatus((e) => seen.push(e.status));
    collector.dispatch({ type: "block_start", index: 0, blockType: "text" });
    collector.dispatch({ type: "block_delta", index: 0, delta: { kind: "text", text: "par" } });
    collector.dispatch({ type: "status", status: "cancelled" });
    expect(seen).toEqual(["start", "text", "abort: the response was cancelled", "cancelled"]);
    expect(timeline.currentBlock).toBeUndefined();
    expect(collector.result().text).toBe("par");
  });

  it("says a tool_result block is complete, as a text block", () => {
    const completed: CompletedBlock[] = [];
    const collector = new ResponseCollector(new Timeline(), "anthropic", (b) => completed.push(b));
    collector.dispatch({ type: "block_start", index: 0, blockType: "tool_result", toolUseId: "srv_1" });
    collector.dispatch({ type: "block_delta", index: 0, delta: { kind: "text", text: "42" } });
    collector.dispatch({ type: "block_stop", index: 0, blockType: "tool_result" });
    collector.dispatch({ type: "status", status: "completed" });
    expect(completed).toEqual([{ type: "text_complete", index: 0, text: "42" }]);
  });

  it("starts afresh with begin(), in the new origin", () => {
    const collector = new ResponseCollector(new Timeline(), "anthropic");
    for (const event of scenarios["a cancellation in the middle of the text"] ?? [])
      collector.dispatch(event);
    collector.begin("gemini");
    expect(() => collector.result()).toThrow(/not ended/);
    collector.dispatch({ type: "block_delta", index: 0, delta: { kind: "text", text: "b" } });
    collector.dispatch({ type: "status", status: "completed" });
    expect(collector.result().items).toEqual([
      { type: "message", role: "assistant", text: "b", origin: "gemini" },
    ]);
  });
});
