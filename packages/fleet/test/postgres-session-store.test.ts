import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer, type Server, Socket } from "node:net";
import { createInterface } from "node:readline";
import { SessionLogError } from "@yoake/pod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeSessionStoreContract } from "../../pod/test/support/session-store-conformance.js";
import { testConfig, testKey } from "../../pod/test/support/session-test-config.js";
import { FleetDatabase } from "../src/database/fleet-database.js";
import { MIGRATIONS } from "../src/database/migrations.js";
import { RunTable } from "../src/runs/run-record.js";
import { PostgresSessionStore } from "../src/sessions/postgres-session-store.js";
import { type PostgresCluster, startPostgres } from "./support/postgres-cluster.js";

let cluster: PostgresCluster;
let databases = 0;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

async function freshDatabase(): Promise<FleetDatabase> {
  databases += 1;
  return new FleetDatabase(await cluster.createDatabase(`sessions_${databases}`));
}

describeSessionStoreContract("PostgresSessionStore", async () => {
  const database = await freshDatabase();
  const store = new PostgresSessionStore(database, { key: testKey });
  return { store, dispose: () => store.close() };
});

const config = testConfig("/project");
const text = (value: string) => ({
  type: "user_input" as const,
  segments: [{ type: "text" as const, text: value }],
  text: value,
});

async function kindOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof SessionLogError ? error.kind : String(error);
}

describe("PostgresSessionStore", () => {
  it("creates its schema on first use, records its version, and refuses a newer one", async () => {
    const database = await freshDatabase();
    const store = new PostgresSessionStore(database, { key: testKey });
    expect(await store.list()).toEqual([]);
    expect(await database.schemaVersion()).toBe(MIGRATIONS.length);
    await database.pool.query("INSERT INTO yoake_schema_versions (version) VALUES ($1)", [
      MIGRATIONS.length + 1,
    ]);
    const again = new FleetDatabase(database.url);
    await expect(again.ready()).rejects.toThrow(/newer than this yoake knows/);
    await again.close();
    await store.close();
  });

  it("migrates a database an older yoake made, one step at a time, keeping what it holds", async () => {
    const database = await freshDatabase();
    // The schema as the release with four steps left it, with a run in it.
    await database.pool.query(
      "CREATE TABLE yoake_schema_versions (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    for (const [i, step] of MIGRATIONS.slice(0, 4).entries()) {
      await database.pool.query(step);
      await database.pool.query("INSERT INTO yoake_schema_versions (version) VALUES ($1)", [i + 1]);
    }
    const id = "00000000-0000-4000-8000-000000000001";
    await database.pool.query("INSERT INTO yoake_runs (id, state, spec) VALUES ($1, 'queued', $2)", [
      id,
      { repo: "file:///r.git", prompt: "p" },
    ]);
    expect(await database.schemaVersion()).toBe(4);

    await database.ready();
    expect(await database.schemaVersion()).toBe(MIGRATIONS.length);
    const run = await new RunTable(database.pool).get(id);
    expect(run).toMatchObject({ id, state: "queued", spec: { repo: "file:///r.git", prompt: "p" } });
    expect(run?.workspace).toBeUndefined();
    await database.close();
  });

  it("refuses a stale writer: one whose lease was taken, and one whose head moved", async () => {
    const database = await freshDatabase();
    const store = new PostgresSessionStore(database, { key: testKey, leaseMs: 150 });
    const first = await store.create({ config });
    // The first writer stalls (here: its lease is made to run out), a second takes the session over.
    await database.pool.query("UPDATE yoake_sessions SET lease_expires = now() - interval '1 second'");
    const second = await store.open(first.id);
    expect(await kindOf(first.append(text("stale, before the new writer wrote")))).toBe("conflict");
    await second.writer.append(text("the new writer"));
    expect(await kindOf(first.append(text("stale, after")))).toBe("conflict");
    await second.writer.close();
    const entries = await store.read(first.id);
    expect(entries.map((entry) => (entry.type === "user_input" ? entry.text : entry.type))).toEqual([
      "session_start",
      "the new writer",
    ]);
    await first.close();
    await store.close();
  });

  it("treats a retried append whose first attempt landed as done, writing it once", async () => {
    const database = await freshDatabase();
    const store = new PostgresSessionStore(database, { key: testKey });
    const writer = await store.create({ config });
    await writer.close();
    // Through a proxy that lets the first append reach the server and then cuts the connection
    // before its answer comes back: the client cannot know whether it landed, so it retries.
    const proxy = await cuttingProxy(cluster.port, "WITH head AS");
    const viaProxy = new FleetDatabase(database.url.replace(`:${cluster.port}/`, `:${proxy.port}/`));
    const proxied = new PostgresSessionStore(viaProxy, { key: testKey });
    const { writer: reopened } = await proxied.open(writer.id);
    const receipt = await reopened.append(text("once"));
    expect(proxy.cuts()).toBe(1);
    expect(receipt.seq).toBe(2);
    await reopened.append(text("twice"));
    await reopened.close();
    const entries = await store.read(writer.id);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(entries[1]?.mac).toBe(receipt.hash);
    await proxied.close();
    proxy.server.close();
    await store.close();
  });

  it("reports a line altered in the database as tampered", async () => {
    const database = await freshDatabase();
    const store = new PostgresSessionStore(database, { key: testKey });
    const writer = await store.create({ config });
    await writer.append(text("the real question"));
    await writer.close();
    await database.pool.query(
      "UPDATE yoake_session_entries SET line = replace(line, 'the real question', 'a forged question') WHERE seq = 2",
    );
    expect(await kindOf(store.read(writer.id))).toBe("tampered");
    expect(await kindOf(store.open(writer.id))).toBe("tampered");
    await store.close();
  });

  it("lets exactly one of two writer processes racing on one head append", async () => {
    const database = await freshDatabase();
    const store = new PostgresSessionStore(database, { key: testKey });
    const created = await store.create({ config });
    await created.close();
    const keyHex = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString("hex");
    const leaseMs = "1500";
    const first = startWriter(database.url, created.id, keyHex, leaseMs);
    const second = startWriter(database.url, created.id, keyHex, leaseMs);
    try {
      await first.start();
      expect(await first.line()).toBe("opened");
      // The first writer stalls (SIGSTOP) until its lease runs out; the second then opens the
      // session too, and both are told to append at once on the same head.
      first.child.kill("SIGSTOP");
      await waitFor(async () => {
        const { rows } = await database.pool.query(
          "SELECT lease_expires < now() AS expired FROM yoake_sessions",
        );
        return rows[0]?.expired === true;
      });
      await second.start();
      expect(await second.line()).toBe("opened");
      first.child.kill("SIGCONT");
      first.child.stdin.write("go\n");
      second.child.stdin.write("go\n");
      const results = [JSON.parse(await first.line()), JSON.parse(await second.line())];
      expect(results.filter((result) => result.appended === 2)).toHaveLength(1);
      expect(results.filter((result) => result.refused === "conflict")).toHaveLength(1);
      const entries = await store.read(created.id);
      expect(entries.map((entry) => entry.seq)).toEqual([1, 2]);
    } finally {
      for (const writer of [first, second]) writer.child.kill("SIGKILL");
    }
    await store.close();
  }, 60_000);
});

interface WriterProcess {
  child: ChildProcessWithoutNullStreams;
  /** Starts the process (the second one starts late, after the first's lease ran out). */
  start(): Promise<void>;
  line(): Promise<string>;
}

function startWriter(url: string, id: string, keyHex: string, leaseMs: string): WriterProcess {
  let child: ChildProcessWithoutNullStreams | undefined;
  const pending: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  const launch = () => {
    child = spawn(
      process.execPath,
      [
        "--conditions=@yoake/source",
        "--import",
        "tsx",
        new URL("./support/race-writer.ts", import.meta.url).pathname,
        url,
        id,
        keyHex,
        leaseMs,
      ],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => {
      if (code !== 0 && code !== null)
        for (const waiter of waiters.splice(0)) waiter(`exited ${code}: ${stderr}`);
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      const waiter = waiters.shift();
      if (waiter === undefined) pending.push(line);
      else waiter(line);
    });
  };
  return {
    get child() {
      if (child === undefined) throw new Error("not started");
      return child;
    },
    async start() {
      launch();
    },
    line() {
      const ready = pending.shift();
      return ready === undefined
        ? new Promise<string>((resolve) => waiters.push(resolve))
        : Promise.resolve(ready);
    },
  };
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A TCP proxy to the server that, the first time a client sends bytes containing `marker`, passes
 * them on and then closes the client's connection instead of relaying the answer.
 */
async function cuttingProxy(
  targetPort: number,
  marker: string,
): Promise<{ server: Server; port: number; cuts(): number }> {
  let cuts = 0;
  const server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(targetPort, "127.0.0.1");
    let cutting = false;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (cuts === 0 && chunk.includes(marker)) {
        cuts += 1;
        cutting = true;
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cutting) {
        // The query reached the server and is answered: the client never hears it.
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { server, port: address.port, cuts: () => cuts };
}
