import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testConfig, testKey } from "../../test/support/session-test-config.js";
import { continueInNewSession } from "./link.js";
import type { SessionLogOptions } from "./session-log.js";
import {
  createSession,
  findSession,
  latestSession,
  listSessions,
  openSession,
  type SessionInfo,
  sessionsDir,
} from "./sessions.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "yoake-sessions-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// Valid UUID v7 ids: the first two share a long prefix.
const ID_A = "01937d6e-7a1c-7cc2-9a3f-5d4b3c2a1f01";
const ID_B = "01937d6e-7a1c-7cc2-9a3f-5d4b3c2a1f02";
const ID_C = "01947000-0000-7000-8000-000000000003";

/** A clock that starts at `iso` and moves one second per call. */
function clockFrom(iso: string): SessionLogOptions {
  let at = Date.parse(iso);
  return {
    key: testKey,
    now: () => {
      const now = new Date(at);
      at += 1000;
      return now;
    },
  };
}

async function session(id: string, startedAt: string, inputs: string[]): Promise<void> {
  const log = await createSession(root, { config: testConfig(root), sessionId: id }, clockFrom(startedAt));
  for (const text of inputs) {
    await log.append({ type: "user_input", segments: [{ type: "text", text }], text });
    await log.append({ type: "item", item: { type: "message", role: "user", text } });
  }
  await log.close();
}

const brief = (info: SessionInfo) => ({
  id: info.id,
  started: info.started,
  lastActivity: info.lastActivity,
  firstUserText: info.firstUserText,
  entryCount: info.entryCount,
  previous: info.previous,
  next: info.next,
  tornTail: info.tornTail,
});

describe("where sessions live", () => {
  it("in <projectRoot>/.yoake/sessions, kept out of git", async () => {
    await session(ID_A, "2026-11-22T10:00:00Z", []);
    expect(sessionsDir(root)).toBe(join(root, ".yoake", "sessions"));
    expect(await readFile(join(root, ".yoake", "sessions", ".gitignore"), "utf8")).toBe("*\n");
    expect((await listSessions(root)).map((info) => info.path)).toEqual([
      join(root, ".yoake", "sessions", `${ID_A}.jsonl`),
    ]);
  });

  it("a project without sessions lists none", async () => {
    expect(await listSessions(root)).toEqual([]);
    expect(await latestSession(root)).toBeUndefined();
    await expect(openSession(root, "latest", { key: testKey })).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("listSessions", () => {
  it("lists sessions oldest first with their start, last activity, first input and size", async () => {
    await session(ID_B, "2026-11-22T12:00:00Z", ["second session", "more"]);
    await session(ID_A, "2026-11-22T10:00:00Z", ["x".repeat(300)]);
    const listed = (await listSessions(root)).map(brief);
    expect(listed).toEqual([
      {
        id: ID_A,
        started: "2026-11-22T10:00:00.000Z",
        lastActivity: "2026-11-22T10:00:02.000Z",
        firstUserText: `${"x".repeat(200)}…`,
        entryCount: 3,
        previous: undefined,
        next: undefined,
        tornTail: false,
      },
      {
        id: ID_B,
        started: "2026-11-22T12:00:00.000Z",
        lastActivity: "2026-11-22T12:00:04.000Z",
        firstUserText: "second session",
        entryCount: 5,
        previous: undefined,
        next: undefined,
        tornTail: false,
      },
    ]);
  });

  it("shows a torn tail (not counted) and flags a log whose first line is damaged", async () => {
    await session(ID_A, "2026-11-22T10:00:00Z", ["hi"]);
    await appendFile(join(sessionsDir(root), `${ID_A}.jsonl`), '{"seq":4,"ts":"2026');
    await writeFile(join(sessionsDir(root), `${ID_C}.jsonl`), "garbage\n");
    await writeFile(join(sessionsDir(root), "notes.jsonl"), "not a session id\n");
    const byId = new Map((await listSessions(root)).map((info) => [info.id, info]));
    expect(byId.size).toBe(2);
    expect(byId.get(ID_A)).toMatchObject({
      id: ID_A,
      entryCount: 3,
      tornTail: true,
      lastActivity: "2026-11-22T10:00:02.000Z",
    });
    expect(byId.get(ID_C)).toMatchObject({ id: ID_C, problem: "line 1 is not a session_start entry" });
    expect(await latestSession(root)).toMatchObject({ id: ID_A });
  });

  it("lists a complete but damaged last line as a problem, not a torn tail; --continue then refuses it", async () => {
    await session(ID_C, "2026-11-22T09:00:00Z", ["older"]);
    await session(ID_A, "2026-11-22T10:00:00Z", ["hi"]);
    const damaged = join(sessionsDir(root), `${ID_A}.jsonl`);
    await appendFile(damaged, '{"seq":4,"ts":"2026-11-22T12:00:00.000Z","prev":\n');
    const info = (await listSessions(root)).find((candidate) => candidate.id === ID_A);
    expect(info).toMatchObject({
      entryCount: 4,
      tornTail: false,
      lastActivity: "2026-11-22T10:00:02.000Z",
      problem: "line 4 is not a valid entry",
    });
    // The damaged log is still the latest: continuing it names the damage instead of falling back.
    expect((await latestSession(root))?.id).toBe(ID_A);
    await expect(openSession(root, "latest", { key: testKey })).rejects.toMatchObject({
      kind: "invalid_json",
      line: 4,
    });
    expect(await readFile(damaged, "utf8")).toMatch(/"prev":\n$/);
  });

  it("dates a log of the old unkeyed format, so --continue reaches it and says why it refuses it", async () => {
    await session(ID_C, "2026-11-22T09:00:00Z", ["newer format, older session"]);
    await session(ID_A, "2026-11-22T10:00:00Z", ["hi"]);
    const old = join(sessionsDir(root), `${ID_A}.jsonl`);
    const v1 = (await readFile(old, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => {
        const { mac: _mac, ...entry } = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify(entry.type === "session_start" ? { ...entry, version: 1 } : entry);
      });
    await writeFile(old, `${v1.join("\n")}\n`);
    expect((await listSessions(root)).find((info) => info.id === ID_A)).toMatchObject({
      started: "2026-11-22T10:00:00.000Z",
      problem: "log format version 1",
    });
    expect((await latestSession(root))?.id).toBe(ID_A);
    await expect(openSession(root, "latest", { key: testKey })).rejects.toMatchObject({
      kind: "unsupported_version",
      line: 1,
    });
  });

  it("links a compacted session and its continuation both ways", async () => {
    const old = await createSession(root, { config: testConfig(root) }, { key: testKey });
    await old.append({ type: "user_input", segments: [{ type: "text", text: "begin" }], text: "begin" });
    const next = await continueInNewSession(old, {
      dir: sessionsDir(root),
      summary: "so far",
      config: testConfig(root),
      options: { key: testKey },
    });
    await next.close();
    const byId = new Map((await listSessions(root)).map((info) => [info.id, info]));
    expect(byId.get(old.id)).toMatchObject({ next: next.id, firstUserText: "begin" });
    expect(byId.get(next.id)).toMatchObject({ previous: old.id, entryCount: 2 });
    expect(byId.get(next.id)?.next).toBeUndefined();
  });
});

describe("latestSession, findSession, openSession", () => {
  it("the latest is the most recently active, followed to its newest continuation", async () => {
    await session(ID_A, "2026-11-22T10:00:00Z", ["a"]);
    await session(ID_C, "2026-11-22T09:00:00Z", ["c"]);
    expect((await latestSession(root))?.id).toBe(ID_A);

    // Activity in the older session makes it the latest; its continuation then wins.
    const { log } = await openSession(root, ID_C, clockFrom("2026-11-22T11:00:00Z"));
    const next = await continueInNewSession(log, {
      dir: sessionsDir(root),
      summary: "s",
      config: testConfig(root),
      options: clockFrom("2026-11-22T08:00:00Z"),
    });
    await next.close();
    expect((await latestSession(root))?.id).toBe(next.id);
    const { log: opened, contents } = await openSession(root, "latest", { key: testKey });
    expect(opened.id).toBe(next.id);
    expect(contents.entries.map((entry) => entry.type)).toEqual(["session_start", "compaction"]);
    await opened.close();
  });

  it("finds a session by id or unique prefix; an ambiguous or unknown prefix is an error", async () => {
    await session(ID_A, "2026-11-22T10:00:00Z", []);
    await session(ID_B, "2026-11-22T11:00:00Z", []);
    await session(ID_C, "2026-11-22T12:00:00Z", []);
    expect((await findSession(root, ID_B)).id).toBe(ID_B);
    expect((await findSession(root, "01947")).id).toBe(ID_C);
    expect((await findSession(root, ID_A.toUpperCase())).id).toBe(ID_A);
    await expect(findSession(root, "01937d6e")).rejects.toThrow(`matches 2 sessions: ${ID_A}, ${ID_B}`);
    await expect(findSession(root, "ffff")).rejects.toMatchObject({ kind: "not_found" });
    const { log } = await openSession(root, "0194", { key: testKey });
    expect(log.id).toBe(ID_C);
    await log.close();
  });
});
