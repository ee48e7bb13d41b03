import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SECRET_FILES } from "../manifest/defaults.js";
import { compileSecretFiles } from "../scope/secret-files.js";
import { ProjectScanner } from "./project-scan.js";

let root: string;

function put(relative: string, content = "x\n"): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const scanner = () =>
  new ProjectScanner(compileSecretFiles(DEFAULT_SECRET_FILES.map((pattern) => ({ pattern }))));
const relative = (paths: { path: string }[]) => paths.map((p) => path.relative(root, p.path)).sort();

beforeEach(() => {
  root = realpathSync(mkdtempSync("/var/tmp/yoake-scan-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("ProjectScanner", () => {
  it("finds secret files and directories at any depth, other names of a hard-linked one, and every .git", async () => {
    put(".env");
    put("a/b/c/server.pem");
    put("node_modules/p/id_ed25519");
    put("conf/.env.d/inner.txt");
    put("conf/.env.d/deeper/x.pem");
    put("conf/.env.d/.git/HEAD");
    put("src/index.ts");
    put("hidden/.env");
    put(".git/HEAD");
    put(".git/objects/ab/cd.key");
    put("sub/.git", "gitdir: ../elsewhere\n");
    put("deep/x/.GIT/config");
    mkdirSync(path.join(root, "target"));
    mkdirSync(path.join(root, "linked"));
    symlinkSync(path.join(root, "target"), path.join(root, "linked", ".git"));
    linkSync(path.join(root, ".env"), path.join(root, "src", "copy.txt"));
    symlinkSync(path.join(root, ".env"), path.join(root, "src", "link-to-env"));
    const found = await scanner().scan([root, path.join(root, "src")], [path.join(root, "hidden")]);
    expect(relative(found.secrets)).toEqual([
      ".env",
      "a/b/c/server.pem",
      "conf/.env.d",
      "node_modules/p/id_ed25519",
      "src/copy.txt",
    ]);
    expect(found.secrets.find((s) => s.path.endsWith(".env.d"))?.isDirectory).toBe(true);
    expect(relative(found.repositories)).toEqual([
      ".git",
      "conf/.env.d/.git",
      "deep/x/.GIT",
      "linked/.git",
      "sub/.git",
    ]);
    // Inside a masked directory: found (a sweep removes it if new), never bound (that would show it).
    expect(found.repositories.filter((r) => r.hidden).map((r) => path.relative(root, r.path))).toEqual([
      "conf/.env.d/.git",
    ]);
    expect(found.repositories.map((r) => r.kind).sort()).toEqual([
      "directory",
      "directory",
      "directory",
      "file",
      "symlink",
    ]);
  });

  it("sees an entry made after the last scan even when the directory's mtime is set back", async () => {
    put("a/b/file.txt");
    const old = new Date(Date.now() - 3600_000);
    utimesSync(path.join(root, "a", "b"), old, old);
    const scan = scanner();
    expect((await scan.scan([root], [])).repositories).toEqual([]);
    // Cached now (the directory's ctime is older than the racy window only after it passes).
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await scan.scan([root], []);
    mkdirSync(path.join(root, "a", "b", ".git"));
    put("a/b/key.pem");
    utimesSync(path.join(root, "a", "b"), old, old);
    const again = await scan.scan([root], []);
    expect(relative(again.repositories)).toEqual(["a/b/.git"]);
    expect(relative(again.secrets)).toEqual(["a/b/key.pem"]);
  }, 20_000);
});
