import { describe, expect, it } from "vitest";
import { flattenSegments, parseSegments, type Segment } from "./segments.js";

const text = (t: string): Segment => ({ type: "text", text: t });
const ref = (path: string): Segment => ({ type: "file_ref", path });

describe("flattenSegments", () => {
  it("keeps text and leaves a placeholder per file reference, in order", () => {
    expect(flattenSegments([text("compare "), ref("a.ts"), text(" and "), ref("b/c.md")])).toBe(
      "compare [unresolved file ref: a.ts] and [unresolved file ref: b/c.md]",
    );
  });
  it("writes an attached file's reference as @path (quoted with whitespace), a failed one as its placeholder", () => {
    const attached = new Set(["a.ts", "my notes.md"]);
    expect(
      flattenSegments(
        [ref("a.ts"), text(" vs "), ref("gone.ts"), text(" in "), ref("my notes.md")],
        attached,
      ),
    ).toBe('@a.ts vs [unresolved file ref: gone.ts] in @"my notes.md"');
  });
  it("flattens no segments to the empty string", () => {
    expect(flattenSegments([])).toBe("");
  });
});

describe("parseSegments", () => {
  it("turns @<path> tokens into file references", () => {
    expect(parseSegments("explain @src/a.ts and @docs/guide.md")).toEqual([
      text("explain "),
      ref("src/a.ts"),
      text(" and "),
      ref("docs/guide.md"),
    ]);
  });
  it("accepts a reference at the very start and at the very end", () => {
    expect(parseSegments("@README.md")).toEqual([ref("README.md")]);
    expect(parseSegments("@a.ts\n@b.ts")).toEqual([ref("a.ts"), text("\n"), ref("b.ts")]);
  });
  it("leaves emails and other mid-word @ as text", () => {
    expect(parseSegments("mail user@example.com or a@b")).toEqual([text("mail user@example.com or a@b")]);
  });
  it("drops the punctuation that ends a sentence or clause", () => {
    expect(parseSegments("see @src/a.ts, then @b.md.")).toEqual([
      text("see "),
      ref("src/a.ts"),
      text(", then "),
      ref("b.md"),
      text("."),
    ]);
    expect(parseSegments("(@a.ts)")).toEqual([text("("), ref("a.ts"), text(")")]);
  });
  it("reads a quoted path with spaces, and leaves an unclosed quote as text", () => {
    expect(parseSegments('read @"my notes.md" now')).toEqual([
      text("read "),
      ref("my notes.md"),
      text(" now"),
    ]);
    expect(parseSegments('read @"my notes.md')).toEqual([text('read @"my notes.md')]);
  });
  it("reads @@ as a literal @ that starts no reference", () => {
    expect(parseSegments("install @@types/node")).toEqual([text("install @types/node")]);
    expect(parseSegments("@@")).toEqual([text("@")]);
  });
  it("leaves a lone @ as text", () => {
    expect(parseSegments("at @ noon @")).toEqual([text("at @ noon @")]);
    expect(parseSegments("@.")).toEqual([text("@.")]);
  });
  it("round-trips: text without references flattens back to itself", () => {
    const input = "no refs here, just a@b and @@";
    expect(flattenSegments(parseSegments(input))).toBe("no refs here, just a@b and @");
  });
});
