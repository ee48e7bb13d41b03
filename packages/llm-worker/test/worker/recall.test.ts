/**
 * Recall at the turn boundary, wired into the Worker: a later user message that names something
 * an earlier stored output held gets the lines naming it, so the model needs no `inspect` round
 * trip. Real HTTP to the mock provider; the stored outputs in a `MemoryBlobStore`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { withoutContent } from "../../src/context/prune.js";
import {
  type Item,
  MemoryBlobStore,
  pruneInterceptor,
  type RecallInterceptor,
  recallInterceptor,
  systemMessage,
  type ToolResultItem,
  tool,
  userMessage,
  Worker,
} from "../../src/index.js";
import { type MockProvider, startMockProvider } from "../../src/testing/index.js";
import { mockClient } from "../support/client-test-kit.js";

let provider: MockProvider;
beforeEach(async () => {
  provider = await startMockProvider();
});
afterEach(() => provider.close());

/** 400 lines of code with one constant in the middle: stored, and its summary shows neither. */
const SOURCE = Array.from({ length: 400 }, (_, i) =>
  i === 199 ? "export const LEASE_GRACE_MS = 4711;" : `  queue.push(${i}); // work item ${i}`,
).join("\n");

const readFile = tool({
  name: "read_file",
  description: "Read a file",
  input: z.object({ path: z.string() }),
  execute: () => SOURCE,
});

/** The text of the user side of the `n`th request (prompts, system items sent as user text, results). */
const userSide = (n: number): string => {
  const body = provider.requests[n]?.body as { messages: { role: string; content: unknown }[] };
  return JSON.stringify(body.messages.filter((m) => m.role === "user"));
};

function workerWithRecall(): { worker: Worker; recall: RecallInterceptor } {
  const store = new MemoryBlobStore();
  const recall = recallInterceptor({ store });
  const worker = new Worker({
    client: mockClient(provider, "anthropic", { retry: { maxRetries: 0 } }),
    tools: [readFile],
    blobStore: store,
    interceptors: [pruneInterceptor(), recall],
  });
  return { worker, recall };
}

describe("recallInterceptor in a Worker", () => {
  it("adds the lines of an earlier stored output that the new message names, after the message", async () => {
    const { worker, recall } = workerWithRecall();
    provider.enqueue(
      {
        blocks: [{ type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "src/lease.ts" } }],
      },
      { blocks: [{ type: "text", text: "Read it." }] },
      { blocks: [{ type: "text", text: "It is 4711." }] },
      { blocks: [{ type: "text", text: "Done." }] },
    );
    await worker.run("Read src/lease.ts");
    // Stored: the first turn's requests never carried the constant.
    expect(userSide(1)).not.toContain("LEASE_GRACE_MS = 4711");

    await worker.run("What is LEASE_GRACE_MS set to?");
    expect(userSide(2)).toContain("200: export const LEASE_GRACE_MS = 4711;");
    expect(userSide(2)).toMatch(/\[blob:[0-9a-f-]{36}\] lines:199-201/);
    const added = worker.history.find((item) => item.type === "message" && item.role === "system");
    expect(added).toMatchObject({
      text: expect.stringMatching(/^\[recall\] earlier tool outputs naming LEASE_GRACE_MS/),
    });
    expect(recall.recalls).toBe(1);

    // A message naming nothing gets nothing.
    await worker.run("Thanks, carry on.");
    expect(recall.recalls).toBe(1);
    expect(worker.history.filter((item) => item.type === "message" && item.role === "system")).toHaveLength(
      1,
    );
  });
});

describe("recallInterceptor after a restore", () => {
  it("recalls from the stored outputs of the history it was given, from the first prompt on", async () => {
    const store = new MemoryBlobStore();
    const id = await store.store({ kind: "text", text: SOURCE });
    const restored: Item[] = [
      userMessage("Read src/lease.ts"),
      { type: "tool_call", callId: "c1", name: "read_file", arguments: "{}" },
      { type: "tool_result", callId: "c1", name: "read_file", summary: `[blob:${id}] text | 400 lines` },
    ];
    const prompt = { items: [userMessage("And LEASE_GRACE_MS?")] };
    expect(await recallInterceptor({ store }).onPromptSubmit?.(prompt)).toBeUndefined();
    const action = await recallInterceptor({ store, history: restored }).onPromptSubmit?.(prompt);
    expect(action).toMatchObject({
      action: "continue_with",
      items: [{ role: "system", text: expect.stringContaining("200: export const LEASE_GRACE_MS = 4711;") }],
    });
  });
});

describe("recallInterceptor over inline outputs", () => {
  it("searches an inline result once prune has taken it out of the requests, naming the call that made it", async () => {
    const recall = recallInterceptor({ store: new MemoryBlobStore() });
    const text = "line one\nexport const SESSION_TTL_S = 1800;\nline three";
    const result: ToolResultItem = {
      type: "tool_result",
      callId: "c1",
      name: "read_file",
      summary: "3 lines | line one",
      content: text,
    };
    await recall.afterToolCall?.(result, {
      id: "c1",
      name: "read_file",
      argumentsText: '{"path":"src/a.ts"}',
      arguments: { path: "src/a.ts" },
    });
    const prompt = { items: [userMessage("Is SESSION_TTL_S right?")] };
    const turn: Item[] = [
      userMessage("read"),
      { type: "tool_call", callId: "c1", name: "read_file", arguments: '{"path":"src/a.ts"}' },
    ];
    // Still sent whole: nothing to recall, the model sees it.
    await recall.onPreRequest?.({
      request: { items: [...turn, result] },
      turn: 0,
      usage: {},
      previousUsage: undefined,
    });
    expect(await recall.onPromptSubmit?.(prompt)).toBeUndefined();
    // Pruned: recalled, under the call that reads it again.
    await recall.onPreRequest?.({
      request: { items: [...turn, withoutContent(result)] },
      turn: 0,
      usage: {},
      previousUsage: undefined,
    });
    expect(await recall.onPromptSubmit?.(prompt)).toMatchObject({
      action: "continue_with",
      items: [
        {
          role: "system",
          text: expect.stringContaining(
            '[read_file {"path":"src/a.ts"}] lines:1-3\n1- line one\n2: export const SESSION_TTL_S = 1800;',
          ),
        },
      ],
    });
  });
});

describe("recallInterceptor's short life", () => {
  const full = systemMessage(
    "[recall] earlier tool outputs naming X_NAME (inspect a blob to read more):\n" +
      "[blob:01890000-0000-7000-8000-000000000001] lines:9-11\n9- a\n10: X_NAME = 1\n11- b",
  );
  const result = (callId: string, content?: string): Item => ({
    type: "tool_result",
    callId,
    name: "read_file",
    summary: "[blob:01890000-0000-7000-8000-000000000001] text | 20 lines",
    ...(content !== undefined && { content }),
  });
  const before: Item[] = [
    userMessage("read it"),
    { type: "tool_call", callId: "c1", name: "read_file", arguments: "{}" },
    result("c1", "the whole summary"),
    { type: "message", role: "assistant", text: "read" },
    userMessage("what is X_NAME?"),
    full,
    { type: "message", role: "assistant", text: "1" },
  ];
  const send = async (recall: RecallInterceptor, items: Item[]): Promise<readonly Item[]> => {
    const request = { items } as Parameters<NonNullable<RecallInterceptor["onPreRequest"]>>[0]["request"];
    await recall.onPreRequest?.({ request, turn: 0, usage: {}, previousUsage: undefined });
    return request.items;
  };

  it("stays whole while the cached prefix reaches past it, and is cut to its references once the prefix breaks before it", async () => {
    const recall = recallInterceptor({ store: new MemoryBlobStore() });
    await send(recall, [...before]);
    // A later turn adds items after it: the prefix holds, the recall is sent whole.
    const later = await send(recall, [...before, userMessage("and next?")]);
    expect(later[5]).toBe(full);
    // A prune rewrites the result before it: the prefix breaks there, the recall shrinks for free.
    const pruned = await send(recall, [
      ...before.slice(0, 2),
      result("c1"),
      ...before.slice(3),
      userMessage("and next?"),
    ]);
    expect(pruned[5]).toMatchObject({
      role: "system",
      text: "[recall] shown earlier: [blob:01890000-0000-7000-8000-000000000001] lines:9-11",
    });
    // And stays short, the same object, on every later request.
    const again = await send(recall, [...pruned, { type: "message", role: "assistant", text: "ok" }]);
    expect(again[5]).toBe(pruned[5]);
  });

  it("is never cut during its own turn", async () => {
    const recall = recallInterceptor({ store: new MemoryBlobStore() });
    const turn = before.slice(0, 6);
    const sent = await send(recall, [...turn.slice(0, 2), result("c1"), ...turn.slice(3)]);
    expect(sent[5]).toBe(full);
  });
});
