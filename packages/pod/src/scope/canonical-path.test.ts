import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalize } from "./canonical-path.js";

let base: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-canonical-")));
  mkdirSync(path.join(base, "dir/sub"), { recursive: true });
  writeFileSync(path.join(base, "dir/file.txt"), "x");
  symlinkSync("dir", path.join(base, "to-dir"));
  symlinkSync("../elsewhere/new.txt", path.join(base, "dir/dangling"));
  symlinkSync("dir/dangling", path.join(base, "chain"));
  symlinkSync("loop-b", path.join(base, "loop-a"));
  symlinkSync("loop-a", path.join(base, "loop-b"));
  symlinkSync("sub/..", path.join(base, "dir/up"));
  symlinkSync("dir/sub", path.join(base, "to-sub"));
  symlinkSync("to-sub/../new.txt", path.join(base, "jump"));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("canonicalize", () => {
  it("returns the real path of an existing path", async () => {
    expect(await canonicalize(path.join(base, "to-dir/file.txt"))).toEqual({
      real: path.join(base, "dir/file.txt"),
      exists: true,
    });
  });

  it("appends missing names to the real path of the deepest existing ancestor", async () => {
    expect(await canonicalize(path.join(base, "to-dir/new/deeper/x.txt"))).toEqual({
      real: path.join(base, "dir/new/deeper/x.txt"),
      exists: false,
    });
  });

  it("follows a dangling link to where it points", async () => {
    expect(await canonicalize(path.join(base, "dir/dangling"))).toEqual({
      real: path.join(base, "elsewhere/new.txt"),
      exists: false,
    });
  });

  it("follows a chain of links that ends dangling, and names below it", async () => {
    expect(await canonicalize(path.join(base, "chain/below"))).toEqual({
      real: path.join(base, "elsewhere/new.txt/below"),
      exists: false,
    });
  });

  it("resolves `..` in a link target against the real directory holding the link", async () => {
    expect(await canonicalize(path.join(base, "dir/up/file.txt"))).toEqual({
      real: path.join(base, "dir/file.txt"),
      exists: true,
    });
  });

  it("resolves `..` after a link in a dangling link's target physically, as the kernel does", async () => {
    expect(await canonicalize(path.join(base, "jump"))).toEqual({
      real: path.join(base, "dir/new.txt"),
      exists: false,
    });
  });

  it("resolves `..` in the input lexically", async () => {
    expect((await canonicalize(path.join(base, "to-dir/../dir/file.txt"))).real).toBe(
      path.join(base, "dir/file.txt"),
    );
  });

  it("treats a name under a regular file as missing", async () => {
    expect(await canonicalize(path.join(base, "dir/file.txt/x"))).toEqual({
      real: path.join(base, "dir/file.txt/x"),
      exists: false,
    });
  });

  it("reports a symbolic-link loop as ELOOP", async () => {
    await expect(canonicalize(path.join(base, "loop-a"))).rejects.toMatchObject({ code: "ELOOP" });
    await expect(canonicalize(path.join(base, "loop-a/x"))).rejects.toMatchObject({ code: "ELOOP" });
  });
});
