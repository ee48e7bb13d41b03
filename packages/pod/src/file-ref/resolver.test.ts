import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScopeRule } from "../scope/rules.js";
import { ScopedFs } from "../scope/scoped-fs.js";
import { MAX_LISTED_ENTRIES, resolveFileRef } from "./resolver.js";

let base: string;
let project: string;
let fs: ScopedFs;

const allowAll: ScopeRule = { path: ".", access: "write", recursive: true, source: "test" };
const denySecrets: ScopeRule = { path: "secrets", access: "read", recursive: true, source: "test" };

function put(relative: string, content: string | Uint8Array): void {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

beforeEach(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-file-ref-")));
  project = path.join(base, "project");
  mkdirSync(project);
  writeFileSync(path.join(base, "outside.txt"), "outside\n");
  fs = await ScopedFs.create({ root: project, allow: [allowAll], deny: [denySecrets] });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("resolveFileRef", () => {
  it("gives one system message [File: <path>] with the whole body", async () => {
    put("src/a.ts", "export const a = 1;\n");
    const resolved = await resolveFileRef(fs, "src/a.ts");
    expect(resolved).toMatchObject({
      ok: true,
      truncated: false,
      item: { type: "message", role: "system", text: "[File: src/a.ts]\nexport const a = 1;\n" },
      wholeFile: { realPath: path.join(project, "src/a.ts") },
    });
    expect(resolved.ok && Buffer.from(resolved.wholeFile?.bytes ?? []).toString()).toBe(
      "export const a = 1;\n",
    );
  });

  it("cuts a body over the limit and says how big the file is and how to read on", async () => {
    put("big.txt", "x".repeat(20_000));
    const resolved = await resolveFileRef(fs, "big.txt");
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.truncated).toBe(true);
    expect(resolved.wholeFile).toBeUndefined();
    const [header, ...rest] = resolved.item.text.split("\n");
    expect(header).toBe("[File: big.txt]");
    expect(rest).toEqual([
      "x".repeat(16_384),
      "[...truncated, 20000 bytes total — use read_file for the rest]",
    ]);
  });

  it("never cuts inside a UTF-8 character", async () => {
    // 3-byte characters: a 10-byte limit falls inside the fourth one.
    put("kana.txt", "あいうえお");
    const resolved = await resolveFileRef(fs, "kana.txt", 10);
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved.item.text).toBe(
      "[File: kana.txt]\nあいう\n[...truncated, 15 bytes total — use read_file for the rest]",
    );
  });

  it("keeps a file exactly at the limit whole", async () => {
    put("exact.txt", "abcd");
    const resolved = await resolveFileRef(fs, "exact.txt", 4);
    expect(resolved.ok && resolved.item.text).toBe("[File: exact.txt]\nabcd");
  });

  it("refuses binary files: invalid UTF-8, or NUL bytes", async () => {
    // Images are attached instead (image-file.test.ts); an archive is binary.
    put("archive.zip", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]));
    put("nul.bin", "text\0more");
    for (const file of ["archive.zip", "nul.bin"]) {
      const resolved = await resolveFileRef(fs, file);
      expect(resolved).toMatchObject({ ok: false, reason: "binary" });
      expect(!resolved.ok && resolved.message).toContain(`@${file}`);
    }
  });

  it("reports a missing file as not_found", async () => {
    const resolved = await resolveFileRef(fs, "nope/missing.md");
    expect(resolved).toEqual({
      ok: false,
      reason: "not_found",
      message: "could not attach @nope/missing.md: no such file or directory",
    });
  });

  it("refuses paths outside the scope, through .., a deny rule or a symbolic link", async () => {
    put("secrets/key.txt", "hunter2");
    symlinkSync(path.join(base, "outside.txt"), path.join(project, "escape.txt"));
    for (const ref of ["../outside.txt", "secrets/key.txt", "escape.txt"]) {
      const resolved = await resolveFileRef(fs, ref);
      expect(resolved).toMatchObject({ ok: false, reason: "out_of_scope" });
      // The scope's own message says which rule applied.
      expect(!resolved.ok && resolved.message).toMatch(/read refused/);
    }
  });

  it("lists a directory instead of failing, with the entries the scope lets the model read", async () => {
    put("docs/guide.md", "# Guide\n");
    put("docs/sub/deep.md", "deep\n");
    put("secrets/key.txt", "hunter2");
    const docs = await resolveFileRef(fs, "docs");
    expect(docs.ok && docs.item.text).toBe("[Directory: docs]\nguide.md\nsub/");
    const root = await resolveFileRef(fs, ".");
    expect(root.ok && root.item.text).toBe("[Directory: .]\ndocs/");
  });

  it("bounds a directory listing and counts what it left out", async () => {
    for (let i = 0; i < MAX_LISTED_ENTRIES + 5; i++) put(`many/f${String(i).padStart(3, "0")}`, "");
    const resolved = await resolveFileRef(fs, "many");
    if (!resolved.ok) throw new Error(resolved.message);
    const lines = resolved.item.text.split("\n");
    expect(lines).toHaveLength(MAX_LISTED_ENTRIES + 2);
    expect(lines.at(-1)).toBe("[...5 more entries — use glob to list them]");
  });
});
