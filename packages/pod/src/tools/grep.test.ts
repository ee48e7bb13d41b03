import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, failureOf, runTool, type TempProject } from "../../test/support/temp-project.js";
import { FILE_TYPES } from "./file-types.js";
import { createGrepTool } from "./grep.js";
import { findRipgrep } from "./grep-rg.js";

const rgPath = await findRipgrep();
const ENGINES = rgPath === undefined ? (["js"] as const) : (["rg", "js"] as const);

let project: TempProject;

beforeAll(async () => {
  project = await createTempProject([{ path: "secrets", access: "read", recursive: true, source: "test" }]);
  const put = (file: string, content: string | Uint8Array) => project.put(`project/${file}`, content);
  put(".gitignore", "*.log\nbuild/\n");
  put("src/.gitignore", "generated.ts\n!keep.log\n");
  put(
    "src/main.ts",
    "import { x } from './x';\n  // TODO: tidy\nconst todo = 1;\nexport { todo };\n// TODO second\n",
  );
  put("src/generated.ts", "// TODO generated\n");
  put("src/util.js", "function f() {}\n// TODO in js\n");
  put("src/sub/deep.ts", "deep\n\n\n\nTODO deep one\nafter\n");
  put("src/win.ts", "first\r\n// TODO crlf\r\nlast\r\n");
  put("src/debug.log", "TODO in a log the root ignores\n");
  put("src/keep.log", "TODO kept by a negation\n");
  put("README.md", "# Readme\ntodo: lower case\n");
  put("app.log", "TODO ignored log\n");
  put("build/out.ts", "TODO built\n");
  put(".github/ci.yml", "# TODO hidden but searched\n");
  put(".git/config", "TODO git internals\n");
  put("bin/data.bin", Buffer.concat([Buffer.from("TODO binary\n"), Buffer.from([0, 1, 2])]));
  put("secrets/key.ts", "TODO secret\n");
  put("a/b.ts", "TODO a/b\n");
  put("a-c.ts", "TODO a-c\n");
  project.put("outside/far.ts", "TODO outside\n");
  project.link("project/link-out", "../outside");
  project.link("project/src/link-main.ts", "main.ts");
});
afterAll(() => project.remove());

const grepWith = (engine: "rg" | "js", args: Record<string, unknown>) =>
  runTool(createGrepTool(project.fs, { engine }), args);

/** Queries both engines must answer alike (and that the per-engine tests pin). */
const QUERIES: Array<Record<string, unknown>> = [
  { pattern: "TODO" },
  { pattern: "TODO", output_mode: "content" },
  { pattern: "TODO", output_mode: "content", context: 1 },
  { pattern: "TODO", output_mode: "content", before_context: 2, after_context: 0 },
  { pattern: "TODO", output_mode: "count" },
  { pattern: "todo", case_insensitive: true, output_mode: "count" },
  { pattern: "TODO", type: "ts" },
  { pattern: "TODO", type: "md" },
  { pattern: "TODO", glob: "*.ts" },
  { pattern: "TODO", glob: "src/**/*.{ts,js}" },
  { pattern: "TODO", path: "src" },
  { pattern: "TODO", path: "src", output_mode: "content" },
  { pattern: "TODO", path: "build" },
  { pattern: "TODO", path: "app.log", output_mode: "content" },
  { pattern: "TODO", output_mode: "content", head_limit: 3 },
  { pattern: "TODO", output_mode: "content", head_limit: 3, offset: 3 },
  { pattern: "TODO", head_limit: 2, offset: 4 },
  { pattern: "^\\s+// TO+DO\\b", output_mode: "content" },
  { pattern: "crlf$", output_mode: "content" },
  { pattern: "(?<=// )TODO", output_mode: "content" },
  { pattern: "nothing matches this" },
];

describe.each(ENGINES)("grep with the %s engine", (engine) => {
  const grep = (args: Record<string, unknown>) => grepWith(engine, args);

  it("lists matching files in path order, leaving out ignored, binary, .git, denied and linked ones", async () => {
    expect((await grep({ pattern: "TODO" })).split("\n")).toEqual([
      ".github/ci.yml",
      "a/b.ts",
      "a-c.ts",
      "src/keep.log",
      "src/main.ts",
      "src/sub/deep.ts",
      "src/util.js",
      "src/win.ts",
    ]);
  });

  it("shows matching lines as path:line:text, and context as path-line-text between separators", async () => {
    expect(await grep({ pattern: "TODO", path: "src/main.ts", output_mode: "content" })).toBe(
      "src/main.ts:2:  // TODO: tidy\nsrc/main.ts:5:// TODO second",
    );
    expect(await grep({ pattern: "TODO", path: "src", output_mode: "content", context: 1 })).toBe(
      [
        "src/keep.log:1:TODO kept by a negation",
        "--",
        "src/main.ts-1-import { x } from './x';",
        "src/main.ts:2:  // TODO: tidy",
        "src/main.ts-3-const todo = 1;",
        "src/main.ts-4-export { todo };",
        "src/main.ts:5:// TODO second",
        "--",
        "src/sub/deep.ts-4-",
        "src/sub/deep.ts:5:TODO deep one",
        "src/sub/deep.ts-6-after",
        "--",
        "src/util.js-1-function f() {}",
        "src/util.js:2:// TODO in js",
        "--",
        "src/win.ts-1-first",
        "src/win.ts:2:// TODO crlf",
        "src/win.ts-3-last",
      ].join("\n"),
    );
  });

  it("counts matching lines per file, ignoring case when asked", async () => {
    expect(await grep({ pattern: "todo", path: "src", output_mode: "count", case_insensitive: true })).toBe(
      ["src/keep.log:1", "src/main.ts:4", "src/sub/deep.ts:1", "src/util.js:1", "src/win.ts:1"].join("\n"),
    );
  });

  it("filters by type and by glob", async () => {
    expect(await grep({ pattern: "TODO", type: "ts" })).toBe(
      ["a/b.ts", "a-c.ts", "src/main.ts", "src/sub/deep.ts", "src/win.ts"].join("\n"),
    );
    expect(await grep({ pattern: "TODO", glob: "src/**/*.{ts,js}" })).toBe(
      ["src/main.ts", "src/sub/deep.ts", "src/util.js", "src/win.ts"].join("\n"),
    );
    expect(await failureOf(grep({ pattern: "TODO", type: "cobol" }))).toMatch(/unknown file type "cobol"/);
  });

  it("applies the .gitignore above a searched subdirectory, and searches an ignored one named as path", async () => {
    expect(await grep({ pattern: "TODO", path: "src", glob: "*.log" })).toBe("src/keep.log");
    expect(await grep({ pattern: "TODO", path: "build" })).toBe("build/out.ts");
    expect(await grep({ pattern: "TODO", path: "app.log" })).toBe("app.log");
  });

  it("pages with head_limit and offset, saying how to read on", async () => {
    const first = await grep({ pattern: "TODO", output_mode: "content", head_limit: 3 });
    expect(first).toBe(
      [
        ".github/ci.yml:1:# TODO hidden but searched",
        "a/b.ts:1:TODO a/b",
        "a-c.ts:1:TODO a-c",
        "",
        "[showing lines 1–3; there are more: call grep again with offset=3 to see the next ones, or narrow the search with path, glob or type]",
      ].join("\n"),
    );
    const pages: string[] = [];
    for (let offset = 0; ; offset += 3) {
      const page = await grep({ pattern: "TODO", output_mode: "content", head_limit: 3, offset });
      pages.push(page.split("\n\n")[0] as string);
      if (!page.includes("there are more")) break;
    }
    expect(pages.join("\n")).toBe(await grep({ pattern: "TODO", output_mode: "content" }));
    expect(await grep({ pattern: "TODO", offset: 100 })).toBe(
      "[no results past offset 100: there are 8 in all]",
    );
  });

  it("refuses out-of-scope paths, also through a symbolic link, and binary files named as path", async () => {
    expect(await failureOf(grep({ pattern: "TODO", path: "link-out" }))).toContain("outside the scope");
    expect(await failureOf(grep({ pattern: "TODO", path: "secrets" }))).toContain('deny read "secrets"');
    expect(await failureOf(grep({ pattern: "TODO", path: "bin/data.bin" }))).toMatch(/binary file/);
  });

  it("reports a bad pattern and an empty result", async () => {
    expect(await failureOf(grep({ pattern: "(unclosed" }))).toMatch(
      /unclosed|Unterminated|regular expression/i,
    );
    expect(await grep({ pattern: "nothing matches this" })).toBe(
      'No matches for "nothing matches this" in ..',
    );
  });
});

describe.runIf(rgPath !== undefined)("grep engines agree", () => {
  it.each(QUERIES)("ripgrep and the JS engine give the same output for %j", async (query) => {
    expect(await grepWith("js", query)).toBe(await grepWith("rg", query));
  });

  it("the type table is ripgrep's own for each type it names", () => {
    const listing = execFileSync(rgPath as string, ["--no-config", "--type-list"], { encoding: "utf8" });
    const ripgrepTypes = new Map(
      listing
        .trim()
        .split("\n")
        .map((line) => {
          const [name, globs] = line.split(": ");
          return [name, (globs ?? "").split(", ")] as const;
        }),
    );
    for (const [name, globs] of Object.entries(FILE_TYPES)) {
      expect([...globs].sort(), name).toEqual([...(ripgrepTypes.get(name) ?? [])].sort());
    }
  });
});
