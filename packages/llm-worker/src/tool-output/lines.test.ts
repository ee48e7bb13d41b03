import { describe, expect, it } from "vitest";
import { countLines, firstLines, lastLines, linesBetween } from "./lines.js";

/** Rust's `str::lines`, written the slow obvious way, as the reference. */
function rustLines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (text.endsWith("\n")) parts.pop();
  return parts.map((line, index) =>
    index < parts.length - 1 || text.endsWith("\n") ? line.replace(/\r$/, "") : line,
  );
}

const CASES = [
  "",
  "a",
  "a\n",
  "\n",
  "\n\n",
  "a\nb",
  "a\r\nb\r\n",
  "a\n\nb\n",
  "x\r",
  "one\ntwo\nthree\nfour\nfive\nsix",
];

describe("lines", () => {
  it.each(CASES)("agree with Rust's str::lines on %j", (text) => {
    const reference = rustLines(text);
    expect(countLines(text)).toBe(reference.length);
    for (const count of [0, 1, 2, 5, 10]) {
      expect(firstLines(text, count)).toEqual(reference.slice(0, count));
      expect(lastLines(text, count)).toEqual(count === 0 ? [] : reference.slice(-count));
    }
  });

  it("gives each line's start index", () => {
    expect(linesBetween("ab\ncd\nef", 1, 3)).toEqual([
      { text: "cd", index: 3 },
      { text: "ef", index: 6 },
    ]);
  });
});
