/**
 * A hard link inside the scope is another name of a file that may live outside it: its content
 * must not be read through the inside name, nor may it be written, unless a trusted manifest says
 * `[scope] hard_links = true`.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, failureOf, runTool, type TempProject } from "../../test/support/temp-project.js";
import { resolveFileRef } from "../file-ref/resolver.js";
import { loadManifest } from "../manifest/load.js";
import { createGrepTool } from "../tools/grep.js";
import { findRipgrep } from "../tools/grep-rg.js";
import { createReadFileTool } from "../tools/read-file.js";
import { ReadTracker } from "../tools/read-tracker.js";
import { ScopeError } from "./scope-error.js";
import { ScopedFs } from "./scoped-fs.js";

const SECRET = "OUTSIDE-SECRET\n";
const engines = (await findRipgrep()) === undefined ? (["js"] as const) : (["rg", "js"] as const);

let project: TempProject;
let outsideFile: string;
let linked: string;

beforeEach(async () => {
  project = await createTempProject();
  outsideFile = project.put("outside/secret.txt", SECRET);
  project.put("project/plain.txt", "plain\n");
  linked = path.join(project.root, "innocent.txt");
  linkSync(outsideFile, linked);
});
afterEach(() => project.remove());

const hardLinkRefusal = { refusal: { reason: "hard-link", links: 2 } };

describe("files with more than one hard link", () => {
  it("are refused for reading, naming the manifest key that allows them", async () => {
    const read = project.fs.readFile("innocent.txt");
    await expect(read).rejects.toBeInstanceOf(ScopeError);
    await expect(read).rejects.toMatchObject(hardLinkRefusal);
    await expect(read).rejects.toThrow(/has 2 hard links.*\[scope\] hard_links = true/);
    await expect(project.fs.readFilePrefix("innocent.txt", 100)).rejects.toMatchObject(hardLinkRefusal);
    await expect(project.fs.openReadableFile("innocent.txt")).rejects.toMatchObject(hardLinkRefusal);
    expect(await project.fs.readFile("plain.txt")).toBe("plain\n");
  });

  it("are refused for writing, leaving both names as they were", async () => {
    await expect(project.fs.writeFile("innocent.txt", "replaced\n")).rejects.toMatchObject(hardLinkRefusal);
    expect(readFileSync(outsideFile, "utf8")).toBe(SECRET);
    expect(readFileSync(linked, "utf8")).toBe(SECRET);
  });

  it("reach the model through no tool, @path or grep", async () => {
    const tool = createReadFileTool(project.fs, { tracker: new ReadTracker() });
    expect(await failureOf(runTool(tool, { path: "innocent.txt" }))).toContain("hard links");
    const reference = await resolveFileRef(project.fs, "innocent.txt");
    expect(reference).toMatchObject({ ok: false, reason: "out_of_scope" });
    for (const engine of engines) {
      const grep = createGrepTool(project.fs, { engine });
      const found = await runTool(grep, { pattern: "SECRET|plain", output_mode: "content" });
      expect(found, engine).toContain("plain.txt");
      expect(found, engine).not.toContain("SECRET");
    }
  });

  it("are read and written when the ScopedFs allows hard links", async () => {
    const fs = await ScopedFs.create(
      { root: project.root, allow: [{ path: ".", access: "write", recursive: true }], deny: [] },
      { allowHardLinks: true },
    );
    expect(await fs.readFile("innocent.txt")).toBe(SECRET);
    await fs.writeFile("innocent.txt", "replaced\n");
    // The write replaces the inside name; the other name keeps its content.
    expect(readFileSync(linked, "utf8")).toBe("replaced\n");
    expect(readFileSync(outsideFile, "utf8")).toBe(SECRET);
  });
});

describe("[scope] hard_links", () => {
  it("is off by default, and turned on by a project manifest only once the project is trusted", async () => {
    const env = { HOME: project.base, XDG_CONFIG_HOME: path.join(project.base, "xdg") };
    mkdirSync(path.join(project.root, ".yoake"));
    expect((await loadManifest({ cwd: project.root, env })).scope.hardLinks).toBe(false);
    writeFileSync(path.join(project.root, ".yoake/manifest.toml"), "[scope]\nhard_links = true\n");
    await expect(loadManifest({ cwd: project.root, env })).rejects.toThrow(/hard_links = true/);
    const manifest = await loadManifest({ cwd: project.root, env, projectTrust: "trust-once" });
    expect(manifest.scope.hardLinks).toBe(true);
    const fs = await ScopedFs.create(manifest.scope, { allowHardLinks: manifest.scope.hardLinks });
    expect(await fs.readFile("innocent.txt")).toBe(SECRET);
  });
});
