import { describe, expect, it } from "vitest";
import { byteSpan, cutToBytes, utf8Length, utf8Prefix } from "./utf8.js";

const SAMPLES = [
  "plain ascii",
  "日本語のテキスト",
  "emoji 😀🎉 mixed é ü",
  "a😀b",
  "\u{1F468}\u200D\u{1F469}",
  "",
];

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");
/** True when `text` survives a UTF-8 round trip: no broken or lone surrogate in it. */
const wellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;

describe("utf8Prefix", () => {
  it("never splits a character, and takes as much as fits", () => {
    for (const sample of SAMPLES) {
      for (let max = 0; max <= bytesOf(sample) + 2; max++) {
        const prefix = utf8Prefix(sample, max);
        expect(sample.startsWith(prefix)).toBe(true);
        expect(bytesOf(prefix)).toBeLessThanOrEqual(max);
        expect(wellFormed(prefix)).toBe(true);
        // One more character would not have fitted.
        const next = sample.slice(prefix.length).codePointAt(0);
        if (next !== undefined) expect(bytesOf(prefix + String.fromCodePoint(next))).toBeGreaterThan(max);
      }
    }
  });

  it("agrees with Buffer on lengths", () => {
    for (const sample of [...SAMPLES, "lone \ud800 surrogate"])
      expect(utf8Length(sample)).toBe(bytesOf(sample));
  });
});

describe("cutToBytes", () => {
  it("keeps a text that fits and marks a cut one with …, within the limit", () => {
    expect(cutToBytes("hello", 5)).toBe("hello");
    expect(cutToBytes("hello world", 8)).toBe("hello…");
    // 3-byte characters: 7 bytes hold one character and the marker, not two characters.
    expect(cutToBytes("日本語", 7)).toBe("日…");
    expect(cutToBytes("😀😀", 7)).toBe("😀…");
    expect(cutToBytes("😀😀", 6)).toBe("…");
  });
});

describe("byteSpan", () => {
  it("moves a start inside a character forward and an end inside one back", () => {
    const text = "aあb"; // a=0, あ=1..4, b=4
    expect(byteSpan(text, 0, 2)).toEqual({ start: 0, end: 1, fromByte: 0, toByte: 1 });
    const inside = byteSpan(text, 2, 5);
    expect(text.slice(inside.start, inside.end)).toBe("b");
    expect(inside).toMatchObject({ fromByte: 4, toByte: 5 });
    const whole = byteSpan(text, 1, 4);
    expect(text.slice(whole.start, whole.end)).toBe("あ");
  });
});
