import type { FileHandle } from "node:fs/promises";
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { uuidV7 as newSessionId } from "@yoake/llm-worker/internal";
import { type SealedLine, type SessionKey, sealLine, ZERO_HASH } from "./chain.js";
import {
  type AppendableEntry,
  type EntryBody,
  entryBodySchema,
  SESSION_LOG_VERSION,
  type SessionConfig,
  type SessionLink,
} from "./entry.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, tightenOwn } from "./private-dir.js";
import { readSessionLog, type SessionLogContents } from "./read.js";
import { redactSecrets } from "./redact.js";
import { SessionLogError } from "./session-log-error.js";
import type { SessionWriter } from "./session-writer.js";
import { acquireWriterLock, type WriterLock } from "./writer-lock.js";

/**
 * When an append counts as done.
 * - `every` (default): after `fdatasync`. An acknowledged entry survives a process crash, a kernel
 *   panic and a power cut. Appends made while a sync is running share the next one (group commit).
 * - `batch`: after `write(2)`: the entry is in the kernel and survives a crash of the process
 *   (SIGKILL included), not of the machine; a sync follows within `batchIntervalMs`.
 */
export type Durability = "every" | "batch";

export interface SessionLogOptions {
  /** The user's session key (`loadSessionKey`): every line is sealed and verified with it. */
  key: SessionKey;
  /** Default `every`. */
  durability?: Durability;
  /** With `batch`: the longest an acknowledged entry waits for its sync. Default 200 ms. */
  batchIntervalMs?: number;
  /** The clock that stamps `ts` (tests). */
  now?: () => Date;
}

/** How a new session starts. */
export interface SessionStartInput {
  /** Redacted by `redactSecrets` before it is written: no key, token or header value reaches the disk. */
  config: SessionConfig;
  /** The session this one continues, when it starts from a compaction. */
  previous?: SessionLink;
  /** A UUID v7 is made when absent; a compaction names the new session before creating it. */
  sessionId?: string;
  /** Entries written with line 1, in the same atomic create (a compaction's boundary entry). */
  firstEntries?: readonly AppendableEntry[];
}

/** An appended entry: its line number and its MAC, which the next entry carries as `prev`. */
export interface AppendReceipt {
  seq: number;
  hash: string;
}

/** A log opened for appending, and what was in it. */
export interface OpenedSessionLog {
  log: SessionLog;
  /** The verified entries as they were at open (torn tail dropped; see `warnings`). */
  contents: SessionLogContents;
}

interface PendingLine {
  bytes: Buffer;
  receipt: AppendReceipt;
  resolve(receipt: AppendReceipt): void;
  reject(error: unknown): void;
}

const DEFAULT_BATCH_INTERVAL_MS = 200;

/**
 * One session's append-only log (see README "Session log"). Appends are serialized in call order:
 * `seq` and `prev` are assigned when `append` is called, lines reach the file in that order, and
 * concurrent appends never interleave. A failed write makes the log refuse every later append
 * (the chain in memory is then ahead of the disk); reopening it recovers.
 */
export class SessionLog implements SessionWriter {
  readonly #handle: FileHandle;
  readonly #lock: WriterLock;
  readonly #key: SessionKey;
  readonly #durability: Durability;
  readonly #batchIntervalMs: number;
  readonly #now: () => Date;
  #seq: number;
  #lastHash: string;
  #queue: PendingLine[] = [];
  #draining: Promise<void> | undefined;
  #syncTimer: NodeJS.Timeout | undefined;
  #failure: SessionLogError | undefined;
  #closed = false;

  private constructor(
    /** The session id (the file name without `.jsonl`). */
    readonly id: string,
    readonly path: string,
    handle: FileHandle,
    lock: WriterLock,
    seq: number,
    lastHash: string,
    options: SessionLogOptions,
  ) {
    this.#handle = handle;
    this.#lock = lock;
    this.#key = options.key;
    this.#seq = seq;
    this.#lastHash = lastHash;
    this.#durability = options.durability ?? "every";
    this.#batchIntervalMs = options.batchIntervalMs ?? DEFAULT_BATCH_INTERVAL_MS;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Starts a new log `<dir>/<id>.jsonl` whose line 1 is the `session_start` entry (then
   * `firstEntries`). The file appears whole: its first lines are written and synced under a
   * temporary name, then renamed, and the directory is synced, so a crash never leaves a log
   * without its first line (nor a continuation without its compaction boundary).
   */
  static async create(
    dir: string,
    start: SessionStartInput,
    options: SessionLogOptions,
  ): Promise<SessionLog> {
    // Owner-only, whatever the umask: the log holds whatever the agent read.
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const id = start.sessionId ?? newSessionId();
    const path = join(dir, `${id}.jsonl`);
    const temporary = join(dir, `.${id}.jsonl.tmp`);
    const now = options.now ?? (() => new Date());
    const lines = sealFirstLines(options.key, path, id, start, now);
    const last = lines[lines.length - 1] as SerializedLine;

    const lock = await acquireWriterLock(path);
    try {
      if (await exists(path))
        throw new SessionLogError("already_exists", path, "a session with this id already exists");
      const file = await open(temporary, "wx", PRIVATE_FILE_MODE);
      try {
        await writeAll(file, Buffer.concat(lines.map((line) => line.bytes)));
        await file.datasync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
      await syncDirectory(dir);
      const handle = await open(path, "a");
      return new SessionLog(id, path, handle, lock, lines.length, last.mac, options);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      await lock.release();
      throw error;
    }
  }

  /**
   * Opens an existing log for appending: verifies it (`readSessionLog`), truncates a torn last
   * line (no final newline: never acknowledged; reported in `contents.warnings`) away so new lines
   * follow the last complete one, and takes the single-writer lock. A damaged complete line throws
   * its `SessionLogError` and the file is left as it is: cutting it would lose an entry that may have
   * been acknowledged, and appending after it would fork the chain.
   */
  static async open(path: string, options: SessionLogOptions): Promise<OpenedSessionLog> {
    const lock = await acquireWriterLock(path);
    try {
      const contents = await readSessionLog(path, options.key);
      const handle = await open(path, "a");
      try {
        // A log written by an older version (0644) is made owner-only as it is opened.
        await tightenOwn(handle, PRIVATE_FILE_MODE);
      } catch (error) {
        await handle.close();
        throw error;
      }
      if (contents.tornTail !== undefined) {
        try {
          await handle.truncate(contents.validBytes);
          await handle.datasync();
        } catch (error) {
          await handle.close();
          throw error;
        }
      }
      const log = new SessionLog(
        contents.start.sessionId,
        path,
        handle,
        lock,
        contents.entries.length,
        contents.lastHash,
        options,
      );
      return { log, contents };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** The `seq` of the last entry appended (acknowledged or not). */
  get seq(): number {
    return this.#seq;
  }

  /** The MAC of the last line appended: the next entry's `prev`, or the `previous.lastHash` of a continuation. */
  get lastHash(): string {
    return this.#lastHash;
  }

  /**
   * Appends one entry and resolves once it is durable (see `Durability`). The entry is validated
   * first, so nothing is written that a reader would reject; an invalid entry rejects without
   * taking a `seq`.
   */
  append(entry: AppendableEntry): Promise<AppendReceipt> {
    if (this.#closed)
      return Promise.reject(new SessionLogError("write_failed", this.path, "the log is closed"));
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    let line: SerializedLine;
    try {
      line = sealEntry(
        this.#key,
        this.path,
        this.#seq + 1,
        this.#lastHash,
        this.#now(),
        refuseSessionStart(this.path, entry),
      );
    } catch (error) {
      return Promise.reject(error);
    }
    this.#seq += 1;
    this.#lastHash = line.mac;
    const receipt = { seq: this.#seq, hash: line.mac };
    return new Promise((resolve, reject) => {
      this.#queue.push({ bytes: line.bytes, receipt, resolve, reject });
      this.#draining ??= this.#drain();
    });
  }

  /** Resolves when every append so far is written and synced, whatever the durability. */
  async flush(): Promise<void> {
    await this.#draining;
    if (this.#failure !== undefined) throw this.#failure;
    await this.#sync();
  }

  /** Flushes, closes the file and releases the lock. Later appends reject. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#draining;
      if (this.#failure === undefined) await this.#sync();
    } finally {
      clearTimeout(this.#syncTimer);
      await this.#handle.close();
      await this.#lock.release();
    }
  }

  /** Writes queued lines, all that queued up meanwhile in one write (and one sync), until none are left. */
  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        try {
          const first = batch[0] as PendingLine;
          await writeAll(
            this.#handle,
            batch.length === 1 ? first.bytes : Buffer.concat(batch.map((line) => line.bytes)),
          );
          if (this.#durability === "every") await this.#handle.datasync();
          else this.#scheduleSync();
        } catch (error) {
          this.#fail(error, [...batch, ...this.#queue]);
          this.#queue = [];
          return;
        }
        for (const line of batch) line.resolve(line.receipt);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  #scheduleSync(): void {
    if (this.#syncTimer !== undefined) return;
    this.#syncTimer = setTimeout(() => {
      this.#syncTimer = undefined;
      this.#sync().catch(() => {
        // Recorded in #failure by #sync; the next append or flush reports it.
      });
    }, this.#batchIntervalMs);
    // A pending background sync must not keep the process alive; close() syncs anyway.
    this.#syncTimer.unref();
  }

  async #sync(): Promise<void> {
    try {
      await this.#handle.datasync();
    } catch (error) {
      this.#fail(error, []);
      throw this.#failure;
    }
  }

  #fail(error: unknown, pending: readonly PendingLine[]): void {
    this.#failure ??= new SessionLogError(
      "write_failed",
      this.path,
      `write failed, the log refuses further appends (reopen it to recover): ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
    for (const line of pending) line.reject(this.#failure);
  }
}

type SerializedLine = SealedLine;

/**
 * The first lines of a new session `id`: its `session_start` (config redacted by `redactSecrets`,
 * `prev` the previous session's last MAC or the zero hash), then `start.firstEntries`, chained.
 */
export function sealFirstLines(
  key: SessionKey,
  where: string,
  id: string,
  start: SessionStartInput,
  now: () => Date,
): SealedLine[] {
  const { value: config, dropped } = redactSecrets(start.config);
  const lines = [
    sealEntry(key, where, 1, start.previous?.lastHash ?? ZERO_HASH, now(), {
      type: "session_start",
      version: SESSION_LOG_VERSION,
      sessionId: id,
      config,
      redacted: dropped,
      ...(start.previous === undefined ? {} : { previous: start.previous }),
    }),
  ];
  for (const entry of start.firstEntries ?? []) {
    const last = lines[lines.length - 1] as SerializedLine;
    lines.push(sealEntry(key, where, lines.length + 1, last.mac, now(), refuseSessionStart(where, entry)));
  }
  return lines;
}

/**
 * One line of the log, sealed with its MAC. The body is validated first, so nothing is written that
 * a reader would reject, and written as validated (unknown keys dropped): the bytes the MAC covers
 * are the bytes read back.
 */
export function sealEntry(
  key: SessionKey,
  path: string,
  seq: number,
  prev: string,
  ts: Date,
  body: EntryBody,
): SerializedLine {
  const parsed = entryBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
    throw new SessionLogError(
      "invalid_entry",
      path,
      `refused to write an invalid entry: ${where}${issue?.message}`,
    );
  }
  return sealLine(key, JSON.stringify({ seq, ts: ts.toISOString(), prev, ...parsed.data }));
}

export function refuseSessionStart(path: string, entry: AppendableEntry): AppendableEntry {
  // The type already forbids it; this guards callers that build entries from untyped data.
  if ((entry as EntryBody).type === "session_start") {
    throw new SessionLogError("invalid_entry", path, "session_start is written by create() only");
  }
  return entry;
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  // write(2) may write less than asked (a full disk, a signal); the rest must follow in order.
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // A new file's name is durable only once its directory is synced. Windows cannot open a directory.
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
