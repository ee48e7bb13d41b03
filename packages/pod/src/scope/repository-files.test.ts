import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadManifest } from "../manifest/load.js";
import { ScopeError } from "./scope-error.js";
import { ScopedFs } from "./scoped-fs.js";

let base: string;
let project: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync("/var/tmp/yoake-repository-files-"));
  project = path.join(base, "project");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  mkdirSync(path.join(project, "lib", ".git"), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function scopedFs(): Promise<ScopedFs> {
  const env = { HOME: path.join(base, "home"), XDG_CONFIG_HOME: path.join(base, "config") };
  return ScopedFs.create((await loadManifest({ cwd: project, env })).scope);
}

describe("files of a nested repository", () => {
  it("cannot be written at any depth, in any case, existing or new; everything else can", async () => {
    const fs = await scopedFs();
    for (const target of ["lib/.git/config", "sub/.git/config", "a/b/.GIT/HEAD", "x/.Git/hooks/pre-commit"]) {
      const refused = await fs.writeFile(target, "[core]\n").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ScopeError);
      expect((refused as ScopeError).message).toContain('deny write "**/.git"');
      expect(existsSync(path.join(project, target))).toBe(false);
    }
    await fs.writeFile("lib/src/code.ts", "export {};\n");
    await fs.writeFile("notes/.gitignore", "dist\n");
    expect(existsSync(path.join(project, "lib", "src", "code.ts"))).toBe(true);
    expect(existsSync(path.join(project, "notes", ".gitignore"))).toBe(true);
  });
});
