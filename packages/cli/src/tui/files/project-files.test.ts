import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ScopedFs } from "@yoake/pod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listProjectFiles, localFileTree } from "./project-files.js";

let root: string;
const put = (relative: string, content = "x\n"): void => {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
};

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-files-")));
  put(".gitignore", "node_modules/\n*.log\nbuild\n");
  put("src/a.ts");
  put("src/debug.log");
  put("src/gen/.gitignore", "*\n!keep.ts\n");
  put("src/gen/out.ts");
  put("src/gen/keep.ts");
  put("node_modules/lib/index.js");
  put("build/app.js");
  put(".git/HEAD");
  put(".env");
  put("secret/key.pem");
  symlinkSync(path.join(root, "src"), path.join(root, "link"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("listProjectFiles", () => {
  it("lists what git would track: nested .gitignore files apply, .git and links are left out", async () => {
    const { paths, truncated } = await listProjectFiles(localFileTree(root));
    expect([...paths].sort()).toEqual([
      ".env",
      ".gitignore",
      "secret/key.pem",
      "src/a.ts",
      "src/gen/keep.ts",
    ]);
    expect(truncated).toBe(false);
  });

  it("lists through the Pod's ScopedFs only what the scope lets the agent read", async () => {
    const fs = await ScopedFs.create({
      root,
      allow: [{ path: root, access: "write", recursive: true }],
      deny: [{ path: path.join(root, "secret"), access: "read", recursive: true }],
    });
    const { paths } = await listProjectFiles(fs);
    expect(paths).not.toContain("secret/key.pem");
    expect(paths).toContain("src/a.ts");
  });

  it("stops at the limit, nearest the root first, and says so", async () => {
    const { paths, truncated } = await listProjectFiles(localFileTree(root), 2);
    expect(paths).toEqual(expect.arrayContaining([".env", ".gitignore"]));
    expect(paths).toHaveLength(2);
    expect(truncated).toBe(true);
  });
});
