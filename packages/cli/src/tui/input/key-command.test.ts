import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { keyCommands } from "./key-command.js";

const none: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const key = (overrides: Partial<Key>): Key => ({ ...none, ...overrides });

describe("keyCommands", () => {
  it("submits on Enter and inserts a newline on Shift+Enter, Alt+Enter and Ctrl+J", () => {
    expect(keyCommands("\r", key({ return: true }))).toEqual([{ type: "submit" }]);
    expect(keyCommands("\r", key({ return: true, shift: true }))).toEqual([{ type: "newline" }]);
    expect(keyCommands("\r", key({ return: true, meta: true }))).toEqual([{ type: "newline" }]);
    expect(keyCommands("\n", none)).toEqual([{ type: "newline" }]);
  });

  it("reads a chunk of typed text ending in Enter as text, then a submit; pasted line breaks as newlines", () => {
    expect(keyCommands("hello\r", none)).toEqual([{ type: "insert", text: "hello" }, { type: "submit" }]);
    expect(keyCommands("one\r\ntwo\rthree", none)).toEqual([{ type: "insert", text: "one\ntwo\nthree" }]);
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
