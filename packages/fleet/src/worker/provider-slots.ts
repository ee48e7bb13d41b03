import { createHash } from "node:crypto";
import pg from "pg";

/** A held slot; `release` gives it back (also given back if the process dies: the connection ends). */
export interface ProviderSlot {
  release(): Promise<void>;
}

/**
 * At most `limit` runs per provider across the whole fleet: slot `i` of provider `p` is the
 * session-level advisory lock (hash(p), i), held on its own connection for the run. PostgreSQL
 * releases it when that connection ends, so a killed worker's slots free themselves.
 */
export async function acquireProviderSlot(
  url: string,
  provider: string,
  limit: number,
): Promise<ProviderSlot | undefined> {
  const group = createHash("sha256").update(provider).digest().readInt32BE(0);
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  for (let slot = 0; slot < limit; slot += 1) {
    const { rows } = await client.query<{ held: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS held", [
      group,
      slot,
    ]);
    if (rows[0]?.held === true) return { release: () => client.end() };
  }
  await client.end();
  return undefined;
}
