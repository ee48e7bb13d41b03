/**
 * Seed 000 wired into the Worker, end to end: a real FsBlobStore in a temporary directory, the
 * mock provider over real HTTP, and assertions on what reaches history, the disk and the wire.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BLOB_STORE_TOOL_OUTPUT,
  FsBlobStore,
  type Item,
  stored,
  type ToolResultItem,
  tool,
  Worker,
} from "../../src/index.js";
import type { RecordedRequest } from "../../src/testing/index.js";
import type { JsonValue } from "../../src/tool/tool-output.js";
import { clientFor, SCHEMES, useMockProvider } from "./tools-harness.js";

const mock = useMockProvider();

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function blobDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "yoake-blobs-"));
  dirs.push(dir);
  // A subdirectory the store must create itself, as `<root>/blobs` is in a real session.
  return join(dir, "blobs");
}

/** 100 lines, 5.3 KB: far over the 800-byte inline limit. Line n holds `marker-n`. */
const LOG = Array.from(
  { length: 100 },
  (_, i) =>
    `${String(i + 1).padStart(3, "0")} GET /api/items/${i * 7} 200 ${10 + (i % 13)} ms ua=curl marker-${i + 1}`,
).join("\n");

const readLog = tool({
  name: "read_log",
  description: "Read the access log",
  input: z.object({}),
  execute: () => LOG,
});

const records: JsonValue[] = Array.from({ length: 50 }, (_, i) => ({
  id: i,
  email: `user${i}@example.test`,
  plan: i % 3 === 0 ? "pro" : "free",
}));
const queryUsers = tool({
  name: "query_users",
  description: "List users",
  input: z.object({}),
  execute: () => stored({ kind: "structured", value: records }),
});
const getSettings = tool({
  name: "get_settings",
  description: "Read the settings",
  input: z.object({}),
  // A JSON string, as HTTP APIs and MCP servers return them.
  execute: () =>
    JSON.stringify(
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`setting_${i}`, `value number ${i}`])),
      null,
      2,
    ),
});

const BLOB_POINTER = /\[blob:([0-9a-f-]{36})\]/;

/** The id of the (last) blob pointer the model was shown in this request. */
function blobIdSeenIn(request: RecordedRequest): string {
  const ids = [...JSON.stringify(request.body).matchAll(new RegExp(BLOB_POINTER, "g"))];
  const id = ids.at(-1)?.[1];
  if (id === undefined) throw new Error("the request shows no blob pointer");
  return id;
}

const wire = (n: number): string => JSON.stringify(mock().requests[n]?.body);

function results(history: readonly Item[]): ToolResultItem[] {
  return history.filter((item): item is ToolResultItem => item.type === "tool_result");
}

/**
 * The model calls `first`, then `inspect` on the blob it was shown with each of `selectors` (in
 * parallel), then answers.
 */
function scriptInspect(first: string, selectors: readonly string[]): void {
  mock().enqueue({ blocks: [{ type: "tool_call", name: first, arguments: {} }] });
  let step = 0;
  mock().setHandler((request) => {
    step++;
    if (step > 1) return { blocks: [{ type: "text", text: "done" }] };
    const blob_id = blobIdSeenIn(request);
    return {
      blocks: selectors.map((selector) => ({
        type: "tool_call" as const,
        name: "inspect",
        arguments: { blob_id, selector },
      })),
    };
  });
}

describe("Worker with an FsBlobStore", () => {
  it.each(SCHEMES)("keeps a 5 KB text result as a blob and its summary in history (%s)", async (scheme) => {
    const dir = await blobDir();
    scriptInspect("read_log", ["lines:40-42"]);
    const worker = new Worker({
      client: clientFor(mock(), scheme),
      tools: [readLog],
      blobStore: new FsBlobStore(dir),
    });

    const result = await worker.run("what happened at request 41?");
    expect(result.status).toBe("finished");

    const [logResult, inspectResult] = results(worker.history);
    const id = logResult?.content?.match(BLOB_POINTER)?.[1];
    expect(id).toBeDefined();
    // History holds the seed-000 summary only: pointer, kind, head and tail, at most 400 bytes.
    expect(logResult?.content?.startsWith(`[blob:${id}] text | 100 lines\n── head ──\n001 GET`)).toBe(true);
    expect(Buffer.byteLength(logResult?.content ?? "")).toBeLessThanOrEqual(400);
    expect(logResult?.content).not.toContain("marker-50");
    expect(logResult?.summary).toBe(`[blob:${id}] text | 100 lines`);
    // The blob file holds the whole text, and it is the only file.
    expect(await readFile(join(dir, `${id}.txt`), "utf8")).toBe(LOG);
    expect(await readdir(dir)).toEqual([`${id}.txt`]);
    // The wire carried the summary, never the text.
    expect(wire(1)).toContain(`[blob:${id}]`);
    expect(wire(1)).not.toContain("marker-50");

    // The model read lines 40-42 back with inspect, and the next request carried them.
    expect(inspectResult?.name).toBe("inspect");
    expect(inspectResult?.isError).toBeFalsy();
    expect(inspectResult?.content).toBe(
      `── lines 40-42 of 100 ──\n${LOG.split("\n")
        .slice(39, 42)
        .map((line, i) => `${40 + i}\t${line}`)
        .join("\n")}`,
    );
    expect(wire(2)).toContain("marker-41");
  });

  it("never stores an inspect answer as another blob, however long", async () => {
    const dir = await blobDir();
    scriptInspect("read_log", ["lines:1-100", "lines:50"]);
    const worker = new Worker({
      client: clientFor(mock(), "anthropic"),
      tools: [readLog],
      blobStore: new FsBlobStore(dir),
    });

    expect((await worker.run("show me the whole log")).status).toBe("finished");
    const [logResult, whole, one] = results(worker.history);
    // The answer is far over the 800-byte promotion limit and still inline, in full.
    expect(Buffer.byteLength(whole?.content ?? "")).toBeGreaterThan(5000);
    expect(whole?.content).not.toMatch(BLOB_POINTER);
    expect(whole?.content).toContain("100\t100 GET");
    // Its summary is how to read it again, so prune may drop it: `[blob:<id>] <selector>`.
    const id = logResult?.content?.match(BLOB_POINTER)?.[1];
    expect(whole?.summary).toBe(`[blob:${id}] lines:1-100`);
    expect(one?.content).toContain("50\t050 GET");
    expect(one?.summary).toBe(`[blob:${id}] lines:50`);
    // Still the one blob the log made.
    expect(await readdir(dir)).toEqual([`${logResult?.content?.match(BLOB_POINTER)?.[1]}.txt`]);
  });

  it("stores a structured output as JSON, which inspect slices", async () => {
    const dir = await blobDir();
    scriptInspect("query_users", ["slice:10..12"]);
    const worker = new Worker({
      client: clientFor(mock(), "openai-chat"),
      tools: [queryUsers],
      blobStore: new FsBlobStore(dir),
    });

    expect((await worker.run("who is user 11?")).status).toBe("finished");
    const [usersResult, slice] = results(worker.history);
    const id = usersResult?.content?.match(BLOB_POINTER)?.[1];
    expect(usersResult?.content).toContain(`[blob:${id}] json_array | 50 entries\n── schema ──\nid: number`);
    expect(JSON.parse(await readFile(join(dir, `${id}.json`), "utf8"))).toEqual(records);
    expect(slice?.content).toBe(
      [
        "── entries 10..12 of 50 ──",
        '[10] {"id":10,"email":"user10@example.test","plan":"free"}',
        '[11] {"id":11,"email":"user11@example.test","plan":"free"}',
      ].join("\n"),
    );
    expect(wire(2)).toContain("user11@example.test");
  });

  it("stores a JSON string result as structured content, which inspect reads by key", async () => {
    const dir = await blobDir();
    scriptInspect("get_settings", ["key:setting_33"]);
    const worker = new Worker({
      client: clientFor(mock(), "gemini"),
      tools: [getSettings],
      blobStore: new FsBlobStore(dir),
    });

    expect((await worker.run("what is setting 33?")).status).toBe("finished");
    const [settings, value] = results(worker.history);
    const id = settings?.content?.match(BLOB_POINTER)?.[1];
    expect(settings?.content).toMatch(/json_object \| 40 keys\n── keys ──\nsetting_0: string \(14 bytes\)/);
    expect(await readdir(dir)).toEqual([`${id}.json`]);
    expect(value?.content).toContain('"value number 33"');
  });

  it("gives the model a clear error for an unknown blob id", async () => {
    mock().enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            name: "inspect",
            arguments: { blob_id: "0190b2c4-7d1e-7a3b-9c4f-5e6d7a8b9c0d" },
          },
        ],
      },
      { blocks: [{ type: "text", text: "sorry" }] },
    );
    const worker = new Worker({
      client: clientFor(mock(), "anthropic"),
      blobStore: new FsBlobStore(await blobDir()),
    });
    expect((await worker.run("inspect something")).status).toBe("finished");
    const [answer] = results(worker.history);
    expect(answer?.isError).toBe(true);
    expect(answer?.content).toContain("blob ids are the UUIDs in [blob:<id>]");
  });
});

describe("Worker without a BlobStore", () => {
  it("keeps every output inline and offers no inspect tool", async () => {
    mock().enqueue(
      {
        blocks: [
          { type: "tool_call", name: "read_log", arguments: {} },
          { type: "tool_call", name: "query_users", arguments: {} },
        ],
      },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const worker = new Worker({ client: clientFor(mock(), "anthropic"), tools: [readLog, queryUsers] });

    expect((await worker.run("read everything")).status).toBe("finished");
    const [log, users] = results(worker.history);
    expect(log?.content).toBe(LOG);
    expect(log?.summary).toBe("100 lines | 001 GET /api/items/0 200 10 ms ua=curl marker-1");
    // A stored output with no store is shown whole, as compact JSON.
    expect(users?.content).toBe(JSON.stringify(records));
    expect(wire(1)).toContain("marker-50");
    const body = mock().requests[0]?.body as { tools?: { name: string }[] } | undefined;
    expect(body?.tools?.map((t) => t.name)).toEqual(["read_log", "query_users"]);
  });
});

describe("Worker with BLOB_STORE_TOOL_OUTPUT (the Pod's tool outputs)", () => {
  /** `grep -n` over the log: 400 lines, two of which match the call's pattern. */
  const GREP = Array.from({ length: 400 }, (_, i) =>
    i === 250 || i === 310 ? `src/lease.ts:${i}: renewLease(window, ${i})` : `src/other.ts:${i}: noop(${i})`,
  ).join("\n");
  /** 30 lines of the log: 1.6 KB, about 650 tokens. */
  const SHORT_LOG = LOG.split("\n").slice(0, 30).join("\n");
  const readShortLog = tool({
    name: "read_log",
    description: "Read the start of the access log",
    input: z.object({}),
    execute: () => SHORT_LOG,
  });
  const grep = tool({
    name: "grep",
    description: "Search",
    input: z.object({ pattern: z.string() }),
    execute: () => GREP,
  });

  it("keeps inline what fits in 1,536 tokens, and summarizes the rest around the call's query", async () => {
    mock().enqueue(
      { blocks: [{ type: "tool_call", name: "read_log", arguments: {} }] },
      { blocks: [{ type: "tool_call", name: "grep", arguments: { pattern: "renewLease" } }] },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const worker = new Worker({
      client: clientFor(mock(), "anthropic"),
      tools: [readShortLog, grep],
      blobStore: new FsBlobStore(await blobDir()),
      toolOutput: BLOB_STORE_TOOL_OUTPUT,
    });
    expect((await worker.run("find the lease renewals")).status).toBe("finished");
    const [log, found] = results(worker.history);
    // 1.6 KB would be stored at the seed's 800 bytes; in tokens it is well under the limit.
    expect(Buffer.byteLength(SHORT_LOG)).toBeGreaterThan(800);
    expect(log?.content).toBe(SHORT_LOG);
    expect(found?.content).toMatch(/^\[blob:[0-9a-f-]{36}\] text \| 400 lines \| 2 lines match "renewLease"/);
    expect(found?.content).toContain("251: src/lease.ts:250: renewLease(window, 250)");
    expect(found?.content).toContain("311: src/lease.ts:310: renewLease(window, 310)");
    expect(wire(2)).toContain("311: src/lease.ts:310: renewLease(window, 310)");
  });
});
