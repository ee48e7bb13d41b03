import { describe, expect, it } from "vitest";
import type { AppendableEntry, SessionStore, SessionWriter } from "../../src/session-log/index.js";
import { SessionLogError } from "../../src/session-log/index.js";
import { testConfig } from "./session-test-config.js";

/** Makes an empty store for one test, and cleans it up. */
export interface SessionStoreFixture {
  store: SessionStore;
  dispose(): Promise<void>;
}

const userInput = (text: string): AppendableEntry => ({
  type: "user_input",
  segments: [{ type: "text", text }],
  text,
});
const answer = (text: string): AppendableEntry => ({
  type: "item",
  item: { type: "message", role: "assistant", text },
});

async function withStore(
  make: () => Promise<SessionStoreFixture>,
  body: (store: SessionStore) => Promise<void>,
) {
  const fixture = await make();
  try {
    await body(fixture.store);
  } finally {
    await fixture.dispose();
  }
}

async function expectKind(promise: Promise<unknown>, kind: string): Promise<SessionLogError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionLogError);
  expect((error as SessionLogError).kind).toBe(kind);
  return error as SessionLogError;
}

/**
 * The `SessionStore` contract, which every store keeps (files, PostgreSQL): run it with a factory
 * that gives each test an empty store.
 */
export function describeSessionStoreContract(name: string, make: () => Promise<SessionStoreFixture>): void {
  describe(`${name} keeps the SessionStore contract`, () => {
    const config = testConfig("/project");

    it("appends a chained log and reads it back, whole or from a seq", async () => {
      await withStore(make, async (store) => {
        const writer = await store.create({ config });
        const first = await writer.append(userInput("hello"));
        const second = await writer.append(answer("hi"));
        expect(first.seq).toBe(2);
        expect(second).toEqual({ seq: 3, hash: writer.lastHash });
        await writer.close();

        const entries = await store.read(writer.id);
        expect(entries.map((entry) => [entry.seq, entry.type])).toEqual([
          [1, "session_start"],
          [2, "user_input"],
          [3, "item"],
        ]);
        expect(entries[1]?.prev).toBe(entries[0]?.mac);
        expect(entries[2]?.prev).toBe(first.hash);
        expect(entries[2]?.mac).toBe(second.hash);
        expect((await store.read(writer.id, 3)).map((entry) => entry.seq)).toEqual([3]);
      });
    });

    it("reopens a session where it ended and keeps the chain going", async () => {
      await withStore(make, async (store) => {
        const writer = await store.create({ config });
        await writer.append(userInput("one"));
        await writer.close();
        const opened = await store.open(writer.id);
        expect(opened.entries.map((entry) => entry.seq)).toEqual([1, 2]);
        expect(opened.writer.seq).toBe(2);
        expect(opened.writer.lastHash).toBe(writer.lastHash);
        await opened.writer.append(userInput("two"));
        await opened.writer.close();
        const entries = await store.read(writer.id);
        expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
        expect(entries[2]?.prev).toBe(entries[1]?.mac);
      });
    });

    it("refuses a second writer while the first holds the session, and admits one after", async () => {
      await withStore(make, async (store) => {
        const writer = await store.create({ config });
        await expectKind(store.open(writer.id), "locked");
        await writer.append(userInput("still mine"));
        await writer.close();
        const opened = await store.open(writer.id);
        await expectKind(store.open(writer.id), "locked");
        await opened.writer.close();
      });
    });

    it("says not_found for an unknown or malformed id, already_exists for a taken one", async () => {
      await withStore(make, async (store) => {
        await expectKind(store.read("01890a5d-ac96-774b-bcce-b302099a8057"), "not_found");
        await expectKind(store.open("01890a5d-ac96-774b-bcce-b302099a8057"), "not_found");
        await expectKind(store.read("../../etc/passwd"), "not_found");
        const writer = await store.create({ config });
        await writer.close();
        await expectKind(store.create({ config, sessionId: writer.id }), "already_exists");
        expect((await store.read(writer.id)).length).toBe(1);
      });
    });

    it("refuses an invalid entry without spending a seq", async () => {
      await withStore(make, async (store) => {
        const writer = await store.create({ config });
        const bad = { type: "user_input", segments: "nope", text: 1 } as unknown as AppendableEntry;
        await expectKind(writer.append(bad), "invalid_entry");
        expect(writer.seq).toBe(1);
        await writer.append(userInput("fine"));
        await writer.close();
        expect((await store.read(writer.id)).map((entry) => entry.type)).toEqual([
          "session_start",
          "user_input",
        ]);
      });
    });

    it("redacts secrets from the config before they are stored", async () => {
      await withStore(make, async (store) => {
        const writer = await store.create({ config: { ...config, apiKey: "sk-secret-value" } });
        await writer.close();
        const [start] = await store.read(writer.id);
        expect(JSON.stringify(start)).not.toContain("sk-secret-value");
        expect(start?.type === "session_start" && start.redacted).toEqual(["apiKey"]);
      });
    });

    it("lists sessions oldest first and links a compaction both ways", async () => {
      await withStore(make, async (store) => {
        const first = await store.create({ config });
        await first.append(userInput("the first thing I asked"));
        const next: SessionWriter = await store.link(first, "we talked about the first thing", config);
        await next.append(userInput("more"));
        await next.close();
        const other = await store.create({ config });
        await other.close();

        const listed = await store.list();
        expect(listed.map((info) => info.id)).toEqual([first.id, next.id, other.id]);
        expect(listed[0]).toMatchObject({
          entryCount: 3,
          firstUserText: "the first thing I asked",
          next: next.id,
        });
        expect(listed[1]).toMatchObject({ previous: first.id, entryCount: 3 });
        expect(listed[0]?.started).toMatch(/^\d{4}-\d\d-\d\dT/);

        const [start, boundary] = await store.read(next.id);
        const old = await store.read(first.id);
        expect(start?.type === "session_start" && start.previous).toEqual({
          sessionId: first.id,
          lastHash: old[old.length - 1]?.mac,
        });
        expect(start?.prev).toBe(old[old.length - 1]?.mac);
        expect(boundary).toMatchObject({ type: "compaction", summary: "we talked about the first thing" });
        expect(old[old.length - 1]).toMatchObject({ type: "compaction", sessionId: next.id });
      });
    });

    it("keeps concurrent appends of one writer in call order", async () => {
      await withStore(make, async (store) => {
        const writer = await store.create({ config });
        const receipts = await Promise.all(
          Array.from({ length: 20 }, (_, i) => writer.append(userInput(`n${i}`))),
        );
        expect(receipts.map((receipt) => receipt.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
        await writer.close();
        const entries = await store.read(writer.id);
        expect(entries.map((entry) => (entry.type === "user_input" ? entry.text : entry.type))).toEqual([
          "session_start",
          ...Array.from({ length: 20 }, (_, i) => `n${i}`),
        ]);
      });
    });
  });
}
