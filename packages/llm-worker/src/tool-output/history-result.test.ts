import { describe, expect, it } from "vitest";
import { inline, stored } from "../tool/tool-output.js";
import type { BlobStore } from "./blob-store.js";
import { inlineSummary, toHistoryResult } from "./history-result.js";
import { MemoryBlobStore } from "./memory-blob-store.js";

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");
const log = (count: number) =>
  Array.from({ length: count }, (_, i) => `entry ${i + 1}: some log text`).join("\n");

describe("toHistoryResult", () => {
  it("keeps a small result inline with a one-line summary", async () => {
    const store = new MemoryBlobStore();
    expect(await toHistoryResult("found 3 files\na.ts\nb.ts\nc.ts", store)).toEqual({
      content: "found 3 files\na.ts\nb.ts\nc.ts",
      summary: "4 lines | found 3 files",
    });
    expect(store.size).toBe(0);
  });

  it("stores a large result and keeps the seed summary, its first line as the summary", async () => {
    const store = new MemoryBlobStore();
    const text = log(100);
    const result = await toHistoryResult(text, store);
    const id = result.blobId ?? "";
    expect(await store.load(id)).toEqual({ kind: "text", text });
    expect(
      result.content.startsWith(`[blob:${id}] text | 100 lines\n── head ──\nentry 1: some log text\n`),
    ).toBe(true);
    expect(bytesOf(result.content)).toBeLessThanOrEqual(400);
    expect(result.summary).toBe(`[blob:${id}] text | 100 lines`);
  });

  it("stores a large JSON string as structured content", async () => {
    const store = new MemoryBlobStore();
    const rows = Array.from({ length: 50 }, (_, id) => ({ id, title: `row ${id}` }));
    const result = await toHistoryResult(JSON.stringify(rows), store);
    expect(result.summary).toBe(`[blob:${result.blobId}] json_array | 50 entries`);
    expect(await store.load(result.blobId ?? "")).toEqual({ kind: "structured", value: rows });
  });

  it("puts the blob pointer in front of a summary the tool wrote", async () => {
    const store = new MemoryBlobStore();
    const result = await toHistoryResult(
      stored({ kind: "text", text: "tiny but stored" }, "build log of 2 steps"),
      store,
    );
    expect(result.content).toBe(`[blob:${result.blobId}] build log of 2 steps`);
    expect(result.summary).toBe(result.content);
    const long = await toHistoryResult(stored({ kind: "text", text: "x" }, "s".repeat(1000)), store);
    expect(bytesOf(long.content)).toBe(400);
    expect(long.content.endsWith("…")).toBe(true);
  });

  it("respects an explicit inline output of any size", async () => {
    const store = new MemoryBlobStore();
    const text = log(500);
    expect(await toHistoryResult(inline(text), store)).toEqual({
      content: text,
      summary: inlineSummary(text),
    });
    expect(store.size).toBe(0);
  });

  it("keeps everything inline, in full, without a store", async () => {
    const text = log(1000);
    expect(await toHistoryResult(text, undefined)).toEqual({
      content: text,
      summary: "1000 lines | entry 1: some log text",
    });
    // A stored output without a store is shown whole; its summary is not used.
    const value = { rows: [1, 2, 3] };
    expect(await toHistoryResult(stored({ kind: "structured", value }, "ignored"), undefined)).toEqual({
      content: '{"rows":[1,2,3]}',
      summary: '1 lines | {"rows":[1,2,3]}',
    });
  });

  it("falls back to inline and reports the error when the store fails", async () => {
    const failing: BlobStore = {
      store: async () => {
        throw new Error("disk full");
      },
      load: async () => ({ kind: "text", text: "" }),
      exists: async () => false,
    };
    const text = log(100);
    const result = await toHistoryResult(text, failing);
    expect(result.content).toBe(text);
    expect(result.blobId).toBeUndefined();
    expect(result.storeError).toMatchObject({
      name: "BlobStoreError",
      kind: "io",
      message: "could not store blob: disk full",
    });
  });

  it("honours other limits", async () => {
    const store = new MemoryBlobStore();
    const small = await toHistoryResult("a".repeat(50), store, {
      inlineLimitBytes: 10,
      summaryLimitBytes: 100,
    });
    expect(small.blobId).toBeDefined();
    expect(bytesOf(small.content)).toBeLessThanOrEqual(100);
  });
});

describe("inlineSummary", () => {
  it("quotes the first non-blank line, cut", () => {
    expect(inlineSummary("")).toBe("0 lines");
    expect(inlineSummary("\n\n   \n")).toBe("3 lines");
    expect(inlineSummary("\n  hello  \nworld")).toBe("3 lines | hello");
    const summary = inlineSummary("é".repeat(200));
    expect(summary).toMatch(/^1 lines \| é+…$/);
    expect(bytesOf(summary)).toBeLessThanOrEqual("1 lines | ".length + 100);
  });
});
