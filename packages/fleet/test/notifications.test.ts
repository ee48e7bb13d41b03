import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FleetDatabase } from "../src/database/fleet-database.js";
import { listenFor } from "../src/database/notifications.js";
import { RUNS_QUEUED_CHANNEL, RunQueue } from "../src/runs/run-queue.js";
import { type PostgresCluster, startPostgres } from "./support/postgres-cluster.js";

// A wait that is not woken lasts an hour: a test here passes only if the notification wakes it.
const HOUR = 3_600_000;

let cluster: PostgresCluster;
let url: string;
let database: FleetDatabase;
beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase("notifications");
  database = new FleetDatabase(url);
}, 60_000);
afterAll(async () => {
  await database?.close();
  await cluster?.stop();
});

it("wakes every waiter at a notification, and a waiter that comes after one that nobody saw at once", async () => {
  const listener = await listenFor(url, "yoake_test_channel");
  const waiters = [listener.wait(HOUR), listener.wait(HOUR)];
  await database.pool.query("NOTIFY yoake_test_channel");
  await Promise.all(waiters);
  await database.pool.query("NOTIFY yoake_test_channel");
  await new Promise((resolve) => setTimeout(resolve, 200));
  await listener.wait(HOUR);
  const closing = listener.wait(HOUR);
  await listener.close();
  await closing;
}, 20_000);

it("announces a run queued to start at once, not one delayed, so an idle worker takes it without waiting to poll", async () => {
  const queue = await RunQueue.open(url);
  const counter = new pg.Client({ connectionString: url });
  await counter.connect();
  let announced = 0;
  counter.on("notification", () => {
    announced += 1;
  });
  await counter.query(`LISTEN ${RUNS_QUEUED_CHANNEL}`);
  const listener = await listenFor(url, RUNS_QUEUED_CHANNEL);
  try {
    const woken = listener.wait(HOUR);
    await queue.send("0190a5d0-0000-7000-8000-000000000001", undefined, 60);
    await queue.send("0190a5d0-0000-7000-8000-000000000002");
    await woken;
    await counter.query("SELECT 1"); // the counter's notifications have arrived by its next answer
    expect(announced).toBe(1);
  } finally {
    await listener.close();
    await counter.end();
    await queue.close();
  }
}, 20_000);
