import { randomUUID } from "node:crypto";
import { isBlobId } from "@yoake/llm-worker/internal";
import {
  type LogEntry,
  linkContinuation,
  type OpenedStoredSession,
  type SessionConfig,
  type SessionKey,
  SessionLogError,
  type SessionStartInput,
  type SessionStore,
  type SessionWriter,
  type StoredSessionInfo,
  sealFirstLines,
  verifyLogLine,
} from "@yoake/pod/session-log";
import { v7 as newSessionId } from "uuid";
import { type FleetDatabase, redactUrl } from "../database/fleet-database.js";
import type { RetryPolicy } from "../database/retry.js";
import { DEFAULT_LEASE_MS, PostgresSessionWriter } from "./postgres-session-writer.js";

export interface PostgresSessionStoreOptions {
  /** Every line is sealed and verified with it; all machines sharing the database need the same key. */
  key: SessionKey;
  /** How long a writer holds a session without renewing (it renews every third of it). Default 30 s. */
  leaseMs?: number;
  /**
   * Lists only the sessions of this project root (as `session_start` records it), as the files of
   * one project would; default every session in the database.
   */
  project?: string;
  /**
   * How long an append is tried again while the database is away (default 10 s); reads and the
   * lease go through the database's `queries`, retried as it was told.
   */
  retry?: RetryPolicy;
}

const DIRECTORY = "postgres:yoake_sessions";

/**
 * The `SessionStore` in PostgreSQL, shared by any number of machines. Each session has a head
 * (`head_seq`, `head_mac`) and a lease: `open` takes the lease (refused with `locked` while another
 * writer's is unexpired), an append moves the head only from the entry it extends and only for the
 * lease holder, so a stale or second writer gets `conflict` and the session never forks. A writer
 * that dies stops renewing; its lease expires after `leaseMs` and another `open` succeeds.
 */
export class PostgresSessionStore implements SessionStore {
  readonly #database: FleetDatabase;
  readonly #key: SessionKey;
  readonly #leaseMs: number;
  readonly #project: string | null;
  readonly #retry: RetryPolicy;

  constructor(database: FleetDatabase, options: PostgresSessionStoreOptions) {
    this.#database = database;
    this.#key = options.key;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#project = options.project ?? null;
    this.#retry = options.retry ?? { retryMs: 10_000 };
  }

  /** `postgres:<database URL without its password>`. */
  get location(): string {
    return `postgres:${redactUrl(this.#database.url)}`;
  }

  async create(start: SessionStartInput): Promise<SessionWriter> {
    await this.#database.ready();
    const id = start.sessionId ?? newSessionId();
    const where = `postgres:${id}`;
    const lines = sealFirstLines(this.#key, where, id, start, () => new Date());
    const texts = lines.map((line) => line.bytes.toString("utf8").trimEnd());
    const parsed = texts.map(
      (text) => JSON.parse(text) as { seq: number; prev: string; type: string; ts: string },
    );
    const last = lines[lines.length - 1] as (typeof lines)[number];
    const owner = randomUUID();
    // One statement: the entries go in only if the session row did (a taken id inserts nothing).
    const { rowCount } = await this.#database.queries.query({
      name: "yoake_session_create",
      text: `WITH session AS (
               INSERT INTO yoake_sessions (id, started, previous, head_seq, head_mac, last_activity, lease_owner, lease_expires, project)
               VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond', $9)
               ON CONFLICT (id) DO NOTHING
               RETURNING id)
             INSERT INTO yoake_session_entries (session, seq, prev, mac, type, line)
             SELECT session.id, line.* FROM session, unnest($10::int[], $11::text[], $12::text[], $13::text[], $14::text[]) AS line`,
      values: [
        id,
        parsed[0]?.ts,
        start.previous?.sessionId ?? null,
        lines.length,
        last.mac,
        parsed[parsed.length - 1]?.ts,
        owner,
        this.#leaseMs,
        start.config.projectRoot,
        parsed.map((entry) => entry.seq),
        parsed.map((entry) => entry.prev),
        lines.map((line) => line.mac),
        parsed.map((entry) => entry.type),
        texts,
      ],
    });
    if (rowCount !== lines.length) {
      // A retry whose first attempt landed (its answer lost) finds the session under its own lease.
      const mine = await this.#database.queries.query(
        "SELECT 1 FROM yoake_sessions WHERE id = $1 AND lease_owner = $2 AND head_mac = $3",
        [id, owner, last.mac],
      );
      if (mine.rowCount !== 1)
        throw new SessionLogError("already_exists", where, "a session with this id already exists");
    }
    return this.#writer(id, owner, lines.length, last.mac);
  }

  async open(id: string): Promise<OpenedStoredSession> {
    await this.#database.ready();
    checkId(id);
    const owner = randomUUID();
    // `lease_owner = $2`: a retry whose first attempt took the lease (its answer lost) has it.
    const { rows } = await this.#database.queries.query<{ head_seq: number; head_mac: string }>(
      `UPDATE yoake_sessions SET lease_owner = $2, lease_expires = now() + $3 * interval '1 millisecond'
        WHERE id = $1 AND (lease_owner IS NULL OR lease_expires < now() OR lease_owner = $2)
        RETURNING head_seq, head_mac`,
      [id, owner, this.#leaseMs],
    );
    const head = rows[0];
    if (head === undefined) {
      const held = await this.#database.queries.query("SELECT 1 FROM yoake_sessions WHERE id = $1", [id]);
      if (held.rowCount === 0) throw notFound(id);
      throw new SessionLogError("locked", `postgres:${id}`, "another writer holds this session's lease");
    }
    const writer = this.#writer(id, owner, head.head_seq, head.head_mac);
    try {
      const entries = await this.read(id);
      const last = entries[entries.length - 1];
      if (last?.seq !== head.head_seq || last.mac !== head.head_mac) {
        throw new SessionLogError(
          "broken_chain",
          `postgres:${id}`,
          `the session's head (${head.head_seq}) is not its last entry (${last?.seq})`,
        );
      }
      return { writer, entries, warnings: [] };
    } catch (error) {
      await writer.close();
      throw error;
    }
  }

  async read(id: string, fromSeq = 1): Promise<LogEntry[]> {
    await this.#database.ready();
    checkId(id);
    const { rows } = await this.#database.queries.query<{ seq: number; prev: string; line: string }>(
      "SELECT seq, prev, line FROM yoake_session_entries WHERE session = $1 AND seq >= $2 ORDER BY seq",
      [id, Math.max(1, fromSeq)],
    );
    if (rows.length === 0) {
      const exists = await this.#database.queries.query("SELECT 1 FROM yoake_sessions WHERE id = $1", [id]);
      if (exists.rowCount === 0) throw notFound(id);
      return [];
    }
    const where = `postgres:${id}`;
    // From a later seq, the first line's MAC is verified and its `prev` taken as the chain's start.
    let previousHash = fromSeq <= 1 ? "" : (rows[0]?.prev ?? "");
    return rows.map((row) => {
      const entry = verifyLogLine(this.#key, Buffer.from(row.line, "utf8"), row.seq, previousHash, where);
      previousHash = entry.mac;
      return entry;
    });
  }

  async list(): Promise<StoredSessionInfo[]> {
    await this.#database.ready();
    const { rows } = await this.#database.pool.query<{
      id: string;
      started: string;
      last_activity: string;
      head_seq: number;
      first_user_text: string | null;
      previous: string | null;
      next: string | null;
    }>(
      `SELECT s.id, s.started, s.last_activity, s.head_seq, s.first_user_text, s.previous,
              COALESCE(s.next, (SELECT c.id FROM yoake_sessions c WHERE c.previous = s.id ORDER BY c.started LIMIT 1)) AS next
         FROM yoake_sessions s WHERE $1::text IS NULL OR s.project = $1 ORDER BY s.started, s.id`,
      [this.#project],
    );
    return rows.map((row) => ({
      id: row.id,
      started: row.started,
      lastActivity: row.last_activity,
      entryCount: row.head_seq,
      ...(row.first_user_text === null ? {} : { firstUserText: cut(row.first_user_text) }),
      ...(row.previous === null ? {} : { previous: row.previous }),
      ...(row.next === null ? {} : { next: row.next }),
    }));
  }

  link(previous: SessionWriter, summary: string, config: SessionConfig): Promise<SessionWriter> {
    return linkContinuation(previous, summary, config, (start) => this.create(start));
  }

  /** Closes the database's pool (the store does not own writers: close them first). */
  close(): Promise<void> {
    return this.#database.close();
  }

  #writer(id: string, owner: string, seq: number, lastHash: string): PostgresSessionWriter {
    return new PostgresSessionWriter(id, {
      pool: this.#database.pool,
      key: this.#key,
      owner,
      leaseMs: this.#leaseMs,
      retry: this.#retry,
      seq,
      lastHash,
    });
  }
}

function checkId(id: string): void {
  if (!isBlobId(id)) throw notFound(id);
}

function notFound(id: string): SessionLogError {
  return new SessionLogError("not_found", DIRECTORY, `no session ${JSON.stringify(id)}`);
}

function cut(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
