import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type Item, tool, Worker, type WorkerResult } from "@yoake/llm-worker";
import { type MockProvider, type RecordedRequest, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { testConfig, testKey } from "../../test/support/session-test-config.js";
import { type AppendableEntry, itemEntry } from "../session-log/entry.js";
import { continueInNewSession } from "../session-log/link.js";
import { readSessionLog } from "../session-log/read.js";
import { SessionLog } from "../session-log/session-log.js";
import { restoreSession, restoreSessionFile } from "./restore.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "yoake-restore-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const user = (text: string): Item => ({ type: "message", role: "user", text });
const assistant = (text: string): Item => ({ type: "message", role: "assistant", text });
const call = (callId: string): Item => ({ type: "tool_call", callId, name: "read_file", arguments: "{}" });
const result = (callId: string): Item => ({
  type: "tool_result",
  callId,
  name: "read_file",
  summary: "1 lines | x",
  content: "x",
});

async function logOf(entries: AppendableEntry[]): Promise<string> {
  const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
  for (const entry of entries) await log.append(entry);
  await log.close();
  return log.path;
}

describe("restoreSession", () => {
  it("rebuilds history from item entries in order, sums usage, keeps pruned call ids", async () => {
    const path = await logOf([
      {
        type: "user_input",
        segments: [
          { type: "text", text: "read " },
          { type: "file_ref", path: "a.ts" },
        ],
        text: "read @a.ts",
      },
      { type: "run_start" },
      itemEntry(user("read @a.ts")),
      itemEntry({ type: "message", role: "system", text: "[File: a.ts]\nx" }),
      itemEntry(call("c1")),
      { type: "usage", usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 50 } },
      itemEntry(result("c1")),
      { type: "alert", level: "warn", message: "slow disk" },
      itemEntry(assistant("done")),
      { type: "usage", usage: { inputTokens: 130, outputTokens: 5 } },
      { type: "pruned", callIds: ["c1"] },
      { type: "run_end", status: "finished" },
    ]);
    const restored = await restoreSessionFile(path, testKey);
    expect(restored.history).toEqual([
      user("read @a.ts"),
      { type: "message", role: "system", text: "[File: a.ts]\nx" },
      call("c1"),
      result("c1"),
      assistant("done"),
    ]);
    expect(restored.usage).toEqual({ inputTokens: 230, outputTokens: 15, cacheReadInputTokens: 50 });
    expect(restored.requests).toBe(2);
    expect(restored.prunedCallIds).toEqual(["c1"]);
    expect(restored.lastRun).toEqual({ state: "finished" });
    expect(restored.openToolCalls).toEqual([]);
    expect(restored.entryCount).toBe(13);
    expect(restored.warnings).toEqual([]);
  });

  it("tells a paused run (with the calls it waits on) from a cancelled, failed, interrupted or absent one", async () => {
    const paused = await restoreSessionFile(
      await logOf([
        { type: "run_start" },
        itemEntry(user("write it")),
        itemEntry(call("w1")),
        { type: "paused", reason: "approval needed for write_file", by: "approvals", pendingCallIds: ["w1"] },
      ]),
      testKey,
    );
    expect(paused.lastRun).toEqual({
      state: "paused",
      reason: "approval needed for write_file",
      by: "approvals",
      pendingCallIds: ["w1"],
    });
    expect(paused.openToolCalls).toEqual([call("w1")]);

    const resumedThenKilled = await restoreSessionFile(
      await logOf([
        { type: "run_start" },
        { type: "paused", reason: "r", pendingCallIds: [] },
        { type: "resumed" },
      ]),
      testKey,
    );
    expect(resumedThenKilled.lastRun).toEqual({ state: "interrupted" });

    const cancelled = await restoreSessionFile(
      await logOf([{ type: "run_start" }, { type: "cancelled", reason: "the user pressed Esc", by: "user" }]),
      testKey,
    );
    expect(cancelled.lastRun).toEqual({ state: "cancelled", reason: "the user pressed Esc", by: "user" });

    const failed = await restoreSessionFile(
      await logOf([{ type: "run_start" }, { type: "run_end", status: "failed", message: "overloaded" }]),
      testKey,
    );
    expect(failed.lastRun).toEqual({ state: "failed", message: "overloaded" });

    const interrupted = await restoreSessionFile(
      await logOf([{ type: "run_start" }, itemEntry(call("k"))]),
      testKey,
    );
    expect(interrupted.lastRun).toEqual({ state: "interrupted" });
    expect(interrupted.openToolCalls).toEqual([call("k")]);

    const notified = await restoreSessionFile(await logOf([itemEntry(user("just so you know"))]), testKey);
    expect(notified.lastRun).toEqual({ state: "none" });
    expect(notified.history).toEqual([user("just so you know")]);
  });

  it("refuses entries that do not start with session_start", () => {
    expect(() => restoreSession([])).toThrow("session_start");
  });
});

describe("across a compaction", () => {
  it("links the new session to the old one, chain included, and restarts history from the summary", async () => {
    const old = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    for (const item of [user("a"), call("c1"), result("c1"), assistant("b")])
      await old.append(itemEntry(item));
    await old.append({ type: "pruned", callIds: ["c1"] });
    await old.append({ type: "usage", usage: { inputTokens: 9000, outputTokens: 100 } });

    const next = await continueInNewSession(old, {
      dir,
      summary: "Goal: X. Done: Y.",
      config: testConfig(dir),
      options: { key: testKey },
    });
    await next.append(itemEntry({ type: "message", role: "system", text: "[File: a.ts]\nx" }));
    await next.append(itemEntry(user("go on")));
    await next.close();

    const oldContents = await readSessionLog(old.path, testKey);
    const nextContents = await readSessionLog(next.path, testKey);
    // The chain runs on from the old file's last line into the new file's first.
    expect(nextContents.entries[0]?.prev).toBe(oldContents.lastHash);
    expect(nextContents.start.previous).toEqual({ sessionId: old.id, lastHash: oldContents.lastHash });
    expect(oldContents.entries.at(-1)).toMatchObject({
      type: "compaction",
      sessionId: next.id,
      previousSessionId: old.id,
    });

    const restored = restoreSession(nextContents.entries);
    expect(restored.history).toEqual([
      user("Goal: X. Done: Y."),
      { type: "message", role: "system", text: "[File: a.ts]\nx" },
      user("go on"),
    ]);
    expect(restored.prunedCallIds).toEqual([]);
    expect(restored.previousSessionId).toBe(old.id);
    expect(restored.usage).toEqual({});

    // The old log still restores whole, and says where the conversation went.
    const restoredOld = restoreSession(oldContents.entries);
    expect(restoredOld.history).toEqual([user("a"), call("c1"), result("c1"), assistant("b")]);
    expect(restoredOld.continuedIn).toBe(next.id);
    expect(restoredOld.prunedCallIds).toEqual(["c1"]);
  });
});

describe("a Worker restored from the log alone", () => {
  let provider: MockProvider;
  beforeEach(async () => {
    provider = await startMockProvider();
  });
  afterEach(() => provider.close());

  const clock = tool({
    name: "clock",
    description: "The time now",
    input: z.object({}),
    execute: () => "12:00",
  });

  function newWorker(history?: readonly Item[]): Worker {
    const client = createClient({
      scheme: "anthropic",
      model: "mock-model",
      baseURL: provider.baseURLFor("anthropic"),
      apiKey: "test-key",
      retry: { maxRetries: 0 },
    });
    return new Worker({ client, tools: [clock], ...(history === undefined ? {} : { history }) });
  }

  /** Logs one run the way a Pod does: run markers around it, then each new history item and the usage. */
  async function loggedRun(log: SessionLog, worker: Worker, input: string): Promise<WorkerResult> {
    await log.append({ type: "user_input", segments: [{ type: "text", text: input }], text: input });
    await log.append({ type: "run_start" });
    const before = worker.history.length;
    const outcome = await worker.run(input);
    for (const item of worker.history.slice(before)) await log.append(itemEntry(item));
    await log.append({ type: "usage", usage: outcome.usage });
    if (outcome.status === "finished") await log.append({ type: "run_end", status: "finished" });
    return outcome;
  }

  it("continues the conversation with the same history the first Worker had", async () => {
    provider.enqueue(
      {
        blocks: [{ type: "tool_call", id: "toolu_1", name: "clock", arguments: {} }],
        usage: { inputTokens: 50, outputTokens: 5 },
      },
      { blocks: [{ type: "text", text: "It is 12:00." }], usage: { inputTokens: 70, outputTokens: 6 } },
    );
    const first = newWorker();
    const created = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    const outcome = await loggedRun(created, first, "What time is it?");
    expect(outcome.status).toBe("finished");
    await created.close();

    // A new process: nothing but the file.
    const { log, contents } = await SessionLog.open(created.path, { key: testKey });
    const restored = restoreSession(contents.entries);
    expect(restored.history).toEqual(first.history);
    expect(restored.usage).toEqual(outcome.usage);
    expect(restored.lastRun).toEqual({ state: "finished" });

    provider.enqueue({
      blocks: [{ type: "text", text: "Still 12:00." }],
      usage: { inputTokens: 90, outputTokens: 4 },
    });
    const second = newWorker(restored.history);
    await loggedRun(log, second, "And now?");
    await log.close();

    const sent = (provider.requests.at(-1) as RecordedRequest).body as {
      messages: { role: string; content: unknown }[];
    };
    expect(sent.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    const wire = JSON.stringify(sent.messages);
    for (const fragment of ["What time is it?", "toolu_1", "12:00", "It is 12:00.", "And now?"]) {
      expect(wire).toContain(fragment);
    }
    expect(restoreSession((await readSessionLog(created.path, testKey)).entries).history).toEqual(
      second.history,
    );
  });
});
