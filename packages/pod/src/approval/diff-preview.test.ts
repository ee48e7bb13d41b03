import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScopedFs } from "../scope/scoped-fs.js";
import { previewToolCall } from "./diff-preview.js";

let base: string;
let project: string;
let fs: ScopedFs;

beforeEach(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-preview-")));
  project = path.join(base, "project");
  mkdirSync(path.join(project, "src"), { recursive: true });
  writeFileSync(path.join(project, "src/a.ts"), "one\ntwo\nthree\n");
  fs = await ScopedFs.create({
    root: project,
    allow: [{ path: ".", access: "write", recursive: true, source: "test" }],
    deny: [{ path: "locked", access: "write", recursive: true, source: "test" }],
  });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("previewToolCall", () => {
  it("shows an edit as the unified diff the tool will produce, without writing anything", async () => {
    const preview = await previewToolCall(
      fs,
      "edit_file",
      { path: "src/a.ts", old_string: "two", new_string: "TWO" },
      16_384,
    );
    expect(preview).toEqual({
      ok: true,
      path: "src/a.ts",
      diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three",
      truncated: false,
      newFile: false,
    });
    expect(readFileSync(path.join(project, "src/a.ts"), "utf8")).toBe("one\ntwo\nthree\n");
  });

  it("shows a new file as all additions, and creates nothing", async () => {
    const preview = await previewToolCall(fs, "write_file", { path: "new/b.md", content: "hello\n" }, 16_384);
    expect(preview).toMatchObject({ ok: true, newFile: true });
    expect(preview?.ok && preview.diff).toContain("+hello");
    expect(existsSync(path.join(project, "new"))).toBe(false);
  });

  it("says why the call will fail instead of a diff", async () => {
    const cases: Array<[string, unknown, string]> = [
      [
        "edit_file",
        { path: "src/a.ts", old_string: "four", new_string: "x" },
        "old_string is not in the file",
      ],
      ["edit_file", { path: "src/a.ts", old_string: "t", new_string: "x" }, "old_string occurs 2 times"],
      ["edit_file", { path: "src/missing.ts", old_string: "a", new_string: "b" }, "does not exist"],
      ["write_file", { path: "../outside.txt", content: "x" }, "the call will be refused: write refused"],
      ["write_file", { path: "locked/x.txt", content: "x" }, "the call will be refused: write refused"],
      ["write_file", { content: "x" }, "the call names no path"],
    ];
    for (const [tool, args, message] of cases) {
      const preview = await previewToolCall(fs, tool, args, 16_384);
      expect(preview?.ok, JSON.stringify(args)).toBe(false);
      expect(!preview?.ok && preview?.message).toContain(message);
    }
  });

  it("cuts a long diff at a line end", async () => {
    const content = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const preview = await previewToolCall(fs, "write_file", { path: "long.txt", content }, 200);
    if (!preview?.ok) throw new Error("expected a diff");
    expect(preview.truncated).toBe(true);
    expect(Buffer.byteLength(preview.diff)).toBeLessThanOrEqual(200);
    expect(preview.diff.split("\n").at(-1)).toMatch(/^\+line \d+$/);
  });

  it("has nothing to show for other tools", async () => {
    expect(await previewToolCall(fs, "read_file", { path: "src/a.ts" }, 16_384)).toBeUndefined();
  });
});
