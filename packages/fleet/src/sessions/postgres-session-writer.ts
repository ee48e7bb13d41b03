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
import { isTransient } from "./transient.js";

/** How long a writer's lease lasts without renewal: a writer that dies frees its session after this. */
export const DEFAULT_LEASE_MS = 30_000;
const APPEND_ATTEMPTS = 4;

/**
 * Extends the session's head by one line, in one statement: the head moves only if it is still the
 * entry this line extends (`seq - 1`, `prev`) and this writer still holds the lease, and the line is
 * inserted only if the head moved. The row lock of the head serializes racing writers, so of two
 * appends extending the same head exactly one succeeds; `UNIQUE (session, seq)` backs that up.
 */
const APPEND = `
WITH head AS (
  UPDATE yoake_sessions
     SET head_seq = $2, head_mac = $4, last_activity = $6,
         lease_expires = now() + $8 * interval '1 millisecond',
         first_user_text = COALESCE(first_user_text, $9),
         next = COALESCE($10, next)
   WHERE id = $1 AND head_seq = $2 - 1 AND head_mac = $3 AND lease_owner = $7
  RETURNING id)
INSERT INTO yoake_session_entries (session, seq, prev, mac, type, line)
SELECT id, $2, $3, $4, $5, $11 FROM head
RETURNING seq`;

/** One session's writer on PostgreSQL (see `SessionWriter`): holds the lease and renews it. */
export class PostgresSessionWriter implements SessionWriter {
  readonly #pool: pg.Pool;
  readonly #key: SessionKey;
  readonly #owner: string;
  readonly #leaseMs: number;
  readonly #renewal: NodeJS.Timeout;
  #seq: number;
  #lastHash: string;
  #tail: Promise<unknown> = Promise.resolve();
  #failure: SessionLogError | undefined;
  #closed = false;

  constructor(
    readonly id: string,
    options: {
      pool: pg.Pool;
      key: SessionKey;
      owner: string;
      leaseMs: number;
      seq: number;
      lastHash: string;
    },
  ) {
    this.#pool = options.pool;
    this.#key = options.key;
    this.#owner = options.owner;
    this.#leaseMs = options.leaseMs;
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
    const appended = this.#tail.then(async () => {
      if (this.#failure !== undefined) throw this.#failure;
      try {
        await this.#insert(entry, seq, prev, line);
      } catch (error) {
        this.#failure ??=
          error instanceof SessionLogError
            ? error
            : new SessionLogError(
                "write_failed",
                this.where,
                `append failed: ${(error as Error).message}`,
                seq,
                {
                  cause: error,
                },
              );
        throw this.#failure;
      }
      return { seq, hash: line.mac };
    });
    this.#tail = appended.catch(() => undefined);
    return appended;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#renewal);
    await this.#tail;
    await this.#pool
      .query(
        "UPDATE yoake_sessions SET lease_owner = NULL, lease_expires = NULL WHERE id = $1 AND lease_owner = $2",
        [this.id, this.#owner],
      )
      .catch(() => undefined);
  }

  /**
   * Sends one sealed line, again after a transient failure: a retry whose first attempt did land
   * finds its own line (same seq, same MAC) in place and counts as done, so retrying never writes twice.
   */
  async #insert(entry: AppendableEntry, seq: number, prev: string, line: SealedLine): Promise<void> {
    const text = line.bytes.toString("utf8").trimEnd();
    const json = JSON.parse(text) as { ts: string };
    const firstUserText = entry.type === "user_input" ? entry.text.slice(0, 200) : null;
    const next = entry.type === "compaction" && entry.sessionId !== this.id ? entry.sessionId : null;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rowCount } = await this.#pool.query(APPEND, [
          this.id,
          seq,
          prev,
          line.mac,
          entry.type,
          json.ts,
          this.#owner,
          this.#leaseMs,
          firstUserText,
          next,
          text,
        ]);
        if (rowCount === 1) return;
        const { rows } = await this.#pool.query<{ mac: string }>(
          "SELECT mac FROM yoake_session_entries WHERE session = $1 AND seq = $2",
          [this.id, seq],
        );
        if (rows[0]?.mac === line.mac) return;
        throw new SessionLogError(
          "conflict",
          this.where,
          rows[0] === undefined
            ? "this writer lost the session's lease to another writer; nothing was written"
            : "another writer appended first; this writer is stale and nothing was written (the session did not fork)",
          seq,
        );
      } catch (error) {
        if (!isTransient(error) || attempt >= APPEND_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
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
