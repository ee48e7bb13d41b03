import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import type { Item, ToolResultItem } from "../llm-client/item.js";
import {
  estimateItemTokens,
  estimateTextTokens,
  ITEM_OVERHEAD_TOKENS,
  itemTokensAtMost,
  SAMPLE_ABOVE_CHARS,
  sumItemTokens,
  textTokensAtMost,
} from "./tokens.js";

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Varied code-like text: no two lines alike, so sampling cannot get lucky. */
function codeLikeText(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line =
      i % 7 === 0
        ? `// step ${i}: recompute the ${i % 3 === 0 ? "cache" : "index"} for entry ${i * 31}`
        : `  const value${i} = compute(${i}, "${(i * 2654435761) % 100000}", [${i % 10}, ${i % 13}]);`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n").slice(0, chars);
}

describe("estimateTextTokens", () => {
  it("counts o200k tokens exactly for ordinary text", () => {
    expect(estimateTextTokens("")).toBe(0);
    expect(estimateTextTokens("hello world")).toBe(2);
    const text = codeLikeText(20_000);
    const exact = countTokens(text, PLAIN);
    // Pieces end at spaces, so the count is exact or within a token or two per piece boundary.
    expect(Math.abs(estimateTextTokens(text) - exact)).toBeLessThanOrEqual(20);
  });

  it("counts special-token text as plain text instead of throwing", () => {
    expect(estimateTextTokens("a <|endoftext|> b")).toBe(countTokens("a <|endoftext|> b", PLAIN));
  });

  it("stays fast on a long run without spaces, where whole-string BPE is quadratic", () => {
    // Whole, countTokens takes ~5 s on this; in 1 KiB pieces a few milliseconds.
    const run = "x".repeat(100_000);
    const started = performance.now();
    expect(estimateTextTokens(run)).toBe(12_500); // o200k: 8 x's per token, 1024 = 128 tokens
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("samples huge texts to within 3% of the exact count", () => {
    const text = codeLikeText(4 * SAMPLE_ABOVE_CHARS);
    const exact = countTokens(text, PLAIN);
    const estimate = estimateTextTokens(text);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.03);
  });
});

describe("estimateItemTokens", () => {
  const result: ToolResultItem = {
    type: "tool_result",
    callId: "c1",
    name: "grep",
    summary: "3 lines | src/a.ts",
    content: "src/a.ts:1: import x\nsrc/a.ts:2: import y\nsrc/a.ts:3: import z",
  };

  it("counts what the model is shown: content while there is one, else the summary", () => {
    const name = estimateTextTokens("grep");
    expect(estimateItemTokens(result)).toBe(
      ITEM_OVERHEAD_TOKENS + name + estimateTextTokens(result.content ?? ""),
    );
    const { content: _content, ...pruned } = result;
    expect(estimateItemTokens(pruned)).toBe(ITEM_OVERHEAD_TOKENS + name + estimateTextTokens(result.summary));
    expect(estimateItemTokens(pruned)).toBeLessThan(estimateItemTokens(result));
  });

  it("counts every item kind", () => {
    const items: Item[] = [
      { type: "message", role: "user", text: "hello world" },
      { type: "reasoning", text: "hello world" },
      { type: "redacted_reasoning", data: "hello world" },
      { type: "tool_call", callId: "c", name: "grep", arguments: '{"q":"x"}' },
      {
        type: "server_tool",
        role: "result",
        id: "s",
        name: "web_search_tool_result",
        payload: { hits: ["a"] },
        origin: "anthropic",
      },
    ];
    expect(items.map(estimateItemTokens)).toEqual([
      ITEM_OVERHEAD_TOKENS + 2,
      ITEM_OVERHEAD_TOKENS + 2,
      ITEM_OVERHEAD_TOKENS + 2,
      ITEM_OVERHEAD_TOKENS + estimateTextTokens("grep") + estimateTextTokens('{"q":"x"}'),
      ITEM_OVERHEAD_TOKENS +
        estimateTextTokens("web_search_tool_result") +
        estimateTextTokens('{"hits":["a"]}'),
    ]);
  });

  it("recounts an item whose text was changed in place", () => {
    const item: Item = { type: "message", role: "user", text: "one" };
    const before = estimateItemTokens(item);
    item.text = "one two three four five";
    expect(estimateItemTokens(item)).toBeGreaterThan(before);
  });

  it("sums a range of items", () => {
    const items: Item[] = [
      { type: "message", role: "user", text: "hello world" },
      { type: "message", role: "user", text: "hello world" },
      { type: "message", role: "user", text: "hello world" },
    ];
    const one = ITEM_OVERHEAD_TOKENS + 2;
    expect(sumItemTokens(items)).toBe(3 * one);
    expect(sumItemTokens(items, estimateItemTokens, 1)).toBe(2 * one);
    expect(sumItemTokens(items, () => 5, 1, 2)).toBe(5);
  });
});

describe("textTokensAtMost and itemTokensAtMost", () => {
  // Texts whose tokens are worst per character: bytes o200k has no merge for, one token each.
  const texts = [
    "",
    "hello world",
    codeLikeText(3_000),
    "\u{1F600}\u{1F9EA}\u{1FAE0}".repeat(200),
    "\u0000\u0001\u0002\u007f".repeat(300),
    "語彙の境界を越えて、ひらがなと漢字と記号「」が混じる文。".repeat(50),
    "\u0fff\u2fff\uabcd\uffef".repeat(400),
    `${"\u{10FFFF}\u0600".repeat(1_000)} ${codeLikeText(2 * SAMPLE_ABOVE_CHARS)}`,
  ];

  it("are never below the estimate, whatever the text", () => {
    for (const text of texts) expect(textTokensAtMost(text)).toBeGreaterThanOrEqual(estimateTextTokens(text));
  });

  it("bound every item kind's estimate", () => {
    for (const text of texts) {
      const items: Item[] = [
        { type: "message", role: "user", text },
        { type: "redacted_reasoning", data: text },
        { type: "tool_call", callId: "c", name: `tool_${text.slice(0, 30)}`, arguments: text },
        { type: "tool_result", callId: "c", name: "grep", summary: text },
        { type: "server_tool", role: "result", id: "s", name: "x", payload: { text }, origin: "anthropic" },
      ];
      for (const item of items)
        expect(itemTokensAtMost(item)).toBeGreaterThanOrEqual(estimateItemTokens(item));
    }
  });
});
