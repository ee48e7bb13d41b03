import { describe, expect, it } from "vitest";
import {
  bufferOf,
  deleteBackward,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBackward,
  insertText,
  isOnFirstLine,
  isOnLastLine,
  moveDown,
  moveLeft,
  moveRight,
  moveToLineEnd,
  moveToLineStart,
  moveUp,
} from "./text-buffer.js";

describe("text buffer", () => {
  it("inserts and deletes at the cursor", () => {
    const typed = insertText(bufferOf("held", 3), "l");
    expect(typed).toEqual({ text: "helld", cursor: 4 });
    expect(deleteBackward(typed)).toEqual({ text: "held", cursor: 3 });
    expect(deleteForward(bufferOf("abc", 1))).toEqual({ text: "ac", cursor: 1 });
    expect(deleteBackward(bufferOf("abc", 0))).toEqual({ text: "abc", cursor: 0 });
  });

  it("never splits a surrogate pair", () => {
    const text = "a😀b";
    expect(moveLeft(bufferOf(text, 3)).cursor).toBe(1);
    expect(moveRight(bufferOf(text, 1)).cursor).toBe(3);
    expect(deleteBackward(bufferOf(text, 3))).toEqual({ text: "ab", cursor: 1 });
    expect(deleteForward(bufferOf(text, 1))).toEqual({ text: "ab", cursor: 1 });
  });

  it("moves between lines keeping the column where it can", () => {
    const text = "first line\nab\nthird line";
    const onThird = bufferOf(text, text.length - 2); // "third li|ne", column 8
    const onSecond = moveUp(onThird);
    expect(onSecond.cursor).toBe(13); // clamped to the end of "ab"
    expect(moveUp(onSecond).cursor).toBe(2); // column 2 of the first line
    expect(moveDown(bufferOf(text, 8)).cursor).toBe(13);
    expect(moveUp(bufferOf(text, 3)).cursor).toBe(3);
    expect(isOnFirstLine(bufferOf(text, 10))).toBe(true);
    expect(isOnFirstLine(bufferOf(text, 11))).toBe(false);
    expect(isOnLastLine(bufferOf(text, 14))).toBe(true);
    expect(isOnLastLine(bufferOf(text, 13))).toBe(false);
  });

  it("goes to the start and end of the line, and kills to them", () => {
    const buffer = bufferOf("one\ntwo three\nfour", 8);
    expect(moveToLineStart(buffer).cursor).toBe(4);
    expect(moveToLineEnd(buffer).cursor).toBe(13);
    expect(deleteToLineStart(buffer)).toEqual({ text: "one\nthree\nfour", cursor: 4 });
    expect(deleteToLineEnd(buffer)).toEqual({ text: "one\ntwo \nfour", cursor: 8 });
    // At the end of a line, Ctrl+K joins the next line.
    expect(deleteToLineEnd(bufferOf("a\nb", 1))).toEqual({ text: "ab", cursor: 1 });
  });

  it("deletes the word before the cursor and the spaces after it", () => {
    expect(deleteWordBackward(bufferOf("explain @src/a.ts  "))).toEqual({ text: "explain ", cursor: 8 });
  });
});
