import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../test/support/temp-project.js";
import { GitignoreRules } from "./gitignore.js";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject([{ path: "private", access: "read", recursive: true, source: "test" }]);
});
afterEach(() => project.remove());

const at = (relative: string) => path.join(project.root, relative);

describe("GitignoreRules", () => {
  it("applies each file's patterns relative to its own directory, the deeper match winning", async () => {
    project.put("project/.gitignore", "*.log\n/top.txt\ndist/\n");
    project.put("project/pkg/.gitignore", "!important.log\nlocal.txt\n");
    const rules = await GitignoreRules.forSearch(project.fs, project.root);
    expect(await rules.isIgnored(at("a.log"), false)).toBe(true);
    expect(await rules.isIgnored(at("pkg/deep/b.log"), false)).toBe(true);
    expect(await rules.isIgnored(at("pkg/important.log"), false)).toBe(false);
    expect(await rules.isIgnored(at("top.txt"), false)).toBe(true);
    expect(await rules.isIgnored(at("pkg/top.txt"), false)).toBe(false);
    expect(await rules.isIgnored(at("pkg/local.txt"), false)).toBe(true);
    expect(await rules.isIgnored(at("local.txt"), false)).toBe(false);
  });

  it("ignores everything below an ignored directory, and a directory-only pattern spares files", async () => {
    project.put("project/.gitignore", "dist/\n");
    project.put("project/dist/.gitignore", "!*\n");
    const rules = await GitignoreRules.forSearch(project.fs, project.root);
    expect(await rules.isIgnored(at("dist"), true)).toBe(true);
    expect(await rules.isIgnored(at("dist/x/y.js"), false)).toBe(true);
    expect(await rules.isIgnored(at("dist"), false)).toBe(false);
  });

  it("is case-sensitive, as ripgrep is", async () => {
    project.put("project/.gitignore", "Build/\n");
    const rules = await GitignoreRules.forSearch(project.fs, project.root);
    expect(await rules.isIgnored(at("Build"), true)).toBe(true);
    expect(await rules.isIgnored(at("build"), true)).toBe(false);
  });

  it("starts from the project root for a search below it, or from an ignored directory asked for", async () => {
    project.put("project/.gitignore", "vendor/\n");
    expect((await GitignoreRules.forSearch(project.fs, at("src"))).base).toBe(project.root);
    expect((await GitignoreRules.forSearch(project.fs, at("vendor/lib"))).base).toBe(at("vendor/lib"));
    expect((await GitignoreRules.forSearch(project.fs, project.outside)).base).toBe(project.outside);
  });

  it("counts a .gitignore the scope does not let it read as absent", async () => {
    project.put("project/private/.gitignore", "*\n");
    const rules = await GitignoreRules.forSearch(project.fs, project.root);
    expect(await rules.isIgnored(at("private/anything.txt"), false)).toBe(false);
  });

  it("tests a directory's entries synchronously for a walk", async () => {
    project.put("project/.gitignore", "*.tmp\n");
    const rules = await GitignoreRules.forSearch(project.fs, project.root);
    const ignored = await rules.entriesOf(project.root, true);
    expect(ignored("x.tmp", false)).toBe(true);
    expect(ignored("x.ts", false)).toBe(false);
  });
});
