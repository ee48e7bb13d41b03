import { describe, expect, it } from "vitest";
import { fitLines, takeLines } from "./fit-lines.js";

const bytes = (lines: string[]) => lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);

describe("fitLines", () => {
  it("keeps lines that fit", () => {
    expect(fitLines(["a", "bb"], 3)).toEqual(["a", "bb"]);
  });

  it("keeps short lines whole and shares the rest among the long ones", () => {
    const fitted = fitLines(["short", "x".repeat(1000), "tiny", "y".repeat(50)], 60);
    expect(fitted[0]).toBe("short");
    expect(fitted[2]).toBe("tiny");
    // 60 - 9 = 51 bytes left for two long lines: 26 and 25, each ending with the 3-byte marker.
    expect(fitted[1]).toBe(`${"x".repeat(23)}…`);
    expect(fitted[3]).toBe(`${"y".repeat(22)}…`);
    expect(bytes(fitted)).toBeLessThanOrEqual(60);
  });
});

describe("takeLines", () => {
  const more = (n: number) => `… (+${n} more)`;

  it("drops whole lines from the end and says how many", () => {
    const lines = ["a", "b", "c", "d"].map((letter) => letter.repeat(10));
    const kept = takeLines(lines, 35, more);
    expect(kept).toEqual([lines[0], lines[1], "… (+2 more)"]);
    expect(Buffer.byteLength(kept.join("\n"))).toBeLessThanOrEqual(35);
    expect(takeLines(lines, 43, more)).toEqual(lines);
  });

  it("cuts a first line that alone is too long", () => {
    expect(takeLines(["x".repeat(100)], 10, more)).toEqual([`${"x".repeat(7)}…`]);
  });
});
