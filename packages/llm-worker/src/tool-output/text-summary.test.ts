import { describe, expect, it } from "vitest";
import { summarizeText } from "./text-summary.js";

const ID = "01890a5d-ac96-774b-bcce-b302099a8057";
const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");
const wellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

describe("summarizeText", () => {
  it("follows the seed's layout byte for byte", () => {
    expect(summarizeText(ID, numbered(20))).toBe(
      [
        `[blob:${ID}] text | 20 lines`,
        "── head ──",
        "line 1",
        "line 2",
        "line 3",
        "line 4",
        "line 5",
        "── tail ──",
        "line 18",
        "line 19",
        "line 20",
      ].join("\n"),
    );
  });

  it("never repeats a head line in the tail of a short text", () => {
    // 8 lines: head 1-5, tail 6-8 exactly.
    expect(summarizeText(ID, numbered(8)).split("\n").slice(1)).toEqual([
      "── head ──",
      ...["line 1", "line 2", "line 3", "line 4", "line 5"],
      "── tail ──",
      ...["line 6", "line 7", "line 8"],
    ]);
    // 6 lines: the tail holds only line 6.
    expect(summarizeText(ID, numbered(6)).split("\n").slice(-2)).toEqual(["── tail ──", "line 6"]);
    // At most 5 lines: no tail section at all.
    expect(summarizeText(ID, numbered(3))).toBe(
      `[blob:${ID}] text | 3 lines\n── head ──\nline 1\nline 2\nline 3`,
    );
  });

  it("is the header alone for an empty text", () => {
    expect(summarizeText(ID, "")).toBe(`[blob:${ID}] text | 0 lines`);
  });

  it("cuts a one-line megabyte text with a marker, within 400 bytes", () => {
    const summary = summarizeText(ID, "x".repeat(1_000_000));
    const [header, rule, line, ...rest] = summary.split("\n");
    expect(header).toBe(`[blob:${ID}] text | 1 lines`);
    expect(rule).toBe("── head ──");
    expect(rest).toEqual([]);
    expect(line).toMatch(/^x+…$/);
    expect(bytesOf(summary)).toBe(400);
  });

  it("shares the room fairly: long lines are cut, short ones stay whole", () => {
    const text = [
      "short",
      "y".repeat(5000),
      "also short",
      "",
      "z",
      "m".repeat(300),
      "n".repeat(300),
      "end",
    ].join("\n");
    const lines = summarizeText(ID, text).split("\n");
    expect(lines).toContain("short");
    expect(lines).toContain("also short");
    expect(lines).toContain("end");
    const cut = lines.filter((line) => line.endsWith("…"));
    expect(cut).toHaveLength(3);
    // The three cut lines got equal shares (give or take the byte a division leaves over).
    const sizes = cut.map(bytesOf);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it("never splits a multi-byte character at the cut, and stays within 400 bytes", () => {
    const alphabets = ["日本語のテキスト", "😀🎉🚀", "é", "ascii"];
    for (let seed = 0; seed < 200; seed++) {
      const parts: string[] = [];
      const lineCount = 1 + (seed % 12);
      for (let line = 0; line < lineCount; line++) {
        const alphabet = alphabets[(seed + line) % alphabets.length] ?? "";
        parts.push(alphabet.repeat(1 + ((seed * 7 + line * 13) % 60)));
      }
      const summary = summarizeText(ID, parts.join("\n"));
      expect(bytesOf(summary)).toBeLessThanOrEqual(400);
      expect(wellFormed(summary)).toBe(true);
    }
  });

  it("counts lines as Rust does: CRLF and a final newline", () => {
    expect(summarizeText(ID, "a\r\nb\r\n")).toBe(`[blob:${ID}] text | 2 lines\n── head ──\na\nb`);
  });

  it("holds to a smaller limit when asked", () => {
    expect(bytesOf(summarizeText(ID, numbered(100), 120))).toBeLessThanOrEqual(120);
  });
});

describe("summarizeText with more room than the seed's 400 bytes", () => {
  it("grows the head and tail in the seed's 5:3 proportion while their lines fit whole", () => {
    const summary = summarizeText(ID, numbered(200), 1_024);
    expect(bytesOf(summary)).toBeLessThanOrEqual(1_024);
    const lines = summary.split("\n");
    const head = lines.slice(2, lines.indexOf("── tail ──"));
    const tail = lines.slice(lines.indexOf("── tail ──") + 1);
    expect(head.length).toBeGreaterThan(5);
    expect(tail.length).toBeGreaterThan(3);
    expect(Math.abs(head.length * 3 - tail.length * 5)).toBeLessThanOrEqual(5);
    expect(head[0]).toBe("line 1");
    expect(tail.at(-1)).toBe("line 200");
    expect(lines.every((line) => !line.endsWith("…"))).toBe(true);
  });

  it("never repeats a line, and keeps the seed's 5 and 3 at the seed's limit", () => {
    expect(summarizeText(ID, numbered(30), 4_096).split("\n")).toHaveLength(30 + 3);
    expect(summarizeText(ID, numbered(200), 400)).toBe(summarizeText(ID, numbered(200)));
  });
});
