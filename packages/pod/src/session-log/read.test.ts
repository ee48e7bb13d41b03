import { createHash, randomBytes } from "node:crypto";
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testConfig, testKey } from "../../test/support/session-test-config.js";
import { SessionKey, sealLine, ZERO_HASH } from "./chain.js";
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
  const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
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

/** `line` with its entry changed by `change`, sealed again with `key` (as a writer holding it would). */
function resealed(
  line: string,
  key: SessionKey,
  change: (entry: Record<string, unknown>) => Record<string, unknown>,
): string {
  const { mac: _dropped, ...entry } = JSON.parse(line) as Record<string, unknown>;
  return sealLine(key, JSON.stringify(change(entry)))
    .bytes.toString("utf8")
    .trimEnd();
}

async function readError(path: string): Promise<SessionLogError> {
  const error = await readSessionLog(path, testKey).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SessionLogError);
  return error as SessionLogError;
}

describe("readSessionLog on an intact log", () => {
  it("returns every entry in order, verifies the chain from the zero hash, and warns of nothing", async () => {
    const path = await logWith(5);
    const contents = await readSessionLog(path, testKey);
    expect(contents.entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(contents.start.type).toBe("session_start");
    expect(contents.entries[0]?.prev).toBe(ZERO_HASH);
    const raw = await lines(path);
    // Each line's mac is the HMAC of the line without it; the next line's prev is that mac.
    const unsealed = (raw[2] as string).replace(/,"mac":"[0-9a-f]{64}"}$/, "}");
    expect(contents.entries[2]?.mac).toBe(testKey.mac(unsealed));
    expect(contents.entries[3]?.prev).toBe(contents.entries[2]?.mac);
    expect(contents.lastHash).toBe(contents.entries[5]?.mac);
    expect(contents.validBytes).toBe((await stat(path)).size);
    expect(contents.warnings).toEqual([]);
    expect(contents.tornTail).toBeUndefined();
  });

  it("reads lines longer than its read chunk and lines split across chunks", async () => {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { key: testKey });
    const texts = ["a".repeat(2_500_000), "b", "c".repeat(700_000), "é".repeat(400_000), "d"];
    for (const text of texts)
      await log.append({ type: "item", item: { type: "message", role: "user", text } });
    await log.close();
    const contents = await readSessionLog(log.path, testKey);
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
    const contents = await readSessionLog(path, testKey);
    expect(contents.entries).toHaveLength(4);
    expect(contents.tornTail).toEqual({ offset: size, bytes: 51, line: 5 });
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
    const contents = await readSessionLog(path, testKey);
    expect(contents.entries).toHaveLength(2);
    expect(contents.tornTail).toMatchObject({ line: 3 });
  });

  it("of zeros without a newline (a lost write) is torn, and dropped with a warning", async () => {
    const path = await logWith(3);
    await appendFile(path, Buffer.alloc(300));
    const contents = await readSessionLog(path, testKey);
    expect(contents.entries).toHaveLength(4);
    expect(contents.tornTail).toMatchObject({ line: 5, bytes: 300 });
    expect(contents.warnings[0]).toContain(
      ":5: dropped a torn last line (300 bytes) that has no final newline",
    );
  });

  it("is truncated away by SessionLog.open, and appends go on from the last good line", async () => {
    const path = await logWith(3);
    const size = (await stat(path)).size;
    await appendFile(path, '{"seq":5,"ts":"2026-');
    const { log, contents } = await SessionLog.open(path, { key: testKey });
    expect(contents.warnings).toHaveLength(1);
    expect((await stat(path)).size).toBe(size);
    expect(await log.append({ type: "resumed" })).toMatchObject({ seq: 5 });
    await log.close();
    const again = await readSessionLog(path, testKey);
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
  it("an altered line (still valid JSON) fails its own MAC, which names it", async () => {
    const path = await logWith(6);
    const raw = await lines(path);
    raw[3] = (raw[3] as string).replace("reply 4", "reply X");
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error).toMatchObject({ kind: "tampered", line: 4 });
    expect(error.message).toContain(`${path}:4: the line does not verify with this user's session key`);
  });

  it("a line re-sealed with the key but a prev that is not the line before's MAC breaks the chain", async () => {
    const path = await logWith(4);
    const raw = await lines(path);
    raw[2] = resealed(raw[2] as string, testKey, (entry) => ({ ...entry, prev: "1".repeat(64) }));
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error).toMatchObject({ kind: "broken_chain", line: 3 });
    expect(error.message).toContain(":3: prev does not match the MAC of line 2");
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

  it("a deleted line whose successors were renumbered fails the first renumbered line's MAC", async () => {
    const path = await logWith(4);
    const raw = await lines(path);
    raw.splice(2, 1);
    const renumbered = raw.map((line, index) => line.replace(/^\{"seq":\d+/, `{"seq":${index + 1}`));
    await writeLines(path, renumbered);
    expect(await readError(path)).toMatchObject({ kind: "tampered", line: 3 });
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

  it("a complete last line that is not JSON is damage, not a torn write: reported, never cut away", async () => {
    const path = await logWith(3);
    await appendFile(path, Buffer.concat([Buffer.alloc(300), Buffer.from("\n")]));
    const size = (await stat(path)).size;
    const error = await readError(path);
    expect(error).toMatchObject({ kind: "invalid_json", line: 5 });
    expect(error.message).toContain(`${path}:5: a complete line that is not JSON (damage, not a torn write)`);

    // Opening it for appending refuses: nothing is truncated, nothing forks from line 4.
    const opened = await SessionLog.open(path, { key: testKey }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(opened).toBeInstanceOf(SessionLogError);
    expect(opened).toMatchObject({ kind: "invalid_json", line: 5 });
    expect((await stat(path)).size).toBe(size);
    // ... and the log is not left locked: the refusal released it.
    await expect(readFile(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a complete last line that breaks the chain is damage too, even with a torn tail after it", async () => {
    const path = await logWith(3);
    const raw = await lines(path);
    raw[3] = resealed(raw[3] as string, testKey, (entry) => ({ ...entry, prev: "0".repeat(64) }));
    await writeFile(path, `${raw.join("\n")}\n{"seq":5,"ts":"20`);
    expect(await readError(path)).toMatchObject({ kind: "broken_chain", line: 4 });
    await expect(SessionLog.open(path, { key: testKey })).rejects.toMatchObject({
      kind: "broken_chain",
      line: 4,
    });
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
    raw[0] = resealed(raw[0] as string, testKey, (entry) => ({ ...entry, prev: "1".repeat(64) }));
    await writeLines(path, raw);
    expect(await readError(path)).toMatchObject({ kind: "broken_chain", line: 1 });
  });
});

describe("a forged or rewritten log is detected on open", () => {
  it("an edited line whose hashes are recomputed without the key fails at the edited line", async () => {
    const path = await logWith(4);
    const raw = await lines(path);
    // What the unkeyed format allowed: edit line 3, then recompute the chain from there with SHA-256.
    let prev = (JSON.parse(raw[1] as string) as { mac: string }).mac;
    for (let index = 2; index < raw.length; index += 1) {
      const { mac: _mac, ...entry } = JSON.parse(raw[index] as string) as Record<string, unknown>;
      const edited =
        index === 2 ? JSON.parse(JSON.stringify(entry).replace("reply 3", "a forged reply")) : entry;
      const text = JSON.stringify({ ...edited, prev });
      prev = createHash("sha256").update(text).digest("hex");
      raw[index] = `${text.slice(0, -1)},"mac":"${prev}"}`;
    }
    await writeLines(path, raw);
    const error = await readError(path);
    expect(error).toMatchObject({ kind: "tampered", line: 3 });
    await expect(SessionLog.open(path, { key: testKey })).rejects.toMatchObject({
      kind: "tampered",
      line: 3,
    });
  });

  it("a log sealed throughout with another key (another user, a forger's own key) fails at line 1", async () => {
    const path = await logWith(3);
    const other = SessionKey.fromBytes(randomBytes(32));
    let prev = ZERO_HASH;
    const forged = (await lines(path)).map((line) => {
      const sealed = resealed(line, other, (entry) => ({ ...entry, prev }));
      prev = (JSON.parse(sealed) as { mac: string }).mac;
      return sealed;
    });
    await writeLines(path, forged);
    expect(await readError(path)).toMatchObject({ kind: "tampered", line: 1 });
    // The same file verifies with the key it was sealed with: what fails is the key, not the format.
    expect((await readSessionLog(path, other)).entries).toHaveLength(4);
  });

  it("a version 1 log (the unkeyed format) is refused, not read with a warning: it could be a forgery", async () => {
    const path = await logWith(2);
    let prev = ZERO_HASH;
    const v1 = (await lines(path)).map((line) => {
      const { mac: _mac, ...entry } = JSON.parse(line) as Record<string, unknown>;
      const text = JSON.stringify({ ...entry, prev, ...(entry.type === "session_start" && { version: 1 }) });
      prev = createHash("sha256").update(text).digest("hex");
      return text;
    });
    await writeLines(path, v1);
    const error = await readError(path);
    expect(error).toMatchObject({ kind: "unsupported_version", line: 1 });
    expect(error.message).toContain("written before session logs were keyed (version 1");
    expect(await readFile(path, "utf8")).toBe(`${v1.join("\n")}\n`);
  });
});
