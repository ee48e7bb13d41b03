import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testConfig } from "../../test/support/session-test-config.js";
import { lineHash, ZERO_HASH } from "./chain.js";
import { readSessionLog } from "./read.js";
import { SessionLog } from "./session-log.js";
import { SessionLogError } from "./session-log-error.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "yoake-read-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A closed log of `count` entries after line 1 (assistant messages "reply <seq>"); returns its path. */
async function logWith(count: number): Promise<string> {
  const log = await SessionLog.create(dir, { config: testConfig(dir) });
  for (let i = 0; i < count; i += 1) {
    await log.append({ type: "item", item: { type: "message", role: "assistant", text: `reply ${i + 2}` } });
  }
  await log.close();
  return log.path;
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n").slice(0, -1);
}

async function writeLines(path: string, content: string[]): Promise<void> {
  await writeFile(path, `${content.join("\n")}\n`);
}

async function readError(path: string): Promise<SessionLogError> {
  const error = await readSessionLog(path).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SessionLogError);
  return error as SessionLogError;
}

describe("readSessionLog on an intact log", () => {
  it("returns every entry in order, verifies the chain from the zero hash, and warns of nothing", async () => {
    const path = await logWith(5);
    const contents = await readSessionLog(path);
    expect(contents.entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(contents.start.type).toBe("session_start");
    expect(contents.entries[0]?.prev).toBe(ZERO_HASH);
    const raw = await lines(path);
    expect(contents.entries[3]?.prev).toBe(lineHash(raw[2] as string));
    expect(contents.lastHash).toBe(lineHash(raw[5] as string));
    expect(contents.validBytes).toBe((await stat(path)).size);
    expect(contents.warnings).toEqual([]);
    expect(contents.tornTail).toBeUndefined();
  });

  it("reads lines longer than its read chunk and lines split across chunks", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) });
    const texts = ["a".repeat(2_500_000), "b", "c".repeat(700_000), "é".repeat(400_000), "d"];
    for (const text of texts)
      await log.append({ type: "item", item: { type: "message", role: "user", text } });
    await log.close();
    const contents = await readSessionLog(log.path);
    expect(
      contents.entries.slice(1).map((entry) => (entry.type === "item" ? entry.item : undefined)),
    ).toEqual(texts.map((text) => ({ type: "message", role: "user", text })));
  });
});

describe("a torn last line", () => {
  it("without a final newline is dropped with a warning, and the file is left as it is", async () => {
    const path = await logWith(3);
    const size = (await stat(path)).size;
    await appendFile(path, '{"seq":5,"ts":"2026-11-22T10:00:00.000Z","prev":"ab');
    const contents = await readSessionLog(path);
    expect(contents.entries).toHaveLength(4);
    expect(contents.tornTail).toEqual({ offset: size, bytes: 51, line: 5, reason: "no_newline" });
    expect(contents.warnings).toEqual([
      `${path}:5: dropped a torn last line (51 bytes) that has no final newline: its writer stopped mid-write, so it was never acknowledged`,
    ]);
    expect(contents.validBytes).toBe(size);
    expect((await stat(path)).size).toBe(size + 51);
  });

  it("that is complete JSON but lacks its newline is still dropped: it was never acknowledged", async () => {
    const path = await logWith(2);
    const raw = await lines(path);
    const last = raw.pop() as string;
    await writeFile(path, `${raw.join("\n")}\n${last}`);
    const contents = await readSessionLog(path);
    expect(contents.entries).toHaveLength(2);
    expect(contents.tornTail?.reason).toBe("no_newline");
  });

  it("that is not JSON (zeros a lost write left) is dropped with a warning", async () => {
    const path = await logWith(3);
    await appendFile(path, Buffer.concat([Buffer.alloc(300), Buffer.from("\n")]));
    const contents = await readSessionLog(path);
    expect(contents.entries).toHaveLength(4);
    expect(contents.tornTail).toMatchObject({ line: 5, bytes: 301, reason: "invalid_json" });
    expect(contents.warnings[0]).toContain(":5: dropped a torn last line (301 bytes) that is not valid JSON");
  });

  it("is truncated away by SessionLog.open, and appends go on from the last good line", async () => {
    const path = await logWith(3);
    const size = (await stat(path)).size;
    await appendFile(path, '{"seq":5,"ts":"2026-');
    const { log, contents } = await SessionLog.open(path);
    expect(contents.warnings).toHaveLength(1);
    expect((await stat(path)).size).toBe(size);
    expect(await log.append({ type: "resumed" })).toMatchObject({ seq: 5 });
    await log.close();
    const again = await readSessionLog(path);
    expect(again.warnings).toEqual([]);
    expect(again.entries.map((entry) => entry.type)).toEqual([
      "session_start",
      "item",
      "item",
      "item",
      "resumed",
    ]);
  });
});

describe("damage before the end is an error naming the line", () => {
  it("an altered line (still valid JSON) breaks the chain at the next line, which names it", async () => {
    const path = await logWith(6);
    const raw = await lines(path);
    raw[3] = (raw[3] as string).replace("reply 4", "reply X");
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error.kind).toBe("broken_chain");
    expect(error.line).toBe(5);
    expect(error.message).toContain(":5: prev does not match the SHA-256 of line 4: line 4 was altered");
  });

  it("a line that is not JSON, with lines after it", async () => {
    const path = await logWith(6);
    const raw = await lines(path);
    raw[2] = (raw[2] as string).slice(0, 40);
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error.kind).toBe("invalid_json");
    expect(error.line).toBe(3);
  });

  it("two lines swapped", async () => {
    const path = await logWith(6);
    const raw = await lines(path);
    [raw[3], raw[4]] = [raw[4] as string, raw[3] as string];
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error.kind).toBe("out_of_order");
    expect(error.line).toBe(4);
    expect(error.message).toContain("seq 5 on line 4");
  });

  it("a deleted line", async () => {
    const path = await logWith(6);
    const raw = await lines(path);
    raw.splice(2, 1);
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error.kind).toBe("out_of_order");
    expect(error.line).toBe(3);
  });

  it("a deleted line whose successors were renumbered still breaks the chain", async () => {
    const path = await logWith(4);
    const raw = await lines(path);
    raw.splice(2, 1);
    const renumbered = raw.map((line, index) => line.replace(/^\{"seq":\d+/, `{"seq":${index + 1}`));
    await writeLines(path, renumbered);
    const error = await readError(path);
    expect(error.kind).toBe("broken_chain");
    expect(error.line).toBe(3);
  });

  it("a valid JSON line that is not a valid entry, even as the last line", async () => {
    const path = await logWith(3);
    const raw = await lines(path);
    raw[2] = (raw[2] as string).replace('"role":"assistant"', '"role":"narrator"');
    await writeLines(path, raw);
    const middle = await readError(path);
    expect(middle).toMatchObject({ kind: "invalid_entry", line: 3 });
    expect(middle.message).toContain("item.role");

    const path2 = await logWith(3);
    const raw2 = await lines(path2);
    raw2[3] = (raw2[3] as string).replace('"type":"item"', '"type":"bogus"');
    await writeLines(path2, raw2);
    expect(await readError(path2)).toMatchObject({ kind: "invalid_entry", line: 4 });
  });

  it("a garbage line followed by a torn tail is not a torn line", async () => {
    const path = await logWith(3);
    await appendFile(path, 'not json\n{"seq":');
    expect(await readError(path)).toMatchObject({ kind: "invalid_json", line: 5 });
  });

  it("a file that does not begin with session_start", async () => {
    const path = await logWith(3);
    const raw = await lines(path);
    await writeLines(path, raw.slice(1));
    expect(await readError(path)).toMatchObject({ kind: "out_of_order", line: 1 });

    const empty = join(dir, "empty.jsonl");
    await writeFile(empty, "");
    expect(await readError(empty)).toMatchObject({ kind: "not_a_session_log", line: 1 });
  });

  it("a first line whose prev is not the zero hash", async () => {
    const path = await logWith(1);
    const raw = await lines(path);
    raw[0] = (raw[0] as string).replace(ZERO_HASH, "1".repeat(64));
    await writeLines(path, raw);
    expect(await readError(path)).toMatchObject({ kind: "broken_chain", line: 1 });
  });
});
