import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, failureOf, runTool, type TempProject } from "../../test/support/temp-project.js";
import { createEditFileTool, replaceExact } from "./edit-file.js";
import { createReadFileTool } from "./read-file.js";
import { ReadTracker } from "./read-tracker.js";

let project: TempProject;
let tracker: ReadTracker;

beforeEach(async () => {
  project = await createTempProject([{ path: ".git", access: "write", recursive: true, source: "defaults" }]);
  tracker = new ReadTracker();
});
afterEach(() => project.remove());

const read = (file: string) => runTool(createReadFileTool(project.fs, { tracker }), { path: file });
const edit = (args: Record<string, unknown>) => runTool(createEditFileTool(project.fs, { tracker }), args);
const onDisk = (relative: string) => readFileSync(path.join(project.root, relative), "utf8");

const SOURCE = 'export function greet(name) {\n  return "hello " + name;\n}\n';

describe("edit_file", () => {
  it("refuses a file that has not been read in this session", async () => {
    project.put("project/greet.js", SOURCE);
    const message = await failureOf(edit({ path: "greet.js", old_string: "hello", new_string: "hi" }));
    expect(message).toBe(
      '"greet.js" has not been read in this session: read it with read_file before you edit it, so that you change what is really there',
    );
    expect(onDisk("greet.js")).toBe(SOURCE);
  });

  it("replaces the unique occurrence after a read and shows the unified diff", async () => {
    project.put("project/greet.js", SOURCE);
    await read("greet.js");
    const result = await edit({ path: "greet.js", old_string: "hello", new_string: "hi" });
    expect(result).toBe(
      [
        "Edited greet.js: replaced 1 occurrence.",
        "",
        "--- a/greet.js",
        "+++ b/greet.js",
        "@@ -1,3 +1,3 @@",
        " export function greet(name) {",
        '-  return "hello " + name;',
        '+  return "hi " + name;',
        " }",
      ].join("\n"),
    );
    expect(onDisk("greet.js")).toBe(SOURCE.replace("hello", "hi"));
  });

  it("allows a second edit without reading again: the edit recorded what it wrote", async () => {
    project.put("project/greet.js", SOURCE);
    await read("greet.js");
    await edit({ path: "greet.js", old_string: "hello", new_string: "hi" });
    await edit({ path: "greet.js", old_string: "greet(name)", new_string: "greet(who)" });
    expect(onDisk("greet.js")).toBe(SOURCE.replace("hello", "hi").replace("greet(name)", "greet(who)"));
  });

  it("refuses a file changed by something else since it was read, until it is read again", async () => {
    const file = project.put("project/greet.js", SOURCE);
    await read("greet.js");
    writeFileSync(file, `${SOURCE}// added by a formatter\n`);
    const message = await failureOf(edit({ path: "greet.js", old_string: "hello", new_string: "hi" }));
    expect(message).toBe(
      '"greet.js" has changed since you last read it (something else modified it): read it again with read_file before you edit it',
    );
    expect(onDisk("greet.js")).toBe(`${SOURCE}// added by a formatter\n`);
    await read("greet.js");
    await edit({ path: "greet.js", old_string: "hello", new_string: "hi" });
    expect(onDisk("greet.js")).toContain('"hi " + name');
  });

  it("refuses an old string that occurs more than once, saying how often, unless replace_all", async () => {
    project.put("project/dup.txt", "foo = 1\nbar = foo\nbaz = foo\n");
    await read("dup.txt");
    expect(await failureOf(edit({ path: "dup.txt", old_string: "foo", new_string: "qux" }))).toBe(
      "old_string occurs 3 times in dup.txt: add surrounding lines to old_string so that it matches only one place, or set replace_all to replace all 3",
    );
    const result = await edit({ path: "dup.txt", old_string: "foo", new_string: "qux", replace_all: true });
    expect(result.split("\n")[0]).toBe("Edited dup.txt: replaced 3 occurrences.");
    expect(onDisk("dup.txt")).toBe("qux = 1\nbar = qux\nbaz = qux\n");
  });

  it("says only that a missing old string was not found", async () => {
    project.put("project/greet.js", SOURCE);
    await read("greet.js");
    expect(await failureOf(edit({ path: "greet.js", old_string: "goodbye", new_string: "x" }))).toBe(
      "old_string was not found in greet.js",
    );
  });

  it("keeps CRLF line endings when the model writes plain newlines", async () => {
    project.put("project/win.txt", "one\r\ntwo\r\nthree\r\n");
    await read("win.txt");
    const result = await edit({ path: "win.txt", old_string: "one\ntwo", new_string: "one\nTWO\nextra" });
    expect(onDisk("win.txt")).toBe("one\r\nTWO\r\nextra\r\nthree\r\n");
    expect(result).toContain("-two\n+TWO\n+extra");
    expect(result).not.toContain("\r");
  });

  it("treats $ patterns in the new string literally", async () => {
    project.put("project/money.txt", "price: X\n");
    await read("money.txt");
    await edit({ path: "money.txt", old_string: "X", new_string: "$& $1 $$" });
    expect(onDisk("money.txt")).toBe("price: $& $1 $$\n");
  });

  it("refuses an empty old string and a no-op replacement", async () => {
    project.put("project/a.txt", "a\n");
    await read("a.txt");
    expect(await failureOf(edit({ path: "a.txt", old_string: "", new_string: "b" }))).toMatch(
      /old_string is empty/,
    );
    expect(await failureOf(edit({ path: "a.txt", old_string: "a", new_string: "a" }))).toMatch(/the same/);
  });

  it("refuses paths the scope does not let it write, also through a symbolic link", async () => {
    project.put("project/.git/config", "[core]\n");
    project.put("outside/target.txt", "outside\n");
    project.link("project/link-out", "../outside");
    await read(".git/config");
    expect(await failureOf(edit({ path: ".git/config", old_string: "core", new_string: "x" }))).toContain(
      'deny write ".git"',
    );
    const message = await failureOf(
      edit({ path: "link-out/target.txt", old_string: "outside", new_string: "x" }),
    );
    expect(message).toContain("outside the scope");
    expect(readFileSync(path.join(project.outside, "target.txt"), "utf8")).toBe("outside\n");
    expect(await failureOf(edit({ path: "missing.txt", old_string: "a", new_string: "b" }))).toBe(
      'file not found: "missing.txt"',
    );
  });
});

describe("replaceExact", () => {
  it("replaces the only occurrence, every one with replaceAll, and reports the others", () => {
    expect(replaceExact("a b a", "b", "c", false)).toEqual({ kind: "replaced", text: "a c a", count: 1 });
    expect(replaceExact("a b a", "a", "c", false)).toEqual({ kind: "ambiguous", count: 2 });
    expect(replaceExact("a b a", "a", "c", true)).toEqual({ kind: "replaced", text: "c b c", count: 2 });
    expect(replaceExact("a b a", "z", "c", true)).toEqual({ kind: "not-found" });
  });

  it("counts non-overlapping occurrences, as they are replaced", () => {
    expect(replaceExact("aaaa", "aa", "b", true)).toEqual({ kind: "replaced", text: "bb", count: 2 });
  });

  it("in a CRLF file, also matches strings that already hold CRLF", () => {
    expect(replaceExact("x\r\ny\r\n", "x\r\ny", "z", false)).toEqual({
      kind: "replaced",
      text: "z\r\n",
      count: 1,
    });
  });
});
