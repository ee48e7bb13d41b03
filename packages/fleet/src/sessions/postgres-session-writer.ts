import {
  type AppendableEntry,
  type AppendReceipt,
  refuseSessionStart,
  type SealedLine,
  type SessionKey,
  SessionLogError,
  type SessionWriter,
  sealEntry,
} from "@yoake/pod/session-log";
import type pg from "pg";
import { type RetryPolicy, retryTransient } from "../database/retry.js";

/** How long a writer's lease lasts without renewal: a writer that dies frees its session after this. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * Extends the session's head by a batch of consecutive lines, in one statement: the head moves
 * (to the batch's last line) only if it is still the entry the batch's first line extends
 * (`seq - 1`, `prev`) and this writer still holds the lease, and the lines are inserted only if the
 * head moved. The row lock of the head serializes racing writers, so of two appends extending the
 * same head exactly one succeeds; `PRIMARY KEY (session, seq)` backs that up.
 */
const APPEND = `
WITH head AS (
  UPDATE yoake_sessions
     SET head_seq = $4, head_mac = $5, last_activity = $6,
         lease_expires = now() + $8 * interval '1 millisecond',
         first_user_text = COALESCE(first_user_text, $9),
         next = COALESCE($10, next)
   WHERE id = $1 AND head_seq = $2 - 1 AND head_mac = $3 AND lease_owner = $7
  RETURNING id)
INSERT INTO yoake_session_entries (session, seq, prev, mac, type, line)
SELECT head.id, line.seq, line.prev, line.mac, line.type, line.text
  FROM head, unnest($11::integer[], $12::text[], $13::text[], $14::text[], $15::text[])
       AS line (seq, prev, mac, type, text)
RETURNING seq`;

/** The most lines one statement carries. */
const MAX_BATCH = 256;

/** A sealed line waiting for its batch, and the append waiting for it. */
interface PendingLine {
  entry: AppendableEntry;
  seq: number;
  prev: string;
  line: SealedLine;
  done: (error?: unknown) => void;
}

/** One session's writer on PostgreSQL (see `SessionWriter`): holds the lease and renews it. */
export class PostgresSessionWriter implements SessionWriter {
  readonly #pool: pg.Pool;
  readonly #key: SessionKey;
  readonly #owner: string;
  readonly #leaseMs: number;
  readonly #retry: RetryPolicy;
  readonly #renewal: NodeJS.Timeout;
  #seq: number;
  #lastHash: string;
  #pending: PendingLine[] = [];
  #draining: Promise<void> | undefined;
  #failure: SessionLogError | undefined;
  #closed = false;

  constructor(
    readonly id: string,
    options: {
      pool: pg.Pool;
      key: SessionKey;
      owner: string;
      leaseMs: number;
      /** How long an append is tried again while the database is away. */
      retry: RetryPolicy;
      seq: number;
      lastHash: string;
    },
  ) {
    this.#pool = options.pool;
    this.#key = options.key;
    this.#owner = options.owner;
    this.#leaseMs = options.leaseMs;
    this.#retry = options.retry;
    this.#seq = options.seq;
    this.#lastHash = options.lastHash;
    this.#renewal = setInterval(() => void this.#renew(), Math.max(50, this.#leaseMs / 3));
    this.#renewal.unref();
  }

  get seq(): number {
    return this.#seq;
  }

  get lastHash(): string {
    return this.#lastHash;
  }

  /** `postgres:<id>`: where errors say the session is. */
  get where(): string {
    return `postgres:${this.id}`;
  }

  append(entry: AppendableEntry): Promise<AppendReceipt> {
    if (this.#closed)
      return Promise.reject(new SessionLogError("write_failed", this.where, "the log is closed"));
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    let line: SealedLine;
    const seq = this.#seq + 1;
    const prev = this.#lastHash;
    try {
      line = sealEntry(this.#key, this.where, seq, prev, new Date(), refuseSessionStart(this.where, entry));
    } catch (error) {
      return Promise.reject(error);
    }
    this.#seq = seq;
    this.#lastHash = line.mac;
    return new Promise<AppendReceipt>((resolve, reject) => {
      this.#pending.push({
        entry,
        seq,
        prev,
        line,
        done: (error) => (error === undefined ? resolve({ seq, hash: line.mac }) : reject(error)),
      });
      this.#draining ??= this.#drain();
    });
  }

  /**
   * Group commit: while one statement is in flight, the lines appended meanwhile wait, and go
   * together in the next one (a turn's items and its usage are one round trip, not one each).
   */
  async #drain(): Promise<void> {
    // The appends of one synchronous burst (a turn's items, then its usage) share the first batch.
    await Promise.resolve();
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, MAX_BATCH);
        if (this.#failure === undefined) {
          try {
            await this.#insert(batch);
          } catch (error) {
            this.#failure ??=
              error instanceof SessionLogError
                ? error
                : new SessionLogError(
                    "write_failed",
                    this.where,
                    `append failed: ${(error as Error).message}`,
                    batch[0]?.seq,
                    { cause: error },
                  );
          }
        }
        for (const pending of batch) pending.done(this.#failure);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renewal);
    while (this.#draining !== undefined) await this.#draining;
    await this.#pool
      .query(
        "UPDATE yoake_sessions SET lease_owner = NULL, lease_expires = NULL WHERE id = $1 AND lease_owner = $2",
        [this.id, this.#owner],
      )
      .catch(() => undefined);
  }

  /**
   * Sends a batch of sealed lines, again after a transient failure for as long as the retry policy
   * says (a database restarting or stopped for a while): a retry whose first attempt did land
   * finds its own last line (same seq, same MAC) in place and counts as done (the statement is
   * atomic, so the whole batch landed), so retrying never writes twice.
   */
  async #insert(batch: readonly PendingLine[]): Promise<void> {
    const first = batch[0] as PendingLine;
    const last = batch[batch.length - 1] as PendingLine;
    const texts = batch.map(({ line }) => line.bytes.toString("utf8").trimEnd());
    const lastTs = (JSON.parse(texts[texts.length - 1] as string) as { ts: string }).ts;
    const userInput = batch.find(({ entry }) => entry.type === "user_input")?.entry;
    const firstUserText = userInput?.type === "user_input" ? userInput.text.slice(0, 200) : null;
    const compaction = batch.find(
      ({ entry }) => entry.type === "compaction" && entry.sessionId !== this.id,
    )?.entry;
    const next = compaction?.type === "compaction" ? compaction.sessionId : null;
    await retryTransient(async () => {
      {
        // Named: each connection parses and plans it once, not at every append.
        const { rowCount } = await this.#pool.query({
          name: "yoake_session_append",
          text: APPEND,
          values: [
            this.id,
            first.seq,
            first.prev,
            last.seq,
            last.line.mac,
            lastTs,
            this.#owner,
            this.#leaseMs,
            firstUserText,
            next,
            batch.map(({ seq }) => seq),
            batch.map(({ prev }) => prev),
            batch.map(({ line }) => line.mac),
            batch.map(({ entry }) => entry.type),
            texts,
          ],
        });
        if (rowCount === batch.length) return;
        const { rows } = await this.#pool.query<{ seq: number; mac: string }>(
          "SELECT seq, mac FROM yoake_session_entries WHERE session = $1 AND seq IN ($2, $3)",
          [this.id, first.seq, last.seq],
        );
        if (rows.find((row) => row.seq === last.seq)?.mac === last.line.mac) return;
        throw new SessionLogError(
          "conflict",
          this.where,
          rows.length === 0
            ? "this writer lost the session's lease to another writer; nothing was written"
            : "another writer appended first; this writer is stale and nothing was written (the session did not fork)",
          first.seq,
        );
      }
    }, this.#retry);
  }

  async #renew(): Promise<void> {
    await this.#pool
      .query(
        "UPDATE yoake_sessions SET lease_expires = now() + $3 * interval '1 millisecond' WHERE id = $1 AND lease_owner = $2",
        [this.id, this.#owner, this.#leaseMs],
      )
      .catch(() => undefined);
  }
}
