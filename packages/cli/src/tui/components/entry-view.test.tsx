import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { uiReducer } from "../state/ui-reducer.js";
import { type Entry, initialUiState } from "../state/ui-state.js";
import { EntryView } from "./entry-view.js";

/** ink-testing-library's terminal is 100 columns wide; every character here is one column. */
const COLUMNS = 100;
const lines = (frame: string | undefined) => (frame ?? "").split("\n");

describe("EntryView", () => {
  it("wraps a user message wider than the terminal inside it, under its first column of text", () => {
    // Words that fill lines to the last column, and one longer than a line.
    const text = `${"abcd ".repeat(40)}${"z".repeat(130)}`.trim();
    const entry: Entry = { kind: "user", id: "u", text, done: true };
    const shown = lines(render(<EntryView entry={entry} showThinking={false} />).lastFrame());
    for (const line of shown) expect([...line].length).toBeLessThanOrEqual(COLUMNS);
    const body = shown.filter((line) => line.trim() !== "");
    expect(body.length).toBeGreaterThan(1);
    expect(body[0]).toMatch(/^› abcd /);
    expect(body[1]).toMatch(/^ {2}abcd/);
  });

  it("puts an alert's source after its message, on the message's last line when it wraps", () => {
    const message = `the hook failed: ${"and went on failing ".repeat(8)}until it stopped`;
    const entry: Entry = { kind: "alert", id: "a", level: "warn", message, source: "hook:lint", done: true };
    const shown = lines(render(<EntryView entry={entry} showThinking={false} />).lastFrame()).filter(
      (line) => line.trim() !== "",
    );
    expect(shown.length).toBeGreaterThan(1);
    // Read as one text, the label comes last, after the whole message.
    expect(shown.join(" ").replace(/\s+/g, " ").trim()).toBe(`⚠ ${message} (hook:lint)`);
  });

  it("wraps a model's line of escapes where its placeholders end, not where its printable bytes do", () => {
    // 6 columns of placeholders (␛]0;T␇), 95 w and a Z: 102 columns, one more row than the text alone.
    const text = `\x1b]0;T\x07${"w".repeat(COLUMNS - 5)}Z`;
    const state = uiReducer(initialUiState, {
      type: "pod_event",
      event: { type: "text_complete", index: 0, text },
      at: 0,
    });
    const entry = state.committed[0] as Entry;
    const shown = lines(render(<EntryView entry={entry} showThinking={false} />).lastFrame()).filter(
      (line) => line.trim() !== "",
    );
    expect(shown).toEqual([`␛]0;T␇${"w".repeat(COLUMNS - 6)}`, "wZ"]);
  });
});
