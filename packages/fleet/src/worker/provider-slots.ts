import { createHash } from "node:crypto";
import pg from "pg";
import { type RetryPolicy, retryTransient } from "../database/retry.js";

/** A held slot; `release` gives it back (also given back if the process dies: the connection ends). */
export interface ProviderSlot {
  release(): Promise<void>;
}

/**
 * At most `limit` runs per provider across the whole fleet: slot `i` of provider `p` is the
 * session-level advisory lock (hash(p), i), held on its own connection for the run. PostgreSQL
 * releases it when that connection ends, so a killed worker's slots free themselves. A worker keeps
 * its slot connections between runs (unlocking instead of disconnecting), so a run costs no new
 * connection.
 */
export class ProviderSlots {
  readonly #idle: pg.Client[] = [];
  #closed = false;

  constructor(
    private readonly url: string,
    /** How long taking a slot is tried again while the database is away (default not at all). */
    private readonly retry: RetryPolicy = { retryMs: 0 },
  ) {}

  /**
   * A free slot of `provider`, or undefined when all `limit` are taken. A kept connection that the
   * server dropped (it restarted) is replaced, and the whole try retried under `retry`.
   */
  acquire(provider: string, limit: number): Promise<ProviderSlot | undefined> {
    return retryTransient(() => this.#tryAcquire(provider, limit), this.retry);
  }

  async #tryAcquire(provider: string, limit: number): Promise<ProviderSlot | undefined> {
    const group = createHash("sha256").update(provider).digest().readInt32BE(0);
    const client = await this.#connection();
    try {
      for (let slot = 0; slot < limit; slot += 1) {
        const { rows } = await client.query<{ held: boolean }>(
          "SELECT pg_try_advisory_lock($1, $2) AS held",
          [group, slot],
        );
        if (rows[0]?.held === true)
          return {
            release: async () => {
              try {
                await client.query("SELECT pg_advisory_unlock($1, $2)", [group, slot]);
                this.#giveBack(client);
              } catch {
                // A broken connection let go of its lock with it.
                await client.end().catch(() => undefined);
              }
            },
          };
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#giveBack(client);
    return undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#idle.splice(0).map((client) => client.end().catch(() => undefined)));
  }

  async #connection(): Promise<pg.Client> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return idle;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    client.on("error", () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  #giveBack(client: pg.Client): void {
    if (this.#closed) void client.end().catch(() => undefined);
    else this.#idle.push(client);
  }
}
