import { parseSegments } from "@yoake/pod";
import { describe, expect, it } from "vitest";
import { completeFileRef, fileRefQueryAt, fileRefToken } from "./file-ref-token.js";
import { bufferOf } from "./text-buffer.js";

describe("file reference tokens", () => {
  it("finds the @ token being written, where parseSegments would start one", () => {
    expect(fileRefQueryAt(bufferOf("explain @src/gr"))).toEqual({ start: 8, end: 15, query: "src/gr" });
    expect(fileRefQueryAt(bufferOf("@"))).toEqual({ start: 0, end: 1, query: "" });
    expect(fileRefQueryAt(bufferOf("see (@doc"))).toMatchObject({ start: 5, query: "doc" });
    // The token runs on after the cursor: it is all replaced.
    expect(fileRefQueryAt(bufferOf("@srcXYZ more", 4))).toEqual({ start: 0, end: 7, query: "src" });
  });

  it("ignores mail addresses, @@ literals, finished tokens and quoted references", () => {
    expect(fileRefQueryAt(bufferOf("mail me@example"))).toBeUndefined();
    expect(fileRefQueryAt(bufferOf("@@types"))).toBeUndefined();
    expect(fileRefQueryAt(bufferOf("@a.ts "))).toBeUndefined();
    expect(fileRefQueryAt(bufferOf('@"my no'))).toBeUndefined();
  });

  it("writes paths so that parseSegments reads them back whole", () => {
    for (const path of ["src/a.ts", "my notes.md", "docs/v1.", "@scoped/pkg.json", "a(b).ts"]) {
      const segments = parseSegments(`look at ${fileRefToken(path)} now`);
      expect(segments).toContainEqual({ type: "file_ref", path });
    }
  });

  it("completes the token with the chosen path and a space", () => {
    const buffer = bufferOf("explain @gre and more", 12);
    const query = fileRefQueryAt(buffer);
    if (query === undefined) throw new Error("no token");
    expect(completeFileRef(buffer, query, "src/greet.ts")).toEqual({
      text: "explain @src/greet.ts and more",
      cursor: 22,
    });
    const atEnd = bufferOf("@no");
    const endQuery = fileRefQueryAt(atEnd);
    if (endQuery === undefined) throw new Error("no token");
    expect(completeFileRef(atEnd, endQuery, "my notes.md")).toEqual({ text: '@"my notes.md" ', cursor: 15 });
  });
});
