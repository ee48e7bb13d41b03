import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, failureOf, runTool, type TempProject } from "../../test/support/temp-project.js";
import { createGlobTool } from "./glob.js";
import { GLOB_MAX_RESULTS } from "./limits.js";

let project: TempProject;

beforeEach(async () => {
  project = await createTempProject([{ path: "secrets", access: "read", recursive: true, source: "test" }]);
});
afterEach(() => project.remove());

const glob = (args: Record<string, unknown>) => runTool(createGlobTool(project.fs), args);
const lines = (output: string) => output.split("\n");

/** A tree with .gitignore files at two levels; every file's mtime is its position in `files`. */
function plantTree(): void {
  project.put("project/.gitignore", "*.log\nbuild/\n/root-only.txt\n", 1_600_000_000);
  project.put("project/src/.gitignore", "generated.ts\n!keep.log\n", 1_600_000_001);
  const files = [
    "project/app.log",
    "project/root-only.txt",
    "project/build/out.ts",
    "project/src/main.ts",
    "project/src/generated.ts",
    "project/src/keep.log",
    "project/src/other.log",
    "project/src/sub/deep.ts",
    "project/src/sub/root-only.txt",
    "project/.github/workflow.ts",
    "project/.git/hooks.ts",
    "project/secrets/key.ts",
    "outside/far.ts",
  ];
  for (const [index, file] of files.entries()) project.put(file, `// ${file}\n`, 1_700_000_000 + index * 10);
  project.link("project/link-out", "../outside");
  project.link("project/src/link-main.ts", "main.ts");
}

describe("glob", () => {
  it("applies nested .gitignore files per directory, skips .git, links and denied paths, sorts newest first", async () => {
    plantTree();
    expect(lines(await glob({ pattern: "**/*" }))).toEqual([
      ".github/workflow.ts",
      "src/sub/root-only.txt",
      "src/sub/deep.ts",
      "src/keep.log",
      "src/main.ts",
      "src/.gitignore",
      ".gitignore",
    ]);
  });

  it("applies the .gitignore files above the searched directory", async () => {
    plantTree();
    expect(lines(await glob({ pattern: "**/*.log", path: "src" }))).toEqual(["src/keep.log"]);
    expect(lines(await glob({ pattern: "*.ts", path: "src" }))).toEqual(["src/main.ts"]);
  });

  it("lists inside an ignored directory when it is asked for as path", async () => {
    plantTree();
    expect(await glob({ pattern: "*", path: "build" })).toBe("build/out.ts");
  });

  it("orders by modification time, newest first", async () => {
    project.put("project/old.md", "old", 1_600_000_000);
    project.put("project/new.md", "new", 1_800_000_000);
    project.put("project/mid.md", "mid", 1_700_000_000);
    expect(lines(await glob({ pattern: "*.md" }))).toEqual(["new.md", "mid.md", "old.md"]);
  });

  it("returns at most the limit, the newest, with a notice of the total", async () => {
    const total = GLOB_MAX_RESULTS + 5;
    for (let i = 0; i < total; i += 1) project.put(`project/many/f${i}.txt`, "x", 1_600_000_000 + i);
    const output = await glob({ pattern: "many/*.txt" });
    const [list, notice] = output.split("\n\n");
    expect(lines(list as string)).toHaveLength(GLOB_MAX_RESULTS);
    expect(lines(list as string)[0]).toBe(`many/f${total - 1}.txt`);
    expect(notice).toBe(
      `[showing the ${GLOB_MAX_RESULTS} most recently modified of ${total} matching files; narrow the pattern or path to see the others]`,
    );
  });

  it("refuses a path outside the scope, also through a symbolic link, and never walks out through one", async () => {
    plantTree();
    expect(await failureOf(glob({ pattern: "*", path: "link-out" }))).toContain("outside the scope");
    expect(await failureOf(glob({ pattern: "*", path: "../outside" }))).toContain("outside the scope");
    expect(await failureOf(glob({ pattern: "*", path: "secrets" }))).toContain('deny read "secrets"');
    expect(await glob({ pattern: "link-out/**" })).toMatch(/^No files match/);
    expect(await failureOf(glob({ pattern: "../outside/*" }))).toMatch(/must be relative/);
    expect(await failureOf(glob({ pattern: "/etc/*" }))).toMatch(/must be relative/);
  });

  it("says when nothing matches, and refuses a file as path", async () => {
    project.put("project/a.txt", "a");
    expect(await glob({ pattern: "*.rs" })).toBe('No files match "*.rs" in ..');
    expect(await failureOf(glob({ pattern: "*", path: "a.txt" }))).toMatch(/is not a directory/);
  });
});
