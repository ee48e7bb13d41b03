import { describe, expect, it } from "vitest";
import { type FuzzyMatch, rankPaths } from "../files/fuzzy-match.js";
import { afterSubmit, type EditorState, editorStateOf, editorStep, openFileQuery } from "./editor.js";
import type { KeyCommand } from "./key-command.js";

const files = ["README.md", "src/greet.ts", "src/farewell.ts", "test/greet.test.ts"];
const matchesFor = (query: string): FuzzyMatch[] => rankPaths(query, files, 8);

function press(state: EditorState, ...commands: KeyCommand[]): { state: EditorState; effects: string[] } {
  const effects: string[] = [];
  for (const command of commands) {
    const step = editorStep(state, command, matchesFor);
    state = step.state;
    if (step.effect !== undefined)
      effects.push(step.effect.type === "submit" ? `submit:${step.effect.text}` : step.effect.type);
  }
  return { state, effects };
}
const type = (text: string): KeyCommand => ({ type: "insert", text });

describe("editorStep", () => {
  it("completes an @ reference with the best match on Tab, or another one chosen with Down", () => {
    const tabbed = press(editorStateOf(), type("explain @gre"), { type: "tab" });
    expect(tabbed.state.buffer.text).toBe("explain @src/greet.ts ");
    const chosen = press(editorStateOf(), type("@gre"), { type: "down" }, { type: "submit" });
    expect(chosen.state.buffer.text).toBe("@test/greet.test.ts ");
    // Enter attached the file; it did not send.
    expect(chosen.effects).toEqual([]);
  });

  it("closes the picker on Esc for that token, and Enter then sends", () => {
    const { state, effects } = press(
      editorStateOf(),
      type("see @zz"),
      { type: "escape" },
      { type: "submit" },
    );
    expect(openFileQuery(state)).toBeUndefined();
    expect(effects).toEqual(["submit:see @zz"]);
  });

  it("sends Esc out when no picker is open (it cancels the turn)", () => {
    expect(press(editorStateOf(), type("hi"), { type: "escape" }).effects).toEqual(["escape"]);
  });

  it("edits several lines: newline, a trailing backslash, Up inside the text", () => {
    const { state } = press(editorStateOf(), type("one"), { type: "newline" }, type("two\\"), {
      type: "submit",
    });
    expect(state.buffer.text).toBe("one\ntwo\n");
    const moved = press(state, { type: "up" }, type("!"));
    // From the start of the empty last line, Up lands at the start of "two".
    expect(moved.state.buffer.text).toBe("one\n!two\n");
  });

  it("brings back earlier inputs with Up on the first line, and the draft with Down", () => {
    let state = afterSubmit(afterSubmit(editorStateOf(), "first"), "second");
    state = press(state, type("draft")).state;
    state = press(state, { type: "up" }, { type: "up" }).state;
    expect(state.buffer.text).toBe("first");
    state = press(state, { type: "down" }, { type: "down" }).state;
    expect(state.buffer.text).toBe("draft");
  });

  it("clears on Ctrl+C with text, and asks to leave on Ctrl+C or Ctrl+D without", () => {
    const cleared = press(editorStateOf(), type("abc"), { type: "interrupt" });
    expect(cleared.state.buffer.text).toBe("");
    expect(cleared.effects).toEqual([]);
    expect(press(editorStateOf(), { type: "interrupt" }).effects).toEqual(["interrupt"]);
    expect(press(editorStateOf(), { type: "end_of_input" }).effects).toEqual(["exit"]);
  });

  it("completes a slash command on Tab when only one fits", () => {
    expect(press(editorStateOf(), type("/comp"), { type: "tab" }).state.buffer.text).toBe("/compact ");
    expect(press(editorStateOf(), type("/"), { type: "tab" }).state.buffer.text).toBe("/");
  });
});
