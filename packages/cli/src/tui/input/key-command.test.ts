import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { NO_KEY } from "./escape-keys.js";
import { keyCommands } from "./key-command.js";

const none: Key = NO_KEY;
const key = (overrides: Partial<Key>): Key => ({ ...none, ...overrides });

describe("keyCommands", () => {
  it("submits on Enter and inserts a newline on Shift+Enter, Alt+Enter and Ctrl+J", () => {
    expect(keyCommands("\r", key({ return: true }))).toEqual([{ type: "submit" }]);
    expect(keyCommands("\r", key({ return: true, shift: true }))).toEqual([{ type: "newline" }]);
    expect(keyCommands("\r", key({ return: true, meta: true }))).toEqual([{ type: "newline" }]);
    expect(keyCommands("\n", none)).toEqual([{ type: "newline" }]);
  });

  it("reads text holding control characters key by key, never inserting a control byte", () => {
    expect(keyCommands("hello\r", none)).toEqual([{ type: "insert", text: "hello" }, { type: "submit" }]);
    expect(keyCommands("one\ntwo\x7f\x15\x17\x1c", none)).toEqual([
      { type: "insert", text: "one" },
      { type: "newline" },
      { type: "insert", text: "two" },
      { type: "backspace" },
      { type: "kill_line_start" },
      { type: "delete_word" },
      { type: "ignore" },
    ]);
  });

  it("maps control keys, treats DEL as backspace and ignores Alt+letters", () => {
    expect(keyCommands("c", key({ ctrl: true }))).toEqual([{ type: "interrupt" }]);
    expect(keyCommands("t", key({ ctrl: true }))).toEqual([{ type: "toggle_thinking" }]);
    expect(keyCommands("w", key({ ctrl: true }))).toEqual([{ type: "delete_word" }]);
    expect(keyCommands("", key({ delete: true }))).toEqual([{ type: "backspace" }]);
    expect(keyCommands("", key({ escape: true, meta: true }))).toEqual([{ type: "escape" }]);
    expect(keyCommands("b", key({ meta: true }))).toEqual([{ type: "ignore" }]);
    expect(keyCommands("é", none)).toEqual([{ type: "insert", text: "é" }]);
  });
});
