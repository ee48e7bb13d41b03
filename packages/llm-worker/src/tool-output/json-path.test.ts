import { describe, expect, it } from "vitest";
import { resolvePath } from "./json-path.js";

const root = { results: [{ name: "a", tags: ["x", "y"] }], "a.b": { c: 1 }, empty: {}, none: [] };

describe("resolvePath", () => {
  it("walks keys and array indices", () => {
    expect(resolvePath(root, ["results", "0", "tags", "1"])).toBe("y");
    expect(resolvePath(root, [])).toBe(root);
  });

  it("finds a key that holds a dot", () => {
    expect(resolvePath(root, ["a", "b"])).toEqual({ c: 1 });
  });

  it("says what is there instead", () => {
    expect(() => resolvePath(root, ["result"])).toThrow(
      'no key "result" at the top level; its keys: results, a.b, empty, none',
    );
    expect(() => resolvePath(root, ["results", "1"])).toThrow(
      '"results" is an array of 1 entries: "1" is not one of its indices 0 to 0',
    );
    expect(() => resolvePath(root, ["results", "name"])).toThrow(/"name" is not one of its indices/);
    expect(() => resolvePath(root, ["results", "0", "name", "x"])).toThrow(
      '"results.0.name" is a string (1 byte): it has no "x" inside',
    );
    expect(() => resolvePath(root, ["none", "0"])).toThrow('"none" is an empty array: it has no "0"');
    expect(() => resolvePath(root, ["empty", "k"])).toThrow('"empty" is an empty object: it has no key "k"');
  });
});
