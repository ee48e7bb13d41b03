import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Item } from "@yoake/llm-worker";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testConfig, testKey } from "../../test/support/session-test-config.js";
import { type AppendableEntry, itemEntry } from "./entry.js";
import { readSessionLog } from "./read.js";
import { SessionLog } from "./session-log.js";
import { SessionLogError } from "./session-log-error.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "yoake-log-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const reply = (text: string): AppendableEntry => ({
  type: "item",
  item: { type: "message", role: "assistant", text },
});

describe("SessionLog.create", () => {
  it("writes line 1, a session_start with the config, and nothing secret", async () => {
    const config = {
      ...testConfig(dir),
      model: {
        scheme: "gemini" as const,
        id: "gemini-3-pro",
        baseURL: "https://generativelanguage.googleapis.com/v1beta?key=AIzaSECRET",
        apiKey: "AIzaSECRET",
      },
      headers: { authorization: "Bearer sk-SECRET" },
    };
    const log = await SessionLog.create(
      dir,
      { config },
      { key: testKey, now: () => new Date("2026-11-22T10:00:00Z") },
    );
    await log.close();
    const text = await readFile(log.path, "utf8");
    expect(text).not.toContain("SECRET");
    const line = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(line).slice(0, 4)).toEqual(["seq", "ts", "prev", "type"]);
    expect(Object.keys(line).at(-1)).toBe("mac");
    expect(line).toMatchObject({
      seq: 1,
      ts: "2026-11-22T10:00:00.000Z",
      prev: "0".repeat(64),
      type: "session_start",
      version: 2,
      sessionId: log.id,
      config: { model: { scheme: "gemini", baseURL: "https://generativelanguage.googleapis.com/v1beta" } },
      redacted: ["model.baseURL?key", "model.apiKey", "headers"],
    });
    expect(log.path).toBe(join(dir, `${log.id}.jsonl`));
    // No temporary file or lock is left behind.
    expect(await readdir(dir)).toEqual([`${log.id}.jsonl`]);
  });

  it("refuses a config the schema rejects, leaving no file", async () => {
    const bad = { ...testConfig(dir), scope: "everything" } as unknown as ReturnType<typeof testConfig>;
    await expect(SessionLog.create(dir, { config: bad }, { key: testKey })).rejects.toMatchObject({
      kind: "invalid_entry",
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses an id that exists", async () => {
    const first = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    await first.close();
    await expect(
      SessionLog.create(dir, { config: testConfig(dir), sessionId: first.id }, { key: testKey }),
    ).rejects.toMatchObject({
      kind: "already_exists",
    });
  });
});

describe("SessionLog.append", () => {
  it("keeps every kind of history item exactly", async () => {
    const items: Item[] = [
      { type: "message", role: "user", text: "fix the bug in @src/a.ts" },
      { type: "message", role: "system", text: "[File: src/a.ts]\nexport const a = 1;" },
      {
        type: "reasoning",
        text: "look",
        signature: "sig",
        itemId: "rs_1",
        summary: ["s"],
        encryptedContent: null,
      },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
      { type: "tool_call", callId: "c1", name: "read_file", arguments: '{"path":"a"}', synthesizedId: true },
      {
        type: "tool_result",
        callId: "c1",
        name: "read_file",
        summary: "1 lines | x",
        content: "x",
        isError: false,
      },
      {
        type: "server_tool",
        role: "call",
        id: "srv_1",
        name: "web_search",
        arguments: "{}",
        payload: { nested: [1, { deep: null }] },
        origin: "anthropic",
      },
      {
        type: "message",
        role: "assistant",
        text: 'done \u2028 \ud83d\ude00 "quoted"',
        citations: [{ url: "u" }],
      },
    ];
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    for (const item of items) await log.append(itemEntry(item));
    await log.close();
    const { entries } = await readSessionLog(log.path, testKey);
    expect(entries.slice(1).map((entry) => (entry.type === "item" ? entry.item : entry))).toEqual(items);
  });

  it("records the blob id a stored tool result points to", () => {
    const id = "01937d6e-7a1c-7cc2-9a3f-5d4b3c2a1f00";
    const stored = itemEntry({
      type: "tool_result",
      callId: "c",
      name: "grep",
      summary: `[blob:${id}] text | 900 lines`,
      content: `[blob:${id}] text | 900 lines\nhead...`,
    });
    expect(stored.blobIds).toEqual([id]);
    expect(
      itemEntry({ type: "tool_result", callId: "c", name: "grep", summary: "[blob:nope] x" }).blobIds,
    ).toBeUndefined();
  });

  it("serializes concurrent appends in call order, none interleaved, each resolving with its seq", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    const big = "z".repeat(100_000);
    const receipts = await Promise.all(
      Array.from({ length: 300 }, (_, i) => log.append(reply(i % 10 === 0 ? `${i} ${big}` : String(i)))),
    );
    expect(receipts.map((receipt) => receipt.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 2));
    expect(log.seq).toBe(301);
    expect(log.lastHash).toBe(receipts[299]?.hash);
    await log.close();
    const { entries } = await readSessionLog(log.path, testKey);
    const texts = entries
      .slice(1)
      .map((entry) => (entry.type === "item" && entry.item.type === "message" ? entry.item.text : ""));
    expect(texts.map((text) => text.split(" ")[0])).toEqual(Array.from({ length: 300 }, (_, i) => String(i)));
  });

  it("rejects an invalid entry without spending a seq", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    const invalid = {
      type: "item",
      item: { type: "message", role: "narrator", text: "" },
    } as unknown as AppendableEntry;
    await expect(log.append(invalid)).rejects.toMatchObject({ kind: "invalid_entry" });
    const start = { type: "session_start" } as unknown as AppendableEntry;
    await expect(log.append(start)).rejects.toThrow("session_start is written by create() only");
    expect(await log.append(reply("ok"))).toMatchObject({ seq: 2 });
    await log.close();
    expect((await readSessionLog(log.path, testKey)).entries).toHaveLength(2);
  });

  it("with batch durability acknowledges before the sync, and close() syncs", async () => {
    const log = await SessionLog.create(
      dir,
      { config: testConfig(dir) },
      { key: testKey, durability: "batch", batchIntervalMs: 10_000 },
    );
    for (let i = 0; i < 50; i += 1) await log.append(reply(String(i)));
    // Written (visible to another reader) though not yet synced.
    expect((await readSessionLog(log.path, testKey)).entries).toHaveLength(51);
    await log.flush();
    await log.close();
    expect((await readSessionLog(log.path, testKey)).entries).toHaveLength(51);
  });

  it("refuses appends after close", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    await log.close();
    await expect(log.append(reply("late"))).rejects.toMatchObject({ kind: "write_failed" });
  });
});

describe("the single-writer lock", () => {
  it("refuses a second writer in this process until the first closes", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    await expect(SessionLog.open(log.path, { key: testKey })).rejects.toMatchObject({ kind: "locked" });
    await log.close();
    const { log: again } = await SessionLog.open(log.path, { key: testKey });
    await again.close();
  });

  it("refuses a writer while the process named in the lock lives, and takes over a dead one's", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    await log.close();
    // The parent of this process is alive and is not this process.
    await writeFile(`${log.path}.lock`, `${process.ppid}\n`);
    const refused = await SessionLog.open(log.path, { key: testKey }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionLogError);
    expect((refused as SessionLogError).message).toContain(`process ${process.ppid} is appending to it`);

    const exited = spawnSync(process.execPath, ["-e", ""]);
    await writeFile(`${log.path}.lock`, `${exited.pid}\n`);
    const { log: taken } = await SessionLog.open(log.path, { key: testKey });
    expect(await readFile(`${log.path}.lock`, "utf8")).toBe(`${process.pid}\n`);
    await taken.close();
    expect(await readdir(dir)).toEqual([`${log.id}.jsonl`]);
  });
});
