/**
 * The collectors against the llm-client's own `ResponseAssembler`: the same contract-abiding streams
 * (written through `EventWriter`, as every decoder does) must give the same text, reasoning,
 * signatures and tool calls, whether they end normally or are cut off.
 */
import { describe, expect, it } from "vitest";
import type { Event } from "../llm-client/event.js";
import { EventWriter } from "../llm-client/event-writer.js";
import { ResponseAssembler } from "../llm-client/response.js";
import { TextBlockCollector } from "./text-block-collector.js";
import { ThinkingBlockCollector } from "./thinking-block-collector.js";
import { Timeline } from "./timeline.js";
import { ToolCallCollector } from "./tool-call-collector.js";

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

describe("collectors agree with ResponseAssembler", () => {
  for (const [name, events] of Object.entries(scenarios)) {
    it(name, () => {
      const assembler = new ResponseAssembler("anthropic");
      const timeline = new Timeline();
      const texts = new TextBlockCollector();
      const thoughts = new ThinkingBlockCollector();
      const calls = new ToolCallCollector();
      timeline.onTextBlock(texts);
      timeline.onThinkingBlock(thoughts);
      timeline.onToolUseBlock(calls);
      for (const event of events) {
        assembler.push(event);
        timeline.dispatch(event);
      }
      const response = assembler.result();
      expect(texts.collected().join("")).toBe(response.text);
      expect(
        thoughts
          .collected()
          .map((t) => t.text)
          .join(""),
      ).toBe(response.reasoning);
      expect(thoughts.collected().map((t) => t.signature)).toEqual(
        response.items.filter((i) => i.type === "reasoning").map((i) => i.signature),
      );
      expect(calls.collected()).toEqual(response.toolCalls);
      expect(timeline.currentBlock).toBeUndefined();
    });
  }

  it("the first scenario has what it claims (the comparison is not vacuous)", () => {
    const timeline = new Timeline();
    const calls = new ToolCallCollector();
    timeline.onToolUseBlock(calls);
    for (const event of scenarios["thinking, text and parallel tool calls"] ?? []) timeline.dispatch(event);
    expect(calls.collected().map((c) => [c.id, c.arguments, c.parseError !== undefined])).toEqual([
      ["call_1", { path: "a.txt" }, false],
      ["call_2", undefined, true],
      ["call_3", {}, false],
    ]);
  });
});
