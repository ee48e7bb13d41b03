import { describe, expect, it } from "vitest";
import { assistantMessage, type Item, type ToolResultItem, userMessage } from "../llm-client/item.js";
import { DEFAULT_PRUNE_CONFIG, prunableIndices, pruneItems } from "./prune.js";

type ToolResultSpec = [summary: string, content: string | undefined];

/** The seed's `make_history`: per turn a user message, an assistant message, then call/result pairs. */
function makeHistory(turns: [userText: string, results: ToolResultSpec[]][]): Item[] {
  const items: Item[] = [];
  for (const [userText, results] of turns) {
    items.push(userMessage(userText), assistantMessage("ok"));
    results.forEach(([summary, content], i) => {
      const callId = `call_${items.length + i}`;
      items.push({ type: "tool_call", callId, name: "some_tool", arguments: "{}" });
      const result: ToolResultItem = { type: "tool_result", callId, name: "some_tool", summary };
      if (content !== undefined) result.content = content;
      items.push(result);
    });
  }
  return items;
}

function summaryAt(items: readonly Item[], index: number): string {
  const item = items[index];
  if (item?.type !== "tool_result") throw new Error(`item ${index} is not a tool result`);
  return item.summary;
}

describe("prunableIndices (seed 003 tests)", () => {
  it("no candidates when too few turns", () => {
    const items = makeHistory([
      ["turn1", [["summary1", "big content here"]]],
      ["turn2", [["summary2", "more content"]]],
    ]);
    expect(prunableIndices(items, 3)).toEqual([]);
  });

  it("candidates in unprotected turns", () => {
    const big = "x".repeat(4096 * 4);
    const items = makeHistory([
      ["turn1", [["s1", big]]],
      ["turn2", [["s2", big]]],
      ["turn3", [["s3", "keep me"]]],
      ["turn4", [["s4", "keep me too"]]],
    ]);
    const candidates = prunableIndices(items, 2);
    expect(candidates).toHaveLength(2);
    // Only the tool results of turn1 and turn2.
    expect(candidates.map((i) => summaryAt(items, i))).toEqual(["s1", "s2"]);
  });

  it("already pruned items excluded from candidates", () => {
    const items = makeHistory([
      ["turn1", [["s1", undefined]]], // already pruned: no content
      ["turn2", []],
      ["turn3", []],
      ["turn4", []],
    ]);
    expect(prunableIndices(items, 2)).toEqual([]);
  });

  it("protected turns boundary exact", () => {
    // 3 turns with protectedTurns = 2: only turn 1 is a candidate.
    const items = makeHistory([
      ["turn1", [["s1", "x".repeat(64)]]],
      ["turn2", [["s2", "protected"]]],
      ["turn3", [["s3", "also protected"]]],
    ]);
    const candidates = prunableIndices(items, 2);
    expect(candidates).toHaveLength(1);
    expect(summaryAt(items, candidates[0] ?? -1)).toBe("s1");
  });
});

describe("prunableIndices beyond the seed's tests", () => {
  it("returns exact indices, ascending, and only tool results", () => {
    // 0 user, 1 assistant, 2 call, 3 result, 4 call, 5 result | 6 user, 7 assistant, 8 call, 9 result
    const items = makeHistory([
      [
        "turn1",
        [
          ["a", "A"],
          ["b", "B"],
        ],
      ],
      ["turn2", [["c", "C"]]],
    ]);
    expect(prunableIndices(items, 1)).toEqual([3, 5]);
  });

  it("counts items before the first user message as unprotected", () => {
    const items: Item[] = [
      { type: "tool_result", callId: "early", name: "t", summary: "s", content: "c" },
      ...makeHistory([
        ["turn1", []],
        ["turn2", []],
      ]),
    ];
    expect(prunableIndices(items, 1)).toEqual([0]);
    expect(prunableIndices(items, 2)).toEqual([]);
  });

  it("protects nothing with protectedTurns 0, even without user messages", () => {
    const items = makeHistory([["turn1", [["a", "A"]]]]);
    expect(prunableIndices(items, 0)).toEqual([3]);
    expect(prunableIndices(items.slice(2), 0)).toEqual([1]);
  });

  it("has the seed's defaults", () => {
    expect(DEFAULT_PRUNE_CONFIG).toEqual({ protectedTurns: 3, minSavings: 4096, protectedTailTokens: 0 });
  });
});

describe("pruneItems", () => {
  const items = makeHistory([
    ["turn1", [["s1", "content one"]]],
    ["turn2", [["s2", "content two"]]],
  ]);

  it("returns a new array where the chosen results keep their summary and lose their content", () => {
    const pruned = pruneItems(items, [3]);
    expect(pruned).not.toBe(items);
    expect(pruned[3]).toEqual({ type: "tool_result", callId: "call_2", name: "some_tool", summary: "s1" });
    expect(pruned[3]).not.toHaveProperty("content");
    expect(pruned[7]).toBe(items[7]);
    expect(pruned.slice(0, 3)).toEqual(items.slice(0, 3));
  });

  it("never mutates its input array or items", () => {
    const before = structuredClone(items);
    const itemsRef = items.slice();
    pruneItems(items, [3, 7]);
    expect(items).toEqual(before);
    expect(items.every((item, i) => item === itemsRef[i])).toBe(true);
  });

  it("keeps error marks and leaves non-results, results without content and bad indices alone", () => {
    const errorResult: ToolResultItem = {
      type: "tool_result",
      callId: "e",
      name: "t",
      summary: "failed",
      content: "stack trace",
      isError: true,
    };
    const noContent: ToolResultItem = { type: "tool_result", callId: "n", name: "t", summary: "s" };
    const list: Item[] = [userMessage("hi"), errorResult, noContent];
    const pruned = pruneItems(list, [0, 1, 2, 9, -1]);
    expect(pruned[0]).toBe(list[0]);
    expect(pruned[1]).toEqual({
      type: "tool_result",
      callId: "e",
      name: "t",
      summary: "failed",
      isError: true,
    });
    expect(pruned[2]).toBe(noContent);
    expect(pruned).toHaveLength(3);
  });
});
