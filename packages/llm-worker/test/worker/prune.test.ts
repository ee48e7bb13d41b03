/**
 * Seed 003 wired into the Worker: `pruneInterceptor` projects each request's context while the
 * stored history keeps everything. Real HTTP to the mock provider, which reports the prompt size
 * it received as usage (cache reads for the prefix it saw last time), the way a provider does.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { withoutContent } from "../../src/context/prune.js";
import {
  createClient,
  FsBlobStore,
  type Interceptor,
  type Item,
  inline,
  type PruneOptions,
  pruneInterceptor,
  type ToolResultItem,
  tool,
  Worker,
} from "../../src/index.js";
import { estimateItemTokens, estimateTextTokens } from "../../src/internal.js";
import type { RecordedRequest } from "../../src/testing/index.js";
import { useMockProvider } from "./tools-harness.js";

const mock = useMockProvider();

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A file of about 2,000 tokens whose every line names it (`FILE-<name>`): easy to look for on the wire. */
function fileText(name: string): string {
  return Array.from(
    { length: 120 },
    (_, i) => `FILE-${name} line ${i + 1}: export const value${i} = compute("${name}", ${i});`,
  ).join("\n");
}

/** A 5 KB search result: stored as a blob, so history holds its summary with the pointer. */
function grepText(pattern: string): string {
  return Array.from({ length: 90 }, (_, i) => `src/m${i}.ts:${i + 3}: GREP-${pattern} match ${i}`).join("\n");
}

const readFile = tool({
  name: "read_file",
  description: "Read a file",
  input: z.object({ path: z.string() }),
  // Shown whole while fresh, as a file the model asked for must be (DESIGN: read_file is Inline).
  execute: ({ path }) => inline(fileText(path)),
});
const grep = tool({
  name: "grep",
  description: "Search",
  input: z.object({ pattern: z.string() }),
  execute: ({ pattern }) => grepText(pattern),
});

type Step = { tool: "read_file"; path: string } | { tool: "grep"; pattern: string };
const STEPS: Step[] = [
  { tool: "grep", pattern: "alpha" },
  { tool: "read_file", path: "a" },
  { tool: "read_file", path: "b" },
  { tool: "read_file", path: "c" },
  { tool: "grep", pattern: "beta" },
  { tool: "read_file", path: "d" },
  { tool: "read_file", path: "e" },
  { tool: "read_file", path: "f" },
  { tool: "read_file", path: "g" },
  { tool: "read_file", path: "h" },
  { tool: "read_file", path: "i" },
  { tool: "read_file", path: "j" },
];

/** The messages of a recorded request as the provider would cache them: without breakpoint markers. */
function messagesOf(request: RecordedRequest | undefined): string[] {
  const body = request?.body as { messages: unknown[] };
  return body.messages.map((message) =>
    JSON.stringify(message, (key, value) => (key === "cache_control" ? undefined : value)),
  );
}

/** How many leading messages two requests share. */
function sharedMessages(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The scripted model: one tool call per step, then a final answer. Usage as a caching provider
 * reports it: the whole prompt (estimated from the messages it received), of which the messages
 * shared with the previous request were cache reads.
 */
function scriptSession(steps: readonly Step[]): void {
  let previous: string[] = [];
  mock().setHandler((request) => {
    const n = mock().requests.length - 1;
    const messages = messagesOf(request);
    const tokens = messages.map((m) => estimateTextTokens(m));
    const total = tokens.reduce((a, b) => a + b, 0);
    const cached = tokens.slice(0, sharedMessages(previous, messages)).reduce((a, b) => a + b, 0);
    previous = messages;
    const usage = {
      inputTokens: total,
      outputTokens: 20,
      cacheReadInputTokens: cached,
      cacheCreationInputTokens: total - cached,
    };
    const step = steps[n];
    if (step === undefined) return { blocks: [{ type: "text", text: "all read" }], usage };
    const args = step.tool === "read_file" ? { path: step.path } : { pattern: step.pattern };
    return { blocks: [{ type: "tool_call", id: `call_${n}`, name: step.tool, arguments: args }], usage };
  });
}

/** Runs the session; records, for every request, the call ids the pruner had pruned when it was sent. */
async function runSession(options: PruneOptions) {
  const dir = await mkdtemp(join(tmpdir(), "yoake-prune-"));
  dirs.push(dir);
  const prune = pruneInterceptor(options);
  const prunedAtRequest: string[][] = [];
  const recorder: Interceptor = {
    name: "recorder",
    onPreRequest: () => {
      prunedAtRequest.push([...prune.pruner.prunedCallIds]);
      return undefined;
    },
  };
  scriptSession(STEPS);
  const worker = new Worker({
    client: createClient({
      scheme: "anthropic",
      model: "m",
      baseURL: mock().baseURLFor("anthropic"),
      apiKey: "k",
      retry: { maxRetries: 0 },
    }),
    tools: [readFile, grep],
    blobStore: new FsBlobStore(dir),
    interceptors: [prune, recorder],
  });
  const result = await worker.run("read the files one by one");
  expect(result.status).toBe("finished");
  return { worker, prune, prunedAtRequest };
}

const HEADLESS: PruneOptions = { config: { protectedTurns: 0, protectedTailTokens: 4_000 } };

function resultOf(history: readonly Item[], callId: string): ToolResultItem {
  const item = history.find((i): i is ToolResultItem => i.type === "tool_result" && i.callId === callId);
  if (!item) throw new Error(`no result for ${callId}`);
  return item;
}

describe("pruneInterceptor in a Worker", () => {
  it("sends pruned results as their summary while history keeps the content", async () => {
    const { worker, prunedAtRequest } = await runSession(HEADLESS);
    const requests = mock().requests;
    expect(requests).toHaveLength(STEPS.length + 1);

    const first = prunedAtRequest.findIndex((ids) => ids.length > 0);
    expect(first).toBeGreaterThan(0);
    const wire = JSON.stringify(requests[first]?.body);
    const before = JSON.stringify(requests[first - 1]?.body);

    // The oldest file was on the wire whole until the prune, and only its summary after.
    const fileA = resultOf(worker.history, "call_1");
    expect(prunedAtRequest[first]).toContain("call_1");
    expect(before).toContain("FILE-a line 60:");
    expect(wire).not.toContain("FILE-a line 60:");
    expect(wire).toContain(JSON.stringify(fileA.summary));
    expect(fileA.summary).toBe('120 lines | FILE-a line 1: export const value0 = compute("a", 0);');

    // The stored search result is down to its first line, which still holds the blob pointer.
    const search = resultOf(worker.history, "call_0");
    expect(search.summary).toMatch(/^\[blob:[0-9a-f-]{36}\] text \| 90 lines$/);
    expect(before).toContain("GREP-alpha match 1");
    expect(wire).toContain(search.summary);
    expect(wire).not.toContain("GREP-alpha match 1");

    // History was never changed: every result still has its full content.
    expect(fileA.content).toBe(fileText("a"));
    expect(search.content).toMatch(/^\[blob:[0-9a-f-]{36}\] text \| 90 lines\n── head ──/);
    for (const item of worker.history) if (item.type === "tool_result") expect(item.content).toBeDefined();

    // The newest results are inside the 4,000-token tail and were never pruned.
    const last = requests.at(-1);
    expect(JSON.stringify(last?.body)).toContain("FILE-j line 60:");
    expect(JSON.stringify(last?.body)).toContain("FILE-i line 60:");
  });

  it("keeps the projection stable: the cached prefix moves only when a new batch is pruned", async () => {
    const { prunedAtRequest } = await runSession(HEADLESS);
    const messages = mock().requests.map(messagesOf);
    let batches = 0;
    for (let n = 1; n < messages.length; n++) {
      const previous = messages[n - 1] as string[];
      const shared = sharedMessages(previous, messages[n] as string[]);
      const prunedMore = (prunedAtRequest[n]?.length ?? 0) > (prunedAtRequest[n - 1]?.length ?? 0);
      if (prunedMore) batches++;
      // Without a new prune, the whole previous request is the prefix of this one (a cache hit).
      if (!prunedMore) expect(shared, `request ${n}`).toBe(previous.length);
      else expect(shared, `request ${n}`).toBeLessThan(previous.length);
    }
    // Batched: results are pruned several at a time, not one per request.
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThan((prunedAtRequest.at(-1)?.length ?? 0) - 1);
  });

  it("prunes only when the saving reaches minSavings", async () => {
    const { worker, prunedAtRequest } = await runSession(HEADLESS);
    // At each prune, the tokens the new batch removed were at least the default 4,096.
    for (let n = 1; n < prunedAtRequest.length; n++) {
      const before = new Set(prunedAtRequest[n - 1]);
      const added = (prunedAtRequest[n] ?? []).filter((id) => !before.has(id));
      if (added.length === 0) continue;
      const saved = added
        .map((id) => resultOf(worker.history, id))
        .reduce((sum, item) => sum + estimateItemTokens(item) - estimateItemTokens(withoutContent(item)), 0);
      expect(saved, `request ${n}`).toBeGreaterThanOrEqual(4096);
    }
  });

  it("does not prune at all while the saving stays below minSavings", async () => {
    const { worker, prunedAtRequest } = await runSession({
      config: { ...HEADLESS.config, minSavings: 200_000 },
    });
    expect(prunedAtRequest.every((ids) => ids.length === 0)).toBe(true);
    // Every file went on the wire whole in the last request.
    const last = JSON.stringify(mock().requests.at(-1)?.body);
    for (const path of "abcdefghij") expect(last).toContain(`FILE-${path} line 60:`);
    expect(worker.history.filter((i) => i.type === "tool_result")).toHaveLength(STEPS.length);
  });

  it("never prunes inside the protected turns", async () => {
    // One user turn and the seed's default protection (3 turns): nothing may be pruned.
    const { prunedAtRequest } = await runSession({ config: { minSavings: 1 } });
    expect(prunedAtRequest.every((ids) => ids.length === 0)).toBe(true);
  });
});
