import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isCaseInsensitiveAt } from "./case-sensitivity.js";
import type { Scope, ScopeRule } from "./rules.js";
import { ScopeError } from "./scope-error.js";
import { ScopedFs } from "./scoped-fs.js";

let base: string;
let project: string;
let outside: string;

const writeAll: ScopeRule = { path: ".", access: "write", recursive: true, source: "defaults" };

function put(relative: string, content: string): void {
  const file = path.join(base, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function link(relative: string, target: string): void {
  symlinkSync(target, path.join(project, relative));
}

function scope(allow: ScopeRule[], deny: ScopeRule[] = []): Scope {
  return { root: project, allow, deny };
}

async function refusal(promise: Promise<unknown>): Promise<ScopeError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ScopeError);
  return error as ScopeError;
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-scoped-fs-")));
  project = path.join(base, "project");
  outside = path.join(base, "outside");
  put("project/src/a.ts", "export const a = 1;\n");
  put("project/docs/guide.md", "# Guide\n");
  put("project/docs/sub/deep.md", "deep\n");
  put("project/secrets/key.pem", "KEY\n");
  put("project/.git/config", "[core]\n");
  put("outside/secret.txt", "outside secret\n");
  link("link-out", "../outside");
  link("link-in", "src");
  link("file-link-out", "../outside/secret.txt");
  link("dangling-out", "../outside/new.txt");
  link("dangling-in", "src/new.ts");
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("ScopedFs reads", () => {
  it("reads an in-scope file by relative and by absolute path", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    expect(await fs.readFile("src/a.ts")).toBe("export const a = 1;\n");
    expect(await fs.readFile(path.join(project, "src/a.ts"))).toBe("export const a = 1;\n");
    expect(await fs.resolve("link-in/a.ts", "read")).toBe(path.join(project, "src/a.ts"));
  });

  it("refuses `..` that climbs out of the scope and lists the allow rules", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    const error = await refusal(fs.readFile("src/../../outside/secret.txt"));
    expect(error.realPath).toBe(path.join(outside, "secret.txt"));
    expect(error.refusal.reason).toBe("outside");
    expect(error.message).toBe(
      `read refused: "src/../../outside/secret.txt" (${path.join(outside, "secret.txt")}) is outside the scope (no allow rule covers it; allow rules: allow write "." (recursive, from defaults))`,
    );
  });

  it("refuses a link inside the scope that points outside, and a path whose parent is such a link", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    const viaFile = await refusal(fs.readFile("file-link-out"));
    expect(viaFile.message).toContain(`"file-link-out" resolves to ${path.join(outside, "secret.txt")}`);
    const viaParent = await refusal(fs.readFile("link-out/secret.txt"));
    expect(viaParent.realPath).toBe(path.join(outside, "secret.txt"));
    await refusal(fs.readdir("link-out"));
    await refusal(fs.stat("link-out"));
    await refusal(fs.exists("link-out/secret.txt"));
  });

  it("lets a deny rule win over an allow rule, for reads and writes, and names it", async () => {
    const denySecrets: ScopeRule = {
      path: "secrets",
      access: "read",
      recursive: true,
      source: "/p/manifest.toml",
    };
    const fs = await ScopedFs.create(scope([writeAll], [denySecrets]));
    const read = await refusal(fs.readFile("secrets/key.pem"));
    expect(read.message).toBe(
      `read refused: "secrets/key.pem" (${path.join(project, "secrets/key.pem")}) is covered by deny read "secrets" (recursive, from /p/manifest.toml)`,
    );
    expect(read.refusal).toEqual({ reason: "denied", rule: denySecrets });
    await refusal(fs.writeFile("secrets/new.pem", "x"));
    expect(existsSync(path.join(project, "secrets/new.pem"))).toBe(false);
  });

  it("keeps a path under a write deny rule readable", async () => {
    const fs = await ScopedFs.create(scope([writeAll], [{ path: ".git", access: "write", recursive: true }]));
    expect(await fs.readFile(".git/config")).toBe("[core]\n");
    const error = await refusal(fs.writeFile(".git/config", "evil"));
    expect(error.message).toContain('is covered by deny write ".git" (recursive)');
    expect(readFileSync(path.join(project, ".git/config"), "utf8")).toBe("[core]\n");
  });

  it("applies a deny rule to the real path, whatever name reaches it", async () => {
    link("innocent", "secrets/key.pem");
    const fs = await ScopedFs.create(
      scope([writeAll], [{ path: "secrets", access: "read", recursive: true }]),
    );
    const error = await refusal(fs.readFile("innocent"));
    expect(error.refusal.reason).toBe("denied");
  });

  it("covers only direct children with a non-recursive rule", async () => {
    const fs = await ScopedFs.create(scope([{ path: "docs", access: "read", recursive: false }]));
    expect(await fs.readFile("docs/guide.md")).toBe("# Guide\n");
    await refusal(fs.readFile("docs/sub/deep.md"));
    expect(await fs.readdir("docs")).toEqual([
      { name: "guide.md", type: "file" },
      { name: "sub", type: "directory" },
    ]);
    expect(await fs.readdir("docs/sub")).toEqual([]);
  });

  it("lists only entries the scope lets the caller read, links unfollowed", async () => {
    const fs = await ScopedFs.create(
      scope([writeAll], [{ path: "secrets", access: "read", recursive: true }]),
    );
    const names = (await fs.readdir(".")).map((entry) => entry.name);
    expect(names).not.toContain("secrets");
    expect(names).toContain("src");
    expect((await fs.readdir(".")).find((entry) => entry.name === "link-out")).toEqual({
      name: "link-out",
      type: "symlink",
    });
  });

  it("reads a bounded prefix and reports the whole size", async () => {
    put("project/big.txt", "0123456789");
    const fs = await ScopedFs.create(scope([writeAll]));
    const prefix = await fs.readFilePrefix("big.txt", 4);
    expect(prefix.bytes.toString()).toBe("0123");
    expect(prefix.totalBytes).toBe(10);
    expect((await fs.readFilePrefix("big.txt", 100)).bytes.toString()).toBe("0123456789");
    expect((await fs.readFileBytes("big.txt")).length).toBe(10);
  });

  it("refuses to read a directory or a FIFO as a file", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    await expect(fs.readFile("docs")).rejects.toMatchObject({ code: "EISDIR" });
    if (process.platform === "win32") return;
    execFileSync("mkfifo", [path.join(project, "pipe")]);
    await expect(fs.readFilePrefix("pipe", 10)).rejects.toMatchObject({ code: "EINVAL" });
  });

  it("stats and checks existence inside the scope", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    const info = await fs.stat("link-in/a.ts");
    expect(info).toMatchObject({ realPath: path.join(project, "src/a.ts"), type: "file", size: 20 });
    expect(await fs.exists("src/a.ts")).toBe(true);
    expect(await fs.exists("src/missing.ts")).toBe(false);
  });

  it("lets a rule that names a link cover where it points", async () => {
    const fs = await ScopedFs.create(scope([{ path: "link-out", access: "read", recursive: true }]));
    expect(await fs.readFile("link-out/secret.txt")).toBe("outside secret\n");
    expect(await fs.readFile(path.join(outside, "secret.txt"))).toBe("outside secret\n");
  });

  it("reports link loops and NUL bytes as errors of their own", async () => {
    link("loop-a", "loop-b");
    link("loop-b", "loop-a");
    const fs = await ScopedFs.create(scope([writeAll]));
    await expect(fs.readFile("loop-a")).rejects.toMatchObject({ code: "ELOOP" });
    await expect(fs.readFile("a\0b")).rejects.toBeInstanceOf(TypeError);
  });

  it("shows paths relative to the project root when inside it", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    expect(fs.displayPath(path.join(project, "src/a.ts"))).toBe(path.join("src", "a.ts"));
    expect(fs.displayPath(project)).toBe(".");
    expect(fs.displayPath(path.join(outside, "secret.txt"))).toBe(path.join(outside, "secret.txt"));
  });
});

describe("ScopedFs writes", () => {
  it("refuses a write whose parent is a link pointing outside, creating nothing there", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    const error = await refusal(fs.writeFile("link-out/planted.txt", "x"));
    expect(error.realPath).toBe(path.join(outside, "planted.txt"));
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("refuses a write through a dangling link whose target is outside", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    const error = await refusal(fs.writeFile("dangling-out", "x"));
    expect(error.message).toContain(`"dangling-out" resolves to ${path.join(outside, "new.txt")}`);
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
    await refusal(fs.writeFile("file-link-out", "overwritten"));
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret\n");
  });

  it("writes through a link inside the scope to its target, leaving the link in place", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    expect(await fs.writeFile("dangling-in", "new file\n")).toBe(path.join(project, "src/new.ts"));
    expect(readFileSync(path.join(project, "src/new.ts"), "utf8")).toBe("new file\n");
    expect(readlinkSync(path.join(project, "dangling-in"))).toBe("src/new.ts");
    await fs.writeFile("link-in/b.ts", "b\n");
    expect(readFileSync(path.join(project, "src/b.ts"), "utf8")).toBe("b\n");
  });

  it("refuses a write under a read-only rule and names it", async () => {
    const fs = await ScopedFs.create(
      scope([
        { path: "docs", access: "read", recursive: true, source: "defaults" },
        { path: "src", access: "write", recursive: true },
      ]),
    );
    const error = await refusal(fs.writeFile("docs/guide.md", "x"));
    expect(error.message).toBe(
      `write refused: "docs/guide.md" (${path.join(project, "docs/guide.md")}) is read-only under allow read "docs" (recursive, from defaults); no allow rule grants write`,
    );
    await fs.writeFile("src/c.ts", "c\n");
  });

  it("creates missing parent directories inside the scope", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    await fs.writeFile("new/deep/dir/file.txt", "x");
    expect(readFileSync(path.join(project, "new/deep/dir/file.txt"), "utf8")).toBe("x");
  });

  it("refuses to create a parent directory the scope does not grant, leaving nothing behind", async () => {
    const fs = await ScopedFs.create(scope([{ path: "build/out", access: "write", recursive: true }]));
    const error = await refusal(fs.writeFile("build/out/x.js", "x"));
    expect(error.realPath).toBe(path.join(project, "build"));
    expect(error.message).toContain(
      `"build/out/x.js" needs the directory ${path.join(project, "build")} created`,
    );
    expect(existsSync(path.join(project, "build"))).toBe(false);
    mkdirSync(path.join(project, "build"));
    await fs.writeFile("build/out/x.js", "x");
    expect(existsSync(path.join(project, "build/out/x.js"))).toBe(true);
  });

  it("replaces a file atomically, keeps its mode and leaves no temporary file", async () => {
    const script = path.join(project, "src/run.sh");
    writeFileSync(script, "old");
    chmodSync(script, 0o751);
    const fs = await ScopedFs.create(scope([writeAll]));
    await fs.writeFile("src/run.sh", "new");
    expect(readFileSync(script, "utf8")).toBe("new");
    expect(statSync(script).mode & 0o777).toBe(0o751);
    expect(readdirSync(path.join(project, "src")).sort()).toEqual(["a.ts", "run.sh"]);
  });

  it("fails on a directory target and cleans up its temporary file", async () => {
    const fs = await ScopedFs.create(scope([writeAll]));
    await expect(fs.writeFile("docs", "x")).rejects.toMatchObject({
      code: expect.stringMatching(/EISDIR|ENOTDIR/),
    });
    expect(readdirSync(project).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(lstatSync(path.join(project, "docs")).isDirectory()).toBe(true);
  });
});

describe("case", () => {
  it("compares case-folded when the file system ignores case", async () => {
    const deny: ScopeRule = { path: "SECRETS", access: "read", recursive: true };
    const folded = await ScopedFs.create(scope([writeAll], [deny]), { caseInsensitive: true });
    expect((await refusal(folded.readFile("secrets/key.pem"))).refusal.reason).toBe("denied");
    const exact = await ScopedFs.create(scope([writeAll], [deny]), { caseInsensitive: false });
    expect(await exact.readFile("secrets/key.pem")).toBe("KEY\n");
  });

  it.runIf(process.platform === "linux")("detects a case-sensitive file system on Linux", async () => {
    expect(await isCaseInsensitiveAt(path.join(project, "docs/guide.md"))).toBe(false);
    expect(await isCaseInsensitiveAt(path.join(project, "not-there-yet/x"))).toBe(false);
  });
});
