import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import path from "node:path";
import { type FleetClient, openFleetStores, type RunRecord } from "@yoake/fleet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ended, type FleetBed, startFleetBed, waitForRun } from "./support/fleet-bed.js";

/**
 * The runs' git remote refusing connections for a while: a `git daemon` on 127.0.0.1 serving the
 * bed's origin, stopped and started by the test. Fetches and pushes are retried until it is back
 * (within `--git-retry`); a push that outlasts that keeps the run's work in its record and delivers
 * it later; a repository that does not exist fails its run at once, in git's words.
 */
let bed: FleetBed;
let daemon: GitDaemon;

beforeAll(async () => {
  bed = await startFleetBed();
  daemon = await gitDaemon(bed.scratch);
  await daemon.start();
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await bed?.close();
});

const yes = { tools: { approve: [] } };
/** `YOAKE_FAULT_BATCH=100`: batches of that many runs (the fleet README's fault benchmark). */
const BENCH_BATCH = Number(process.env.YOAKE_FAULT_BATCH ?? 0);
const batchOf = (runs: number) => (BENCH_BATCH > 0 ? BENCH_BATCH : runs);
const TEST_MS = BENCH_BATCH > 0 ? 1_800_000 : 120_000;

interface GitDaemon {
  /** `git://127.0.0.1:<port>/` */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A `git daemon` exporting every repository under `base` (pushes allowed) on a fixed free port. */
async function gitDaemon(base: string): Promise<GitDaemon> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  let child: ChildProcess | undefined;
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  return {
    url: `git://127.0.0.1:${port}/`,
    async start() {
      child = spawn(
        "git",
        [
          "daemon",
          "--reuseaddr",
          "--export-all",
          "--enable=receive-pack",
          `--base-path=${base}`,
          "--listen=127.0.0.1",
          `--port=${port}`,
          base,
        ],
        { stdio: "ignore" },
      );
      while (!(await accepts())) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async stop() {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
      while (await accepts()) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}

async function submitBatch(client: FleetClient, name: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1)
    ids.push(
      await client.submit({
        repo: `${daemon.url}${path.basename(bed.origin)}`,
        prompt: `create ${name}-${i}.txt`,
        overrides: yes,
      }),
    );
  return ids;
}

/** Every run finished on its branch, which holds the file its verified log says was written. */
async function checkBatch(
  url: string,
  client: FleetClient,
  name: string,
  ids: string[],
): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (const id of ids) runs.push(await waitForRun(client, id, ended));
  const { sessionStore, close } = await openFleetStores(url, { env: bed.env });
  try {
    for (const [i, run] of runs.entries()) {
      const file = `${name}-${i}.txt`;
      expect(run.result, `run ${i}`).toMatchObject({ status: "finished", branch: `yoake/${run.id}` });
      expect(bed.branchFile(`yoake/${run.id}`, file)).toBe(`made for ${file}\n`);
      const entries = await sessionStore.read(run.sessionId as string);
      expect(entries.filter((entry) => entry.type === "user_input")).toHaveLength(1);
      expect(
        entries.filter((entry) => entry.type === "item" && entry.item.type === "tool_result"),
      ).toHaveLength(1);
    }
  } finally {
    await close();
  }
  return runs;
}

/** Until `done` holds for every run of `ids`. */
async function untilAll(
  client: FleetClient,
  ids: string[],
  done: (run: RunRecord) => boolean,
): Promise<void> {
  for (;;) {
    const runs = await Promise.all(ids.map((id) => client.runs.get(id)));
    if (runs.every((run) => run !== undefined && done(run))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the runs' git remote refusing connections for a while", () => {
  it(
    "retries the fetch until the remote is back, then finishes every run",
    async () => {
      const { url, client } = await bed.database("fetch_outage");
      await daemon.stop();
      let ids: string[] = [];
      try {
        bed.startWorker(url, "--concurrency", "2", "--git-retry", "60");
        ids = await submitBatch(client, "fetch-outage", batchOf(4));
        // Taken and trying to fetch, not failed.
        await untilAll(client, ids.slice(0, 2), (run) => run.state === "running" || ended(run));
        await new Promise((resolve) => setTimeout(resolve, 2000));
        for (const id of ids) expect((await client.runs.get(id))?.state).not.toBe("failed");
      } finally {
        await daemon.start();
      }
      await checkBatch(url, client, "fetch-outage", ids);
    },
    TEST_MS,
  );

  it(
    "retries the push until the remote is back: the runs' branches are delivered",
    async () => {
      const { url, client } = await bed.database("push_outage");
      bed.latencyMs = 1000;
      let ids: string[] = [];
      try {
        bed.startWorker(url, "--concurrency", "2", "--git-retry", "60");
        ids = await submitBatch(client, "push-outage", batchOf(4));
        await untilAll(client, ids.slice(0, 2), (run) => run.sessionId !== undefined);
        await daemon.stop();
        // The first two runs end their Pods and wait for the remote.
        await new Promise((resolve) => setTimeout(resolve, 4000));
      } finally {
        bed.latencyMs = 0;
        await daemon.start();
      }
      await checkBatch(url, client, "push-outage", ids);
    },
    TEST_MS,
  );

  it(
    "keeps a run's work in its record when the push outlasts --git-retry, and delivers it once the remote is back",
    async () => {
      const { url, client } = await bed.database("push_kept");
      bed.latencyMs = 500;
      let ids: string[] = [];
      try {
        bed.startWorker(url, "--concurrency", "2", "--git-retry", "2");
        ids = await submitBatch(client, "push-kept", 2);
        await untilAll(client, ids, (run) => run.sessionId !== undefined);
        await daemon.stop();
        // Given up on for now: queued again with its changes (committed for the push) kept.
        await untilAll(
          client,
          ids,
          (run) =>
            (run.state === "queued" && run.workspace?.patch !== "" && run.workspace !== undefined) ||
            ended(run),
        );
        for (const [i, id] of ids.entries()) {
          const run = (await client.runs.get(id)) as RunRecord;
          expect(run.state).toBe("queued");
          expect(run.workspace?.patch).toContain(`+made for push-kept-${i}.txt`);
        }
      } finally {
        bed.latencyMs = 0;
        await daemon.start();
      }
      const runs = await checkBatch(url, client, "push-kept", ids);
      for (const run of runs) expect(run.attempts).toBeGreaterThan(1);
      // The model was asked each round once: the delivering attempt only pushed.
      for (const i of ids.keys())
        expect(
          bed.provider.requests.filter((request) =>
            JSON.stringify(request.body).includes(`create push-kept-${i}.txt`),
          ),
        ).toHaveLength(2);
    },
    TEST_MS,
  );

  it(
    "queues a run again when its fetch outlasts --git-retry, and finishes it once the remote is back",
    async () => {
      const { url, client } = await bed.database("fetch_requeued");
      await daemon.stop();
      let ids: string[] = [];
      try {
        bed.startWorker(url, "--concurrency", "1", "--git-retry", "1");
        ids = await submitBatch(client, "fetch-requeued", 1);
        // Given up on for now, not failed: back in the queue, tried again later.
        await untilAll(client, ids, (run) => (run.state === "queued" && run.attempts >= 2) || ended(run));
        expect((await client.runs.get(ids[0] as string))?.state).toBe("queued");
      } finally {
        await daemon.start();
      }
      await checkBatch(url, client, "fetch-requeued", ids);
    },
    TEST_MS,
  );

  it(
    "fails a run on a repository that does not exist at once, with git's reason",
    async () => {
      const { url, client } = await bed.database("missing");
      bed.startWorker(url, "--concurrency", "1", "--git-retry", "600");
      const id = await client.submit({
        repo: `${daemon.url}missing.git`,
        prompt: "create x.txt",
        overrides: yes,
      });
      const run = await waitForRun(client, id, ended);
      expect(run.state).toBe("failed");
      expect(run.result?.error).toMatch(/missing\.git/);
      expect(run.result?.error).toMatch(/not exported|does not appear|not found/);
      expect(run.attempts).toBe(1);
    },
    TEST_MS,
  );
});
