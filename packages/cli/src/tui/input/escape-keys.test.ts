import { describe, expect, it } from "vitest";
import { escapeKey } from "./escape-keys.js";

const read = (sequence: string) => {
  const { input, key } = escapeKey(sequence);
  return [
    input,
    ...Object.entries(key)
      .filter(([, on]) => on === true)
      .map(([name]) => name),
  ];
};

describe("escapeKey", () => {
  it("reads arrows, Home / End, Delete and Shift+Tab in their xterm and SS3 forms", () => {
    expect(read("\x1b[A")).toEqual(["", "upArrow"]);
    expect(read("\x1bOD")).toEqual(["", "leftArrow"]);
    expect(read("\x1b[1;5C")).toEqual(["", "rightArrow", "ctrl"]);
    expect(read("\x1b[H")).toEqual(["", "home"]);
    expect(read("\x1b[4~")).toEqual(["", "end"]);
    expect(read("\x1b[3~")).toEqual(["", "delete"]);
    expect(read("\x1b[Z")).toEqual(["", "shift", "tab"]);
  });

  it("reads Esc, Alt+Enter, Alt+letter and the kitty protocol's Shift+Enter and Ctrl+letter", () => {
    expect(read("\x1b")).toEqual(["", "escape", "meta"]);
    expect(read("\x1b\r")).toEqual(["\r", "return", "meta"]);
    expect(read("\x1bb")).toEqual(["b", "meta"]);
    expect(read("\x1b[13;2u")).toEqual(["\r", "return", "shift"]);
    expect(read("\x1b[99;5u")).toEqual(["c", "ctrl"]);
    expect(read("\x1b[27u")).toEqual(["", "escape", "meta"]);
    expect(read("\x1b[97;1:3u")).toEqual([""]);
  });

  it("types nothing for what a terminal reports or sends for keys the UI does not use", () => {
    expect(read("\x1b[I")).toEqual([""]);
    expect(read("\x1b[38;5;196m")).toEqual([""]);
    expect(read("\x1b[15~")).toEqual([""]);
  });
});
