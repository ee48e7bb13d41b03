import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, failureOf, runTool, type TempProject } from "../../test/support/temp-project.js";
import { createEditFileTool } from "./edit-file.js";
import { createReadFileTool } from "./read-file.js";
import { ReadTracker } from "./read-tracker.js";
import { createWriteFileTool } from "./write-file.js";

let project: TempProject;
let tracker: ReadTracker;

beforeEach(async () => {
  project = await createTempProject([{ path: "vendor", access: "write", recursive: true, source: "test" }]);
  tracker = new ReadTracker();
});
afterEach(() => project.remove());

const read = (file: string) => runTool(createReadFileTool(project.fs, { tracker }), { path: file });
const write = (file: string, content: string) =>
  runTool(createWriteFileTool(project.fs, { tracker }), { path: file, content });
const onDisk = (relative: string) => readFileSync(path.join(project.root, relative), "utf8");

describe("write_file", () => {
  it("creates a new file and its parent directories without a read", async () => {
    expect(await write("src/deep/new.ts", "export {};\n")).toBe(
      "Created src/deep/new.ts (1 line, 11 bytes).",
    );
    expect(onDisk("src/deep/new.ts")).toBe("export {};\n");
  });

  it("refuses to replace an existing file that has not been read", async () => {
    project.put("project/notes.md", "# Notes\nkeep me\n");
    expect(await failureOf(write("notes.md", "overwritten\n"))).toBe(
      '"notes.md" has not been read in this session: read it with read_file before you replace it, so that you change what is really there',
    );
    expect(onDisk("notes.md")).toBe("# Notes\nkeep me\n");
  });

  it("replaces a file that was read, and shows the diff", async () => {
    project.put("project/notes.md", "# Notes\nkeep me\n");
    await read("notes.md");
    expect(await write("notes.md", "# Notes\nreplaced\n")).toBe(
      [
        "Replaced notes.md (2 lines, 17 bytes).",
        "",
        "--- a/notes.md",
        "+++ b/notes.md",
        "@@ -1,2 +1,2 @@",
        " # Notes",
        "-keep me",
        "+replaced",
      ].join("\n"),
    );
    expect(onDisk("notes.md")).toBe("# Notes\nreplaced\n");
  });

  it("refuses to replace a file changed since it was read", async () => {
    const file = project.put("project/notes.md", "v1\n");
    await read("notes.md");
    writeFileSync(file, "v2 from another program\n");
    expect(await failureOf(write("notes.md", "v3\n"))).toMatch(/has changed since you last read it/);
    expect(onDisk("notes.md")).toBe("v2 from another program\n");
  });

  it("records what it wrote: an edit or another write may follow without a read", async () => {
    await write("a.txt", "one\n");
    await runTool(createEditFileTool(project.fs, { tracker }), {
      path: "a.txt",
      old_string: "one",
      new_string: "two",
    });
    expect(await write("a.txt", "three\n")).toContain("Replaced a.txt");
    expect(onDisk("a.txt")).toBe("three\n");
  });

  it("refuses what the scope does not let it write, also through a symbolic link, leaving nothing", async () => {
    project.link("project/link-out", "../outside");
    const outsideMessage = await failureOf(write("link-out/evil.txt", "x"));
    expect(outsideMessage).toContain(`resolves to ${path.join(project.outside, "evil.txt")}`);
    expect(existsSync(path.join(project.outside, "evil.txt"))).toBe(false);
    expect(await failureOf(write("vendor/lib.js", "x"))).toContain('deny write "vendor"');
    expect(await failureOf(write("/etc/yoake-test.txt", "x"))).toContain("outside the scope");
  });

  it("refuses to write over a directory", async () => {
    project.put("project/dir/x.txt", "x");
    expect(await failureOf(write("dir", "text"))).toMatch(/is a directory/);
  });
});
