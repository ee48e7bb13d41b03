// The fleet benchmark (not a test): `npm run bench --workspace @yoake/fleet`. Figures go to the
// package README. Everything real but the model: PostgreSQL in a temp cluster, worker processes,
// git over file://, the mock provider playing runs of 5 rounds × 3 tool calls.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pod } from "@yoake/pod";
import { SessionKey } from "@yoake/pod/session-log";
import { testConfig } from "../../pod/test/support/session-test-config.js";
import { FleetClient, FleetDatabase, PostgresSessionStore } from "../src/index.js";
import { CALLS, ROUNDS, startBenchBed } from "./bench-model.js";

const RUNS_PER_SETTING = Number(process.env.FLEET_BENCH_RUNS ?? 16);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function appendsPerSecond(url: string, sessions: number): Promise<number> {
  const database = new FleetDatabase(url);
  const store = new PostgresSessionStore(database, { key: SessionKey.fromBytes(new Uint8Array(32)) });
  const perSession = 400;
  const writers = await Promise.all(
    Array.from({ length: sessions }, () => store.create({ config: testConfig("/p") })),
  );
  const started = performance.now();
  await Promise.all(
    writers.map(async (writer) => {
      for (let i = 0; i < perSession; i += 1)
        await writer.append({ type: "alert", level: "info", message: `entry ${i}` });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const writer of writers) await writer.close();
  await store.close();
  return (sessions * perSession) / seconds;
}

async function main(): Promise<void> {
  const bed = await startBenchBed();
  const { cluster, scratch, origin, env, git } = bed;
  const lines: string[] = [];
  try {
    // The same run in a local Pod, on a clone that exists already (files on local disk), measured
    // right before and right after the one-worker batch so the ratio compares like with like on a
    // machine whose load moves.
    const localDir = path.join(scratch, "local");
    git(scratch, "clone", "--quiet", `file://${origin}`, localDir);
    const localP50 = async (): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        const started = performance.now();
        const pod = await Pod.create({ cwd: localDir, env, overrides: { tools: { approve: [] } } });
        const result = await pod.run("write the files");
        await pod.close();
        if (result.status !== "finished") throw new Error(`local run ${result.status}`);
        times.push(performance.now() - started);
      }
      return percentile(times, 50);
    };
    const localBefore = await localP50();
    let localAfter = Number.NaN;
    let oneWorkerPerRunMs = Number.NaN;
    for (const workers of [1, 2, 4]) {
      const url = await cluster.createDatabase(`bench_${workers}`);
      const client = await FleetClient.connect(url);
      const children = Array.from({ length: workers }, () =>
        spawn(
          process.execPath,
          [
            "--conditions=@yoake/source",
            "--import",
            "tsx",
            fileURLToPath(new URL("./worker-main.ts", import.meta.url)),
            url,
            "1",
          ],
          { env, stdio: ["ignore", "pipe", "inherit"] },
        ),
      );
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) =>
              createInterface({ input: child.stdout }).once("line", () => resolve()),
            ),
        ),
      );
      const started = performance.now();
      const ids: string[] = [];
      for (let i = 0; i < RUNS_PER_SETTING; i += 1)
        ids.push(
          await client.submit({
            repo: `file://${origin}`,
            prompt: "write the files",
            overrides: { tools: { approve: [] } },
          }),
        );
      for (;;) {
        const { rows } = await client.database.pool.query<{ n: string }>(
          "SELECT count(*) AS n FROM yoake_runs WHERE state IN ('finished', 'failed')",
        );
        if (Number(rows[0]?.n) >= ids.length) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      const { rows: failed } = await client.database.pool.query(
        "SELECT id FROM yoake_runs WHERE state <> 'finished'",
      );
      // Latency on an idle fleet: one run at a time, submit → its session_start stored.
      const firstMs: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const id = await client.submit({
          repo: `file://${origin}`,
          prompt: "write the files",
          overrides: { tools: { approve: [] } },
        });
        for (;;) {
          const run = await client.runs.get(id);
          if (run?.state === "finished" || run?.state === "failed") break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const { rows } = await client.database.pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM (e.line::jsonb->>'ts')::timestamptz - r.created_at) * 1000 AS ms
             FROM yoake_runs r JOIN yoake_session_entries e ON e.session = r.session_id AND e.seq = 1 WHERE r.id = $1`,
          [id],
        );
        firstMs.push(Number(rows[0]?.ms));
      }
      lines.push(
        `${workers} worker${workers === 1 ? "" : "s"}: ${(ids.length / seconds).toFixed(2)} runs/s (${ids.length} runs at once, ${failed.length} not finished); idle submit → first event p50 ${percentile(firstMs, 50).toFixed(0)} ms, p99 ${percentile(firstMs, 99).toFixed(0)} ms`,
      );
      if (workers === 1) {
        oneWorkerPerRunMs = (seconds * 1000) / ids.length;
        localAfter = await localP50();
      }
      for (const child of children) child.kill("SIGTERM");
      await client.close();
    }
    const localMs = (localBefore + localAfter) / 2;
    lines.push(
      `local Pod, one run (${ROUNDS} rounds × ${CALLS} calls): p50 ${localBefore.toFixed(0)} ms before the 1-worker batch, ${localAfter.toFixed(0)} ms after`,
      `fleet cost per run (1 worker, clone + push included) / local Pod: ${(oneWorkerPerRunMs / localMs).toFixed(2)}× (${oneWorkerPerRunMs.toFixed(0)} ms vs ${localMs.toFixed(0)} ms)`,
    );
    const appendsUrl = await cluster.createDatabase("bench_appends");
    for (const sessions of [1, 8])
      lines.push(
        `PostgreSQL session store: ${(await appendsPerSecond(appendsUrl, sessions)).toFixed(0)} appends/s with ${sessions} concurrent session${sessions === 1 ? "" : "s"}`,
      );
  } finally {
    await bed.close();
  }
  console.log(lines.join("\n"));
}

await main();
