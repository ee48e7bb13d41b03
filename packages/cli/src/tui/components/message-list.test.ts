import { describe, expect, it } from "vitest";
import { lineRows } from "../input/visible-lines.js";
import { latestRows } from "./message-list.js";

const streaming = (text: string) => ({ kind: "assistant" as const, id: "a", text, done: false });
const rowsOf = (text: string, columns: number) =>
  text.split("\n").reduce((rows, line) => rows + lineRows(line, columns), 0);

describe("latestRows", () => {
  it("keeps a streaming answer of one long line to the rows it may take, its end in view", () => {
    const text = Array.from({ length: 500 }, (_, i) => `word${i}`).join(" ");
    const shown = latestRows(streaming(text), 10, 50);
    if (shown.kind !== "assistant") throw new Error("not an answer");
    expect(rowsOf(shown.text, 50)).toBeLessThanOrEqual(10);
    expect(shown.text).toMatch(/^… \d+ earlier line\(s\)\n/);
    expect(shown.text.endsWith("word499")).toBe(true);
  });

  it("keeps the latest lines of a tall answer, and a short one whole", () => {
    const tall = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const shown = latestRows(streaming(tall), 10, 50);
    if (shown.kind !== "assistant") throw new Error("not an answer");
    expect(shown.text).toBe(
      `… 21 earlier line(s)\n${Array.from({ length: 9 }, (_, i) => `line ${i + 22}`).join("\n")}`,
    );
    expect(latestRows(streaming("short"), 10, 50)).toEqual(streaming("short"));
  });
});
