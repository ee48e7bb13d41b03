/**
 * The context-efficiency benchmark compares our policy with rules written after Codex CLI, Claude
 * Code and opencode, and charges cache writes with a simulated prefix cache. Those rules and that
 * meter decide the comparison, so they are pinned here.
 */
import { describe, expect, it } from "vitest";
import { PromptMeter } from "../../bench/context/meter.js";
import { CLAUDE_CODE_PERSIST_ABOVE_CHARS, claudeCodeRule } from "../../bench/context/policies/claude-code.js";
import { CODEX_MAX_BYTES, codexTruncate } from "../../bench/context/policies/codex.js";
import {
  OPENCODE_CLEARED,
  OpencodePrune,
  opencodeTruncateRule,
} from "../../bench/context/policies/opencode.js";
import { Disk } from "../../bench/context/tools.js";
import { type Item, type ToolContext, type ToolResultItem, userMessage } from "../../src/index.js";

const numbered = (count: number, width = 40): string =>
  Array.from({ length: count }, (_, i) => `line ${i + 1} `.padEnd(width, "x")).join("\n");
const context: ToolContext = { signal: new AbortController().signal, callId: "call_7", toolName: "t" };
const emptyDisk = () =>
  new Disk({
    files: new Map(),
    searches: new Map(),
    listings: new Map(),
    recordsJson: "[]",
    configJson: "{}",
    commands: new Map(),
    apis: new Map(),
  });

describe("Codex CLI rule", () => {
  it("keeps output within 10 KiB and 256 lines", () => {
    const text = numbered(256, 39);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CODEX_MAX_BYTES);
    expect(codexTruncate(text)).toBe(text);
  });

  it("keeps 128 head lines and 128 tail lines of a long output, the middle omitted", () => {
    const out = codexTruncate(numbered(1000, 20));
    expect(out).toContain("line 128 ");
    expect(out).not.toContain("line 129 ");
    expect(out).toContain("\n[... omitted 744 of 1000 lines ...]\n\n");
    expect(out).not.toContain("line 872 ");
    expect(out).toContain("line 873 ");
    expect(out.endsWith(`line 1000 ${"x".repeat(10)}`)).toBe(true);
  });

  it("cuts head and tail to 10 KiB in all when the lines are long", () => {
    const out = codexTruncate(numbered(1000, 200));
    expect(Buffer.byteLength(out)).toBe(CODEX_MAX_BYTES);
    // The head gets 5 KiB: 25 whole lines of 201 bytes and part of the 26th.
    expect(out).toContain("line 26 ");
    expect(out).not.toContain("line 27 ");
    expect(out).toContain("line 1000 ");
  });
});

describe("Claude Code rule", () => {
  it("keeps results up to 50,000 characters whole", () => {
    const text = "a".repeat(CLAUDE_CODE_PERSIST_ABOVE_CHARS);
    expect(claudeCodeRule(emptyDisk())(text, context)).toBe(text);
  });

  it("saves a larger result to a file and shows a 2 KB preview cut at a line", () => {
    const disk = emptyDisk();
    const text = numbered(2000, 40);
    const out = claudeCodeRule(disk)(text, context);
    const path = out.match(/Full output saved to: (\S+)/)?.[1] ?? "";
    expect(path).toMatch(/tool-results\/call_7\.txt$/);
    expect(disk.read(path)).toBe(text);
    expect(out.startsWith("<persisted-output>\nOutput too large (80.1KB).")).toBe(true);
    const preview = out.split("Preview (first 2KB):\n")[1]?.split("\n...\n</persisted-output>")[0] ?? "";
    // 48 whole lines of 41 bytes fit in 2,000 bytes.
    expect(preview).toBe(numbered(48, 40));
  });
});

describe("opencode rules", () => {
  it("truncates at 2,000 lines with a pointer to the saved output", () => {
    const disk = emptyDisk();
    const text = numbered(2500, 10);
    const out = opencodeTruncateRule(disk)(text, context);
    expect(out.startsWith(numbered(2000, 10))).toBe(true);
    expect(out).toContain(
      "\n\n...500 lines truncated...\n\nThe tool call succeeded but the output was truncated.",
    );
    expect(disk.read(out.match(/saved to: (\S+)/)?.[1] ?? "")).toBe(text);
  });

  it("truncates at 50 KB, counting the bytes cut", () => {
    const text = numbered(1000, 100);
    const out = opencodeTruncateRule(emptyDisk())(text, context);
    // 506 lines of 100 bytes and their 505 separators fit in 51,200 bytes.
    expect(
      out.startsWith(`${numbered(506, 100)}\n\n...${Buffer.byteLength(text) - 51_105} bytes truncated...`),
    ).toBe(true);
  });

  /** A user message, then one result per size (in characters, so size / 4 estimated tokens). */
  function turn(n: number, sizes: number[]): Item[] {
    return [
      userMessage(`task ${n}`),
      ...sizes.map(
        (size, i): ToolResultItem => ({
          type: "tool_result",
          callId: `t${n}_${i}`,
          name: "read",
          summary: "s",
          content: "x".repeat(size),
        }),
      ),
    ];
  }

  function sent(prune: OpencodePrune, items: Item[]): Item[] {
    const request = { items };
    prune.onPreRequest({ request, turn: 1, usage: {}, previousUsage: undefined });
    return request.items;
  }

  it("protects the last two turns and the newest 40,000 tokens, and prunes only more than 20,000", () => {
    const prune = new OpencodePrune();
    // 3 results of 10,000 tokens in turn 1; turns 2 and 3 are protected whatever their size.
    const history = [...turn(1, [40_000, 40_000, 40_000]), ...turn(2, [400_000]), ...turn(3, [400_000])];
    prune.prune(history);
    expect(prune.prunes).toBe(0); // 30,000 tokens, all inside the 40,000 protected

    const longer = [
      ...turn(1, [40_000, 40_000, 40_000, 40_000, 40_000, 40_000, 40_000]),
      ...turn(2, [4]),
      ...turn(3, [4]),
    ];
    prune.prune(longer);
    // Newest first: 4 results make 40,000 (protected), the 3 older ones make 30,000 > 20,000.
    expect(prune.prunes).toBe(1);
    const contents = sent(prune, longer).flatMap((item) =>
      item.type === "tool_result" ? [item.content] : [],
    );
    expect(contents.slice(0, 3)).toEqual([OPENCODE_CLEARED, OPENCODE_CLEARED, OPENCODE_CLEARED]);
    expect(contents[3]).toBe("x".repeat(40_000));
  });

  it("does not prune when the older results come to 20,000 tokens or less", () => {
    const prune = new OpencodePrune();
    prune.prune([
      ...turn(1, [40_000, 40_000, 40_000, 40_000, 40_000, 40_000]),
      ...turn(2, []),
      ...turn(3, []),
    ]);
    expect(prune.prunes).toBe(0); // 20,000 older tokens: not more than the minimum
  });
});

describe("prompt meter", () => {
  const body = (...blocks: string[]) => ({
    messages: blocks.map((text, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: [{ type: "text", text }],
    })),
  });

  it("charges a cache write only for what follows the prefix shared with the previous request", () => {
    const meter = new PromptMeter();
    const first = meter.record(body("alpha beta", "gamma"));
    expect(first.cacheReadTokens).toBe(0);
    expect(first.cacheWriteTokens).toBe(first.inputTokens);
    const grown = meter.record(body("alpha beta", "gamma", "delta epsilon"));
    expect(grown.cacheReadTokens).toBe(first.inputTokens);
    expect(grown.cacheWriteTokens).toBe(grown.inputTokens - first.inputTokens);
    // Changing the first block rewrites everything after it.
    const changed = meter.record(body("alpha", "gamma", "delta epsilon"));
    expect(changed.cacheReadTokens).toBe(0);
    expect(meter.requests).toBe(3);
    expect(meter.inputTokens).toBe(first.inputTokens + grown.inputTokens + changed.inputTokens);
  });

  it("ignores cache breakpoints when comparing blocks", () => {
    const meter = new PromptMeter();
    meter.record({
      messages: [{ role: "user", content: [{ type: "text", text: "a b c", cache_control: {} }] }],
    });
    const next = meter.record({ messages: [{ role: "user", content: [{ type: "text", text: "a b c" }] }] });
    expect(next.cacheWriteTokens).toBe(0);
  });
});
