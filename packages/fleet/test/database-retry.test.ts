import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetDatabase } from "../src/database/fleet-database.js";
import { type PostgresCluster, startPostgres } from "./support/postgres-cluster.js";

/**
 * Statements of a worker while the server has no connection free for it: refused with "too many
 * connections" (SQLSTATE 53300), retried until one is free, within the time the operator set.
 */
let cluster: PostgresCluster;
let url: string;
beforeAll(async () => {
  cluster = await startPostgres();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  // A role allowed two connections: the server refuses a third as it refuses one past max_connections.
  await admin.query("CREATE ROLE limited LOGIN CONNECTION LIMIT 2");
  await admin.end();
  await cluster.createDatabase("limits");
  url = `postgres://limited@127.0.0.1:${cluster.port}/limits`;
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

async function holdAll(): Promise<pg.Client[]> {
  const held = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  for (const client of held) await client.connect();
  return held;
}

describe("the fleet's database connections", () => {
  it("retries a statement refused for capacity until a connection is free", async () => {
    const held = await holdAll();
    const retries: string[] = [];
    const patient = new FleetDatabase(url, {
      maxConnections: 1,
      retry: { retryMs: 30_000, onRetry: (error) => retries.push((error as { code?: string }).code ?? "") },
    });
    try {
      const answer = patient.queries.query<{ one: number }>("SELECT 1 AS one");
      // Refused at least once while every connection the role may have is held.
      while (retries.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(retries[0]).toBe("53300");
      await held[0]?.end();
      expect((await answer).rows).toEqual([{ one: 1 }]);
    } finally {
      await held[1]?.end();
      await patient.close();
    }
  }, 60_000);

  it("fails such a statement with the server's reason when no retry is allowed", async () => {
    const held = await holdAll();
    const database = new FleetDatabase(url, { maxConnections: 1 });
    try {
      await expect(database.queries.query("SELECT 1")).rejects.toMatchObject({ code: "53300" });
    } finally {
      for (const client of held) await client.end();
      await database.close();
    }
  }, 60_000);
});
