import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolContext, tool } from "../tool/tool.js";
import type { Content, ToolOutput } from "../tool/tool-output.js";
import { toHistoryResult } from "./history-result.js";
import { createInspectTool, type InspectArguments } from "./inspect-tool.js";
import { MemoryBlobStore } from "./memory-blob-store.js";

const context: ToolContext = { signal: new AbortController().signal, callId: "call_1", toolName: "inspect" };
const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");
const log = (count: number) => Array.from({ length: count }, (_, i) => `entry ${i + 1}`).join("\n");
const rows = Array.from({ length: 30 }, (_, id) => ({ id, name: `row ${id}` }));
const document = { query: "yoake", total: 30, results: rows, meta: { "page.size": 30, took: { ms: 4 } } };

async function setup(content: Content, options?: { maxBytes?: number; maxLines?: number }) {
  const store = new MemoryBlobStore();
  const id = await store.store(content);
  const inspect = createInspectTool(store, options);
  const call = async (args: InspectArguments): Promise<string> => {
    const parsed = inspect.parseArguments(args);
    if (!parsed.ok) throw new Error(parsed.error);
    const output = (await inspect.execute(parsed.value, context)) as ToolOutput;
    expect(output.kind).toBe("inline");
    return output.kind === "inline" ? output.text : "";
  };
  const fail = async (args: InspectArguments): Promise<string> => {
    const error = await call(args).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  };
  return { store, id, inspect, call, fail };
}

describe("inspect on text", () => {
  it("gives meta and head without a selector", async () => {
    const { id, call } = await setup({ kind: "text", text: log(120) });
    const lines = (await call({ blob_id: id })).split("\n");
    expect(lines[0]).toBe(`[blob:${id}] text | 120 lines | ${bytesOf(log(120))} bytes`);
    expect(lines[1]).toBe("── lines 1-50 of 120 ──");
    expect(lines[2]).toBe(" 1\tentry 1");
    expect(lines[51]).toBe("50\tentry 50");
    expect(lines.at(-1)).toBe("[70 more lines; read on with lines:51-]");
  });

  it("reads 1-based inclusive line ranges, open ends and single lines", async () => {
    const { id, call } = await setup({ kind: "text", text: log(120) });
    expect(await call({ blob_id: id, selector: "lines:20-22" })).toBe(
      "── lines 20-22 of 120 ──\n20\tentry 20\n21\tentry 21\n22\tentry 22",
    );
    expect(await call({ blob_id: id, selector: "lines:119-" })).toBe(
      "── lines 119-120 of 120 ──\n119\tentry 119\n120\tentry 120",
    );
    expect(await call({ blob_id: id, selector: "lines:7" })).toBe("── lines 7-7 of 120 ──\n7\tentry 7");
    // An end past the text is clamped; a start past it is an error.
    expect(await call({ blob_id: id, selector: "lines:120-500" })).toBe(
      "── lines 120-120 of 120 ──\n120\tentry 120",
    );
  });

  it("reads byte ranges, whole characters only", async () => {
    const { id, call } = await setup({ kind: "text", text: "abc日本語def" });
    expect(await call({ blob_id: id, selector: "bytes:0..3" })).toBe("── bytes 0..3 of 15 ──\nabc");
    // 4 is inside 日 (bytes 3-5): the start moves on to 本; 11 is inside 語 (9-11): the end moves back.
    expect(await call({ blob_id: id, selector: "bytes:4..11" })).toBe("── bytes 6..9 of 15 ──\n本");
  });

  it("caps a long answer at 400 lines and says how to read on", async () => {
    const { id, call } = await setup({ kind: "text", text: log(5000) });
    const answer = await call({ blob_id: id, selector: "lines:1-" });
    const lines = answer.split("\n");
    expect(lines).toHaveLength(401); // header + 399 lines, then the notice
    expect(lines.at(-2)).toBe(" 399\tentry 399");
    expect(lines.at(-1)).toBe("[showed lines 1-399 of 5000; read on with lines:400-]");
    expect(await call({ blob_id: id, selector: "lines:400-" })).toMatch(
      /^── lines 400-5000 of 5000 ──\n 400\tentry 400\n/,
    );
  });

  it("caps a long answer at 16 KB and keeps the asked end in the read-on selector", async () => {
    const text = Array.from({ length: 300 }, (_, i) => `${i + 1} ${"w".repeat(200)}`).join("\n");
    const { id, call } = await setup({ kind: "text", text });
    const answer = await call({ blob_id: id, selector: "lines:10-250" });
    const body = answer.slice(0, answer.lastIndexOf("\n"));
    expect(bytesOf(body)).toBeLessThanOrEqual(16 * 1024);
    expect(answer.split("\n").at(-1)).toMatch(
      /^\[showed lines 10-(\d+) of 300; read on with lines:\d+-250\]$/,
    );
  });

  it("cuts a megabyte line and points at the bytes that follow", async () => {
    const { id, call } = await setup({ kind: "text", text: `short\n${"é".repeat(500_000)}\nlast` });
    const answer = await call({ blob_id: id, selector: "lines:2-" });
    const [header, line = "", notice] = answer.split("\n");
    expect(header).toBe("── lines 2-3 of 3 ──");
    expect(/^2\té+…$/.test(line)).toBe(true);
    expect(bytesOf(answer.slice(0, answer.lastIndexOf("\n")))).toBeLessThanOrEqual(16 * 1024);
    const next = 6 + bytesOf(line) - bytesOf("2\t…"); // "short\n" is 6 bytes
    expect(notice).toBe(
      `[line 2 is 1000000 bytes and was cut; read on with bytes:${next}..${next + 16384}, or skip it with lines:3-]`,
    );
  });

  it("lets the model read a long line whole by following the bytes: notices", async () => {
    const long = "あいうえお😀".repeat(4000); // 68 000 bytes, characters of 3 and 4 bytes
    const { id, call } = await setup({ kind: "text", text: `${long}\nnext` });
    let selector: string | undefined = "bytes:0..";
    let read = "";
    let calls = 0;
    while (selector !== undefined && calls++ < 20) {
      const answer = await call({ blob_id: id, selector });
      const body = answer.slice(answer.indexOf("\n") + 1);
      const notice = /\n\[showed bytes \d+\.\.\d+ of \d+; read on with (bytes:\d+\.\.)\]$/.exec(body);
      read += notice === null ? body : body.slice(0, notice.index);
      expect(bytesOf(answer) - bytesOf(notice?.[0] ?? "")).toBeLessThanOrEqual(16 * 1024);
      selector = notice?.[1];
    }
    expect(calls).toBe(5);
    expect(read === `${long}\nnext`).toBe(true);
  });

  it("rejects JSON selectors and a start past the end", async () => {
    const { id, fail } = await setup({ kind: "text", text: log(10) });
    expect(await fail({ blob_id: id, selector: "slice:0..2" })).toBe(
      `blob ${id} is text, which "slice:" does not apply to; use "lines:A-B" or "bytes:A..B"`,
    );
    expect(await fail({ blob_id: id, selector: "key:results" })).toMatch(
      /is text, which "key:" does not apply to/,
    );
    expect(await fail({ blob_id: id, selector: "lines:11-" })).toBe(
      "the blob has 10 lines; lines:11- starts past its end",
    );
  });
});

describe("inspect on a JSON array", () => {
  it("gives meta, schema and the first entries without a selector", async () => {
    const { id, call } = await setup({ kind: "structured", value: rows });
    const answer = await call({ blob_id: id });
    expect(answer.split("\n").slice(0, 6)).toEqual([
      `[blob:${id}] json_array | 30 entries`,
      "── schema ──",
      "id: number",
      "name: string",
      "── entries 0..10 of 30 ──",
      '[0] {"id":0,"name":"row 0"}',
    ]);
    expect(answer.split("\n").at(-1)).toBe("[20 more entries; read on with slice:10..]");
  });

  it("slices 0-based with the end excluded", async () => {
    const { id, call } = await setup({ kind: "structured", value: rows });
    expect(await call({ blob_id: id, selector: "slice:3..5" })).toBe(
      '── entries 3..5 of 30 ──\n[3] {"id":3,"name":"row 3"}\n[4] {"id":4,"name":"row 4"}',
    );
    expect(await call({ blob_id: id, selector: "slice:29.." })).toBe(
      '── entries 29..30 of 30 ──\n[29] {"id":29,"name":"row 29"}',
    );
    expect(await call({ blob_id: id, selector: "key:2.name" })).toBe(
      '── key 2.name: string (5 bytes) ──\n"row 2"',
    );
  });

  it("rejects key names, line selectors and a start past the end", async () => {
    const { id, fail } = await setup({ kind: "structured", value: rows });
    expect(await fail({ blob_id: id, selector: "key:results" })).toBe(
      `blob ${id} is a JSON array of 30 entries, which "key:" does not apply to; use "slice:A..B" or "key:<index>" (e.g. "key:0.name")`,
    );
    expect(await fail({ blob_id: id, selector: "lines:1-5" })).toMatch(
      /is a JSON array of 30 entries, which "lines:"/,
    );
    expect(await fail({ blob_id: id, selector: "slice:30.." })).toBe(
      "the blob has 30 entries (0 to 29); slice:30.. starts past its end",
    );
  });

  it("is the header alone when empty", async () => {
    const { id, call } = await setup({ kind: "structured", value: [] });
    expect(await call({ blob_id: id })).toBe(`[blob:${id}] json_array | 0 entries`);
    expect(await call({ blob_id: id, selector: "slice:0.." })).toBe("── entries 0..0 of 0 ──");
  });
});

describe("inspect on a JSON object", () => {
  it("lists keys with type, size and a preview without a selector", async () => {
    const { id, call } = await setup({ kind: "structured", value: document });
    const answer = await call({ blob_id: id });
    expect(answer.split("\n").slice(0, 5)).toEqual([
      `[blob:${id}] json_object | 4 keys`,
      "── keys ──",
      'query: string (5 bytes) = "yoake"',
      "total: number = 30",
      expect.stringMatching(/^results: array \(30 entries\) = \[\{"id":0,"name":"row 0"\},.*…$/),
    ]);
  });

  it("reads a key, a dotted path, a key holding a dot, and slices an array inside", async () => {
    const { id, call } = await setup({ kind: "structured", value: document });
    expect(await call({ blob_id: id, selector: "key:meta" })).toBe(
      '── key meta: object (2 keys) ──\npage.size: 30\ntook: {"ms":4}',
    );
    expect(await call({ blob_id: id, selector: "key:meta.took.ms" })).toBe(
      "── key meta.took.ms: number ──\n4",
    );
    expect(await call({ blob_id: id, selector: "key:meta.page.size" })).toBe(
      "── key meta.page.size: number ──\n30",
    );
    expect(await call({ blob_id: id, selector: "key:results.1" })).toBe(
      '── key results.1: object (2 keys) ──\nid: 1\nname: "row 1"',
    );
    expect(await call({ blob_id: id, selector: "slice:results.28.." })).toBe(
      '── results: entries 28..30 of 30 ──\n[28] {"id":28,"name":"row 28"}\n[29] {"id":29,"name":"row 29"}',
    );
  });

  it("shows a large array under a key one entry a line, and says how to read on", async () => {
    const value = { results: Array.from({ length: 2000 }, (_, id) => ({ id })) };
    const { id, call } = await setup({ kind: "structured", value });
    const answer = await call({ blob_id: id, selector: "key:results" });
    expect(answer.split("\n")).toHaveLength(401);
    expect(answer.split("\n").at(-1)).toBe(
      "[showed entries 0..399 of 2000; read on with slice:results.399..]",
    );
  });

  it("rejects a top-level slice, text selectors and missing keys", async () => {
    const { id, fail } = await setup({ kind: "structured", value: document });
    expect(await fail({ blob_id: id, selector: "slice:0..2" })).toBe(
      `blob ${id} is a JSON object of 4 keys, which "slice:" does not apply to; use "key:<key>" (its keys: query, total, results, meta), or "slice:results.A..B" for the array under results`,
    );
    expect(await fail({ blob_id: id, selector: "lines:1-2" })).toMatch(/which "lines:" does not apply to/);
    expect(await fail({ blob_id: id, selector: "key:result" })).toBe(
      'no key "result" at the top level; its keys: query, total, results, meta',
    );
    expect(await fail({ blob_id: id, selector: "slice:meta.0..1" })).toBe(
      'slice: needs a JSON array, and "meta" is an object (2 keys); read it with key:meta',
    );
  });
});

describe("inspect tool", () => {
  it("answers inline, so an answer is never stored as another blob", async () => {
    const { store, id, inspect } = await setup({ kind: "text", text: log(5000) });
    const output = await inspect.execute({ blob_id: id, selector: "lines:1-" }, context);
    expect(output).toMatchObject({ kind: "inline" });
    const result = await toHistoryResult(output as ToolOutput, store);
    expect(result.blobId).toBeUndefined();
    expect(store.size).toBe(1);
    expect(bytesOf(result.content)).toBeGreaterThan(800); // it would have been promoted as a plain string
  });

  it("gives its answer the summary [blob:<id>] <selector>, which is all it takes to read it again", async () => {
    const { store, id, inspect } = await setup({ kind: "text", text: log(5000) });
    const ranged = await inspect.execute({ blob_id: `[blob:${id}]`, selector: " lines:20-50 " }, context);
    expect((await toHistoryResult(ranged as ToolOutput, store)).summary).toBe(`[blob:${id}] lines:20-50`);
    const overview = await inspect.execute({ blob_id: id }, context);
    expect((await toHistoryResult(overview as ToolOutput, store)).summary).toBe(`[blob:${id}] overview`);
  });

  it("accepts the id as a summary shows it", async () => {
    const { id, call } = await setup({ kind: "text", text: "one\ntwo" });
    expect(await call({ blob_id: `[blob:${id}]`, selector: "lines:2" })).toBe("── lines 2-2 of 2 ──\n2\ttwo");
  });

  it("tells the model what a blob id is when it is unknown or malformed", async () => {
    const { fail } = await setup({ kind: "text", text: "x" });
    expect(await fail({ blob_id: "01890a5d-ac96-774b-bcce-b302099a8057" })).toBe(
      "no blob with id 01890a5d-ac96-774b-bcce-b302099a8057; blob ids are the UUIDs in [blob:<id>] at the start of stored tool results",
    );
    expect(await fail({ blob_id: "../secrets" })).toMatch(
      /^"\.\.\/secrets" is not a blob id \(blob ids are UUIDs\)/,
    );
  });

  it("rejects a malformed selector with the list of valid ones", async () => {
    const { id, fail } = await setup({ kind: "text", text: "x" });
    expect(await fail({ blob_id: id, selector: "lines:five" })).toMatch(
      /^malformed selector "lines:five": "five" is not a whole number; valid selectors: /,
    );
  });

  it("validates its arguments and describes its selectors", async () => {
    const { inspect } = await setup({ kind: "text", text: "x" });
    expect(inspect.name).toBe("inspect");
    expect(inspect.parseArguments({ selector: "lines:1-2" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/blob_id/),
    });
    expect(inspect.inputSchema).toMatchObject({ type: "object", required: ["blob_id"] });
    expect(inspect.description).toContain("0-based, end excluded, like Rust ranges");
    expect(inspect.description).toContain("16384 bytes and 400 lines");
  });

  it("holds to other limits", async () => {
    const { id, call } = await setup({ kind: "text", text: log(100) }, { maxLines: 5 });
    expect((await call({ blob_id: id, selector: "lines:1-" })).split("\n")).toEqual([
      "── lines 1-100 of 100 ──",
      "  1\tentry 1",
      "  2\tentry 2",
      "  3\tentry 3",
      "  4\tentry 4",
      "[showed lines 1-4 of 100; read on with lines:5-]",
    ]);
  });
});

describe("inspect's hand-written schema and check", () => {
  // What `inspect` was made of before it stopped loading zod: its schema and check must not differ.
  const made = tool({
    name: "inspect",
    description: "",
    input: z.object({
      blob_id: z.string().describe("The id from [blob:<id>] in a stored tool result"),
      selector: z
        .string()
        .optional()
        .describe('Which part to read: "lines:20-50", "bytes:0..16384", "slice:3..8" or "key:results"'),
    }),
    execute: () => "",
  });
  const inspect = createInspectTool(new MemoryBlobStore());

  it("has the schema the zod schema converts to", () => {
    expect(inspect.inputSchema).toEqual(made.inputSchema);
  });

  it("accepts and rejects what the zod schema does, with the same messages", () => {
    const cases: unknown[] = [
      { blob_id: "a" },
      { blob_id: "a", selector: "lines:1-2" },
      { blob_id: "a", selector: null },
      { blob_id: "a", selector: undefined },
      { blob_id: "a", extra: 1 },
      { selector: "lines:1-2" },
      { blob_id: 3 },
      { blob_id: null },
      { blob_id: ["a"] },
      { blob_id: "a", selector: 5 },
      { blob_id: "a", selector: {} },
      null,
      "a",
      ["a"],
      7,
      undefined,
    ];
    for (const raw of cases)
      expect(inspect.parseArguments(raw), JSON.stringify(raw)).toEqual(made.parseArguments(raw));
  });
});
