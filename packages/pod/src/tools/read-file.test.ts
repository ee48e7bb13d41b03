import { truncateSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, failureOf, runTool, type TempProject } from "../../test/support/temp-project.js";
import { READ_MAX_FILE_BYTES, READ_MAX_LINE_CHARS, TOOL_OUTPUT_MAX_BYTES } from "./limits.js";
import { createReadFileTool, numberedLines } from "./read-file.js";
import { ReadTracker } from "./read-tracker.js";

let project: TempProject;
let tracker: ReadTracker;

beforeEach(async () => {
  project = await createTempProject([{ path: "secrets", access: "read", recursive: true, source: "test" }]);
  tracker = new ReadTracker();
});
afterEach(() => project.remove());

const readFile = (args: Record<string, unknown>, maxBytes?: number) =>
  runTool(createReadFileTool(project.fs, { tracker, ...(maxBytes !== undefined && { maxBytes }) }), args);

/** `count` lines `line 1`, `line 2`, ... each ending in a newline. */
const numbered = (count: number, width = 0) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}${"x".repeat(width)}\n`).join("");

describe("read_file", () => {
  it("shows a small file whole, numbered like cat -n, with no notice", async () => {
    project.put("project/src/a.ts", "const a = 1;\n\nexport { a };\n");
    expect(await readFile({ path: "src/a.ts" })).toBe(
      "     1\tconst a = 1;\n     2\t\n     3\texport { a };",
    );
  });

  it("returns Inline output even above the 800-byte promotion limit", async () => {
    project.put("project/big.txt", numbered(200));
    const tool = createReadFileTool(project.fs, { tracker });
    const result = await tool.execute(
      { path: "big.txt" },
      {
        signal: new AbortController().signal,
        callId: "c",
        toolName: "read_file",
      },
    );
    expect(typeof result).toBe("object");
    expect(result).toMatchObject({ kind: "inline" });
  });

  it("reads a window with offset and limit and says where to read on", async () => {
    project.put("project/five.txt", numbered(5));
    expect(await readFile({ path: "five.txt", offset: 2, limit: 2 })).toBe(
      "     2\tline 2\n     3\tline 3\n\n[showing lines 2–3 of 5. Call read_file with offset=4 to read on.]",
    );
    expect(await readFile({ path: "five.txt", offset: 4 })).toBe("     4\tline 4\n     5\tline 5");
  });

  it("caps the output at 16 KB by default with a notice of the total and how to read on", async () => {
    const content = numbered(5000);
    project.put("project/long.txt", content);
    const output = await readFile({ path: "long.txt" });
    const [body, notice] = output.split("\n\n[");
    expect(Buffer.byteLength(body as string) + 1).toBeLessThanOrEqual(TOOL_OUTPUT_MAX_BYTES);
    const lastShown = Number((body as string).split("\n").at(-1)?.split("\t")[0]);
    expect(lastShown).toBeGreaterThan(1000);
    expect(notice).toBe(
      `...truncated at the 16 KiB cap: showing lines 1–${lastShown} of 5000 (the file is ${Buffer.byteLength(content)} bytes). Call read_file with offset=${lastShown + 1} to read on.]`,
    );
  });

  it("following the notices page by page gives back the whole file", async () => {
    const content = `${numbered(300, 20)}last line without newline`;
    project.put("project/paged.txt", content);
    const lines: string[] = [];
    let offset = 1;
    for (let calls = 0; calls < 100; calls += 1) {
      const output = await readFile({ path: "paged.txt", offset }, 1000);
      const [body, notice] = output.split("\n\n[");
      expect(Buffer.byteLength(body as string)).toBeLessThanOrEqual(1000);
      for (const line of (body as string).split("\n")) lines.push(line.slice(line.indexOf("\t") + 1));
      if (notice === undefined) break;
      offset = Number(/offset=(\d+)/.exec(notice)?.[1]);
    }
    expect(lines.join("\n")).toBe(content);
  });

  it("cuts very long lines and still fits a small cap", async () => {
    project.put("project/min.js", `${"a".repeat(READ_MAX_LINE_CHARS + 500)}\nnext\n`);
    const output = await readFile({ path: "min.js" });
    expect(output).toContain(`${"a".repeat(READ_MAX_LINE_CHARS)}… [line cut: 500 more characters]`);
    expect(output).toContain("     2\tnext");
    const tiny = await readFile({ path: "min.js" }, 200);
    expect(Buffer.byteLength(tiny)).toBeLessThanOrEqual(200);
    expect(tiny).toMatch(/^ {5}1\ta+… \[line cut: \d+ more characters\]\n {5}2\tnext$/);
  });

  it("shows CRLF lines without their CR and ignores a byte order mark", async () => {
    project.put("project/win.txt", "\uFEFFone\r\ntwo\r\n");
    expect(await readFile({ path: "win.txt" })).toBe("     1\tone\n     2\ttwo");
  });

  it("refuses binary files: a NUL byte, or bytes that are not UTF-8", async () => {
    project.put("project/image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    project.put("project/latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await failureOf(readFile({ path: "image.png" }))).toBe(
      '"image.png" is a binary file (6 bytes, not UTF-8 text); read_file shows text files only',
    );
    expect(await failureOf(readFile({ path: "latin1.txt" }))).toMatch(/binary file/);
  });

  it("refuses files larger than it opens, pointing to grep", async () => {
    const file = project.put("project/huge.log", "");
    truncateSync(file, READ_MAX_FILE_BYTES + 1);
    expect(await failureOf(readFile({ path: "huge.log" }))).toMatch(/search it with grep instead/);
  });

  it("says so for an empty file, an offset past the end, a directory and a missing file", async () => {
    project.put("project/empty.txt", "");
    project.put("project/two.txt", "a\nb\n");
    expect(await readFile({ path: "empty.txt" })).toBe("[empty.txt is empty]");
    expect(await failureOf(readFile({ path: "two.txt", offset: 3 }))).toBe(
      'offset 3 is past the end of "two.txt", which has 2 lines',
    );
    project.put("project/dir/x.txt", "x");
    expect(await failureOf(readFile({ path: "dir" }))).toMatch(/is a directory/);
    expect(await failureOf(readFile({ path: "nope.txt" }))).toBe('file not found: "nope.txt"');
  });

  it("refuses paths outside the scope, also through a symbolic link, with the rule", async () => {
    project.put("outside/secret.txt", "outside secret\n");
    project.put("project/secrets/key.pem", "KEY\n");
    project.link("project/link-out", "../outside");
    const outsideMessage = await failureOf(readFile({ path: "link-out/secret.txt" }));
    expect(outsideMessage).toContain(`resolves to ${path.join(project.outside, "secret.txt")}`);
    expect(outsideMessage).toContain("outside the scope");
    expect(await failureOf(readFile({ path: "../outside/secret.txt" }))).toContain("outside the scope");
    expect(await failureOf(readFile({ path: "secrets/key.pem" }))).toContain('deny read "secrets"');
  });

  it("records the read, by real path, in the tracker", async () => {
    const file = project.put("project/src/a.ts", "x\n");
    project.link("project/alias.ts", "src/a.ts");
    await readFile({ path: "alias.ts", limit: 1 });
    expect(tracker.check(file, "x\n")).toEqual({ ok: true });
  });
});

describe("numberedLines", () => {
  it("always shows at least one line, even when the cap is smaller", () => {
    const output = numberedLines("abcdef\nsecond\n", {
      offset: 1,
      maxBytes: 4,
      totalBytes: 14,
      displayPath: "f",
    });
    expect(output.startsWith("     1\ta… [line cut: 5 more characters]")).toBe(true);
    expect(output).toContain("offset=2");
  });
});
