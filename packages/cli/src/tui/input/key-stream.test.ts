import { describe, expect, it } from "vitest";
import { KeyStream, PASTE_END, PASTE_START, splitKeys } from "./key-stream.js";

const flags = (press: { key: object }) =>
  Object.entries(press.key)
    .filter(([, on]) => on === true)
    .map(([name]) => name);

describe("splitKeys", () => {
  it("keeps text together and makes each control character its own key", () => {
    const presses = splitKeys("ab\x7f\x15c\x17\r\n\t");
    expect(presses.map((press) => [press.input, ...flags(press)])).toEqual([
      ["ab"],
      ["", "delete"],
      ["u", "ctrl"],
      ["c"],
      ["w", "ctrl"],
      ["\r", "return"],
      ["\n"],
      ["", "tab"],
    ]);
  });
});

describe("KeyStream", () => {
  it("reads runs of keys key by key and an escape sequence as one key", () => {
    const stream = new KeyStream();
    const keys = (raw: string) =>
      stream
        .read(raw)
        .map((input) => (input.type === "key" ? [input.press.input, ...flags(input.press)] : input));
    expect(keys("x")).toEqual([["x"]]);
    expect(keys("hi\x7f")).toEqual([["hi"], ["", "delete"]]);
    expect(keys("\x1b[A")).toEqual([["", "upArrow"]]);
    // Colours in unbracketed input type nothing (ink's own parser throws on some of them).
    expect(keys("\x1b[31m")).toEqual([[""]]);
  });

  it("collects a paste over several events, without control sequences, as one paste", () => {
    const stream = new KeyStream();
    expect(stream.read(PASTE_START)).toEqual([]);
    expect(stream.read("one\r\ntwo\r")).toEqual([]);
    expect(stream.read("\x1b[1m")).toEqual([]);
    expect(stream.read("three\x7f\n")).toEqual([]);
    expect(stream.read(PASTE_END)).toEqual([{ type: "paste", text: "one\ntwo\nthree\n" }]);
    expect(stream.read("ab")).toEqual([{ type: "key", press: { input: "ab", key: expect.any(Object) } }]);
  });
});
