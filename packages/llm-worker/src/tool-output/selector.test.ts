import { describe, expect, it } from "vitest";
import { parseSelector, SelectorError } from "./selector.js";

describe("parseSelector", () => {
  it.each([
    ["lines:20-50", { kind: "lines", from: 20, to: 50 }],
    ["lines:20-", { kind: "lines", from: 20 }],
    ["lines:7", { kind: "lines", from: 7, to: 7 }],
    [" lines: 3-4 ", { kind: "lines", from: 3, to: 4 }],
    ["bytes:0..16384", { kind: "bytes", from: 0, to: 16384 }],
    ["bytes:100..", { kind: "bytes", from: 100 }],
    ["slice:3..8", { kind: "slice", path: [], from: 3, to: 8 }],
    ["slice:10..", { kind: "slice", path: [], from: 10 }],
    ["slice:..5", { kind: "slice", path: [], from: 0, to: 5 }],
    ["slice:4", { kind: "slice", path: [], from: 4, to: 5 }],
    ["slice:results.3..8", { kind: "slice", path: ["results"], from: 3, to: 8 }],
    ["slice:data.items.0..", { kind: "slice", path: ["data", "items"], from: 0 }],
    ["slice:1.2..5", { kind: "slice", path: ["1"], from: 2, to: 5 }],
    ["key:results", { kind: "key", path: ["results"] }],
    ["key:results.0.name", { kind: "key", path: ["results", "0", "name"] }],
  ])("reads %j", (text, expected) => {
    expect(parseSelector(text)).toEqual(expected);
  });

  it.each([
    ["results", /has no kind/],
    ["lines:", /nothing follows the colon/],
    ["lines:0-5", /counted from 1/],
    ["lines:50-20", /ends \(20\) before it starts \(50\)/],
    ["lines:a-b", /"a" is not a whole number/],
    ["lines:-5", /"" is not a whole number/],
    ["slice:8..3", /ends \(3\) before it starts \(8\)/],
    ["slice:-1..2", /"-1" is not a whole number/],
    ["key:a..b", /empty part/],
    ["rows:1-2", /unknown kind "rows"/],
  ])("rejects %j and lists what is valid", (text, why) => {
    let error: unknown;
    try {
      parseSelector(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SelectorError);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toContain('valid selectors: none (overview), "lines:20-50"');
  });
});
