import { describe, expect, it } from "vitest";
import type { Event } from "../llm-client/event.js";
import { ThinkingBlockCollector } from "./thinking-block-collector.js";
import { Timeline } from "./timeline.js";

const thinking = (index: number, t: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "thinking", text: t },
});
const signature = (index: number, s: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "signature", signature: s },
});

function collect(events: Event[]): ThinkingBlockCollector {
  const timeline = new Timeline();
  const collector = new ThinkingBlockCollector();
  timeline.onThinkingBlock(collector);
  for (const event of events) timeline.dispatch(event);
  return collector;
}

describe("ThinkingBlockCollector", () => {
  it("collects each thinking block with its signature (pieces concatenated)", () => {
    const collector = collect([
      { type: "block_start", index: 0, blockType: "thinking" },
      thinking(0, "Let me "),
      thinking(0, "think."),
      signature(0, "EqQB"),
      signature(0, "Ckg="),
      { type: "block_stop", index: 0, blockType: "thinking" },
      { type: "block_start", index: 1, blockType: "text" },
      { type: "block_delta", index: 1, delta: { kind: "text", text: "answer" } },
      { type: "block_stop", index: 1, blockType: "text" },
    ]);
    expect(collector.collected()).toEqual([{ text: "Let me think.", signature: "EqQBCkg=" }]);
    expect(collector.hasContent()).toBe(true);
  });

  it("keeps a signature that arrives with no visible reasoning", () => {
    const collector = collect([
      { type: "block_start", index: 0, blockType: "thinking" },
      signature(0, "opaque"),
      { type: "block_stop", index: 0, blockType: "thinking" },
    ]);
    expect(collector.collected()).toEqual([{ text: "", signature: "opaque" }]);
    expect(collector.hasContent()).toBe(false);
  });

  it("keeps OpenAI Responses provider data, the stop's fields winning over the start's", () => {
    const collector = collect([
      {
        type: "block_start",
        index: 0,
        blockType: "thinking",
        providerData: { itemId: "rs_1", encryptedContent: null },
      },
      thinking(0, "summary"),
      {
        type: "block_stop",
        index: 0,
        blockType: "thinking",
        providerData: { summary: ["summary"], encryptedContent: "gAAA" },
      },
    ]);
    expect(collector.collected()).toEqual([
      { text: "summary", itemId: "rs_1", summary: ["summary"], encryptedContent: "gAAA" },
    ]);
  });

  it("keeps what arrived of a block cut off by an abort", () => {
    const collector = collect([
      { type: "block_start", index: 0, blockType: "thinking" },
      thinking(0, "half a tho"),
      { type: "block_abort", index: 0, blockType: "thinking", reason: "cancelled" },
    ]);
    expect(collector.collected()).toEqual([{ text: "half a tho" }]);
  });

  it("takeCollected hands the blocks over and forgets them; clear empties", () => {
    const collector = collect([
      thinking(0, "implicit"),
      { type: "block_stop", index: 0, blockType: "thinking" },
    ]);
    expect(collector.takeCollected()).toEqual([{ text: "implicit" }]);
    expect(collector.collected()).toEqual([]);
    const again = collect([thinking(0, "x"), { type: "block_stop", index: 0, blockType: "thinking" }]);
    again.clear();
    expect(again.collected()).toEqual([]);
  });
});
