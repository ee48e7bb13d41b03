import { describe, expect, it } from "vitest";
import type { Event } from "../llm-client/event.js";
import { TextBlockCollector } from "./text-block-collector.js";
import { Timeline } from "./timeline.js";

const text = (index: number, t: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "text", text: t },
});

function collect(events: Event[]): TextBlockCollector {
  const timeline = new Timeline();
  const collector = new TextBlockCollector();
  timeline.onTextBlock(collector);
  for (const event of events) timeline.dispatch(event);
  return collector;
}

describe("TextBlockCollector", () => {
  it("collects one string per text block, in order", () => {
    const collector = collect([
      { type: "block_start", index: 0, blockType: "text" },
      text(0, "Hello, "),
      text(0, "world"),
      { type: "block_stop", index: 0, blockType: "text" },
      { type: "block_start", index: 1, blockType: "thinking" },
      { type: "block_delta", index: 1, delta: { kind: "thinking", text: "not text" } },
      { type: "block_stop", index: 1, blockType: "thinking" },
      { type: "block_start", index: 2, blockType: "text" },
      text(2, "again"),
      { type: "block_stop", index: 2, blockType: "text" },
    ]);
    expect(collector.collected()).toEqual(["Hello, world", "again"]);
    expect(collector.hasContent()).toBe(true);
  });

  it("collects a block opened implicitly by a delta", () => {
    const collector = collect([
      text(0, "no "),
      text(0, "start"),
      { type: "block_stop", index: 0, blockType: "text" },
    ]);
    expect(collector.collected()).toEqual(["no start"]);
  });

  it("keeps the text of a block cut off by an abort", () => {
    const collector = collect([
      { type: "block_start", index: 0, blockType: "text" },
      text(0, "partial"),
      { type: "block_abort", index: 0, blockType: "text", reason: "network" },
    ]);
    expect(collector.collected()).toEqual(["partial"]);
  });

  it("does not collect a block that has not ended", () => {
    const collector = collect([{ type: "block_start", index: 0, blockType: "text" }, text(0, "open")]);
    expect(collector.collected()).toEqual([]);
    expect(collector.hasContent()).toBe(false);
  });

  it("counts an empty block as collected but not as content", () => {
    const collector = collect([
      { type: "block_start", index: 0, blockType: "text" },
      { type: "block_stop", index: 0, blockType: "text" },
    ]);
    expect(collector.collected()).toEqual([""]);
    expect(collector.hasContent()).toBe(false);
  });

  it("takeCollected hands the texts over and forgets them; collected returns a copy; clear empties", () => {
    const timeline = new Timeline();
    const collector = new TextBlockCollector();
    timeline.onTextBlock(collector);
    const block = (index: number, t: string): Event[] => [
      { type: "block_start", index, blockType: "text" },
      text(index, t),
      { type: "block_stop", index, blockType: "text" },
    ];
    for (const event of block(0, "one")) timeline.dispatch(event);
    collector.collected().push("tampered");
    expect(collector.collected()).toEqual(["one"]);
    expect(collector.takeCollected()).toEqual(["one"]);
    expect(collector.collected()).toEqual([]);
    for (const event of block(1, "two")) timeline.dispatch(event);
    expect(collector.takeCollected()).toEqual(["two"]);
    for (const event of block(2, "three")) timeline.dispatch(event);
    collector.clear();
    expect(collector.collected()).toEqual([]);
    expect(collector.hasContent()).toBe(false);
  });
});
