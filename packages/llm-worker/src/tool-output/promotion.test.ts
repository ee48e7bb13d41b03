import { describe, expect, it } from "vitest";
import { inline, stored } from "../tool/tool-output.js";
import { parseJsonContainer, promote } from "./promotion.js";

describe("promote", () => {
  it("keeps a string of up to 800 UTF-8 bytes inline and stores a longer one", () => {
    expect(promote("a".repeat(800))).toEqual({ kind: "inline", text: "a".repeat(800) });
    expect(promote("a".repeat(801))).toEqual({
      kind: "stored",
      content: { kind: "text", text: "a".repeat(801) },
    });
  });

  it("counts bytes, not characters", () => {
    // 267 characters of 3 bytes each: 801 bytes.
    expect(promote("あ".repeat(266)).kind).toBe("inline");
    expect(promote("あ".repeat(267)).kind).toBe("stored");
  });

  it("respects an explicit ToolOutput whatever its size", () => {
    const big = inline("b".repeat(10_000));
    expect(promote(big)).toBe(big);
    const small = stored({ kind: "text", text: "tiny" });
    expect(promote(small)).toBe(small);
  });

  it("stores a long string that is a JSON array or object as structured content", () => {
    const rows = JSON.stringify(
      Array.from({ length: 100 }, (_, id) => ({ id })),
      null,
      2,
    );
    expect(promote(rows)).toEqual({
      kind: "stored",
      content: { kind: "structured", value: Array.from({ length: 100 }, (_, id) => ({ id })) },
    });
  });

  it("keeps a long string as text when it only looks like JSON", () => {
    const broken = `[${"1,".repeat(500)}`;
    expect(promote(broken)).toEqual({ kind: "stored", content: { kind: "text", text: broken } });
    const quoted = JSON.stringify("s".repeat(900));
    expect(promote(quoted)).toEqual({ kind: "stored", content: { kind: "text", text: quoted } });
  });

  it("honours another inline limit", () => {
    expect(promote("abcdef", { inlineLimitBytes: 5 }).kind).toBe("stored");
  });
});

describe("parseJsonContainer", () => {
  it("accepts arrays and objects with surrounding blanks, nothing else", () => {
    expect(parseJsonContainer(' \n {"a":1}\n')).toEqual({ a: 1 });
    expect(parseJsonContainer("[1]")).toEqual([1]);
    expect(parseJsonContainer("42")).toBeUndefined();
    expect(parseJsonContainer("[not json]")).toBeUndefined();
    expect(parseJsonContainer("{} trailing")).toBeUndefined();
  });
});

describe("promote with inlineLimitTokens", () => {
  // "word " is one o200k token: 2,000 of them are 10,000 bytes and 2,000 tokens.
  const words = (count: number) => "word ".repeat(count).trimEnd();

  it("keeps inline what fits in the token limit, however many bytes it has", () => {
    expect(promote(words(1_500), { inlineLimitTokens: 1_536 }).kind).toBe("inline");
    expect(promote(words(1_600), { inlineLimitTokens: 1_536 }).kind).toBe("stored");
  });

  it("counts tokens, not bytes: a dense text of fewer bytes can be stored", () => {
    // Random hex is about 2 to 3 bytes per token: 3,000 bytes are over 1,000 tokens.
    const hex = Array.from({ length: 3_000 }, (_, i) => ((i * 2654435761) >>> 7) % 16)
      .map((n) => n.toString(16))
      .join("");
    expect(promote(hex, { inlineLimitTokens: 1_000 }).kind).toBe("stored");
    expect(promote(words(1_000), { inlineLimitTokens: 1_000 }).kind).toBe("inline");
  });

  it("replaces the byte limit when set", () => {
    expect(promote(words(1_000), { inlineLimitBytes: 800, inlineLimitTokens: 1_536 }).kind).toBe("inline");
  });
});
