import { randomUUID } from "node:crypto";
import type { WireEvent } from "@yoake/pod/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetDatabase } from "../src/database/fleet-database.js";
import { RunEventWriter, readRunEvents } from "../src/runs/run-events.js";
import { RunTable } from "../src/runs/run-record.js";
import { type PostgresCluster, startPostgres } from "./support/postgres-cluster.js";

/**
 * A run's events when two workers write them at once (one took the run over while the other,
 * cut off from the database, came back): every event stored, numbered without a gap or collision.
 */
let cluster: PostgresCluster;
let database: FleetDatabase;
beforeAll(async () => {
  cluster = await startPostgres();
  database = new FleetDatabase(await cluster.createDatabase("events"));
  await database.ready();
}, 60_000);
afterAll(async () => {
  await database?.close();
  await cluster?.stop();
});

const delta = (writer: string, n: number) =>
  ({ event: "text_delta", index: 0, text: `${writer}${n}` }) as unknown as WireEvent;

describe("run events", () => {
  it("stores the events of two writers racing on one run, each once, numbered 1..n", async () => {
    const runs = new RunTable(database.pool);
    const id = randomUUID();
    await runs.insert(id, { prompt: "p" });
    const writers = [new RunEventWriter(database.pool, id), new RunEventWriter(database.pool, id)];
    for (let n = 0; n < 200; n += 1) {
      writers[n % 2]?.add(delta(n % 2 === 0 ? "a" : "b", n));
      // Batches of both writers in flight at once, not one after the other.
      if (n % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(writers.map((writer) => writer.flush()));
    const stored = await readRunEvents(database.pool, id, 1);
    expect(stored.map((row) => row.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const texts = stored.map((row) => (row.event as unknown as { text: string }).text);
    expect(new Set(texts).size).toBe(200);
    // Each writer's own events stay in its order.
    for (const prefix of ["a", "b"]) {
      const own = texts.filter((text) => text.startsWith(prefix)).map((text) => Number(text.slice(1)));
      expect(own).toEqual([...own].sort((x, y) => x - y));
    }
  }, 60_000);
});
