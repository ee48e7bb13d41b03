import { describe, expect, it } from "vitest";
import type { Event } from "../llm-client/event.js";
import { Timeline } from "./timeline.js";
import { ToolCallCollector } from "./tool-call-collector.js";

const call = (index: number, id: string, name: string, pieces: string[]): Event[] => [
  { type: "block_start", index, blockType: "tool_use", id, name },
  ...pieces.map((json): Event => ({ type: "block_delta", index, delta: { kind: "input_json", json } })),
  { type: "block_stop", index, blockType: "tool_use" },
];

function collect(events: Event[]): ToolCallCollector {
  const timeline = new Timeline();
  const collector = new ToolCallCollector();
  timeline.onToolUseBlock(collector);
  for (const event of events) timeline.dispatch(event);
  return collector;
}

describe("ToolCallCollector", () => {
  it("parses the accumulated JSON at stop, one call per block, in order", () => {
    const collector = collect([
      ...call(0, "call_a", "search", ['{"que', 'ry": "ts', ' timeline"}']),
      ...call(1, "call_b", "read", ['{"path":"a.txt"}']),
    ]);
    expect(collector.collected()).toEqual([
      {
        id: "call_a",
        name: "search",
        argumentsText: '{"query": "ts timeline"}',
        arguments: { query: "ts timeline" },
      },
      { id: "call_b", name: "read", argumentsText: '{"path":"a.txt"}', arguments: { path: "a.txt" } },
    ]);
    expect(collector.hasPendingCalls()).toBe(true);
  });

  it("reads an empty argument string as {}", () => {
    const collector = collect([...call(0, "call_a", "now", []), ...call(1, "call_b", "now", [""])]);
    expect(collector.collected().map((c) => c.arguments)).toEqual([{}, {}]);
    expect(collector.collected().every((c) => c.parseError === undefined)).toBe(true);
  });

  it("marks a call with invalid JSON invalid, with the parse error, instead of throwing", () => {
    const collector = collect([...call(0, "call_a", "search", ['{"query": "unterminated'])]);
    const [bad] = collector.collected();
    expect(bad).toMatchObject({ id: "call_a", name: "search", argumentsText: '{"query": "unterminated' });
    expect(bad?.arguments).toBeUndefined();
    expect(bad?.parseError).toMatch(/^invalid JSON arguments: /);
  });

  it("drops a call cut off by an abort: its arguments are incomplete", () => {
    const timeline = new Timeline();
    const collector = new ToolCallCollector();
    timeline.onToolUseBlock(collector);
    const events = call(0, "call_a", "rm", ['{"path":', '"/tmp/x"}']);
    for (const event of events.slice(0, 2)) timeline.dispatch(event);
    timeline.abortCurrentBlock("cancelled");
    expect(collector.hasPendingCalls()).toBe(false);
    // The next call starts from a fresh scope, with nothing of the aborted one.
    for (const event of call(1, "call_b", "ls", ['{"dir":"."}'])) timeline.dispatch(event);
    expect(collector.collected()).toEqual([
      { id: "call_b", name: "ls", argumentsText: '{"dir":"."}', arguments: { dir: "." } },
    ]);
  });

  it("keeps the Gemini thought signature, a made-up id's mark and the Responses item id", () => {
    const collector = collect([
      {
        type: "block_start",
        index: 0,
        blockType: "tool_use",
        id: "gen_1",
        name: "weather",
        synthesizedId: true,
        providerData: { itemId: "fc_1" },
      },
      { type: "block_delta", index: 0, delta: { kind: "signature", signature: "CiQB" } },
      { type: "block_delta", index: 0, delta: { kind: "input_json", json: '{"city":"Kyoto"}' } },
      { type: "block_stop", index: 0, blockType: "tool_use" },
    ]);
    expect(collector.collected()).toEqual([
      {
        id: "gen_1",
        name: "weather",
        argumentsText: '{"city":"Kyoto"}',
        arguments: { city: "Kyoto" },
        synthesizedId: true,
        signature: "CiQB",
        itemId: "fc_1",
      },
    ]);
  });

  it("takeCollected hands the calls over and forgets them; clear empties", () => {
    const collector = collect([...call(0, "call_a", "x", ["{}"]), ...call(1, "call_b", "y", ["{}"])]);
    expect(collector.takeCollected().map((c) => c.id)).toEqual(["call_a", "call_b"]);
    expect(collector.hasPendingCalls()).toBe(false);
    const again = collect(call(0, "call_c", "z", ["{}"]));
    again.clear();
    expect(again.hasPendingCalls()).toBe(false);
    expect(again.collected()).toEqual([]);
  });
});
