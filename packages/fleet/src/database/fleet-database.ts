import pg from "pg";
import { MIGRATIONS } from "./migrations.js";
import { type Queryable, type RetryPolicy, retryingQueries } from "./retry.js";

/** Connections of one process's pool by default (see the README's connection arithmetic). */
export const DEFAULT_MAX_CONNECTIONS = 10;

/** Any one lock id of our own: migrations of concurrent first users wait for each other on it. */
const MIGRATION_LOCK = 0x79_6f_61_6b;

/**
 * A connection pool to the fleet's PostgreSQL database, whose schema is created and migrated on
 * first use (`ready`): numbered steps (`MIGRATIONS`), recorded in `yoake_schema_versions`, applied in
 * one transaction under an advisory lock, so many workers starting at once migrate once. A database
 * migrated by a newer yoake is refused rather than written with an older idea of its schema.
 */
export class FleetDatabase {
  readonly pool: pg.Pool;
  /**
   * The pool's queries retried while the server is away or full (`retry`; none by default): for
   * statements that may run twice.
   */
  readonly queries: Queryable;
  #ready: Promise<void> | undefined;
  #closed = false;

  constructor(
    /** `postgres://user@host:port/db`. */
    readonly url: string,
    options: { maxConnections?: number; retry?: RetryPolicy } = {},
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
      // A server that does not answer (a cut network) fails the connect, which is then retried,
      // rather than holding a run for ever; idle connections are let go so a quiet worker holds few.
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
    this.pool.on("error", () => undefined);
    this.queries = retryingQueries(this.pool, options.retry ?? { retryMs: 0 });
  }

  /** Resolves once the schema is current (migrating it the first time). */
  ready(): Promise<void> {
    this.#ready ??= this.#migrate().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** The schema version of the database (0: none yet). */
  async schemaVersion(): Promise<number> {
    const { rows } = await this.pool.query<{ version: number | null }>(
      "SELECT max(version) AS version FROM yoake_schema_versions",
    );
    return rows[0]?.version ?? 0;
  }

  /** The server's clock: the one every submission time (`now()` in its rows) comes from. */
  async now(): Promise<Date> {
    const { rows } = await this.pool.query<{ now: Date }>("SELECT clock_timestamp() AS now");
    return (rows[0] as { now: Date }).now;
  }

  /** Ends the pool; a second call does nothing (several stores may share one database). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }

  /**
   * Runs `body` in one transaction on one connection: committed when it resolves, rolled back when
   * it throws (and the error rethrown).
   */
  async transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  #migrate(): Promise<void> {
    return this.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await client.query(
        "CREATE TABLE IF NOT EXISTS yoake_schema_versions (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      const { rows } = await client.query<{ version: number | null }>(
        "SELECT max(version) AS version FROM yoake_schema_versions",
      );
      const current = rows[0]?.version ?? 0;
      if (current > MIGRATIONS.length) {
        throw new Error(
          `the database ${redactUrl(this.url)} has schema version ${current}, newer than this yoake knows (${MIGRATIONS.length}): upgrade yoake`,
        );
      }
      for (let version = current + 1; version <= MIGRATIONS.length; version += 1) {
        await client.query(MIGRATIONS[version - 1] as string);
        await client.query("INSERT INTO yoake_schema_versions (version) VALUES ($1)", [version]);
      }
    });
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an invalid database URL)";
  }
}
