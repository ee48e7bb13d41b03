// The fleet benchmark (not a test): `npm run bench --workspace @yoake/fleet`. Figures go to the
// package README. Everything real but the model: PostgreSQL in a temp cluster, worker processes,
// git over file://, the mock provider playing runs of 5 rounds × 3 tool calls.
// FLEET_BENCH_BEFORE=<commit> also runs that commit's fleet worker in the interleaved comparison.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pod } from "@yoake/pod";
import { SessionKey } from "@yoake/pod/session-log";
import { testConfig } from "../../pod/test/support/session-test-config.js";
import { FleetClient, FleetDatabase, PostgresSessionStore } from "../src/index.js";
import { CALLS, ROUNDS, startBenchBed } from "./bench-model.js";

const RUNS_PER_SETTING = Number(process.env.FLEET_BENCH_RUNS ?? 16);
/** Rounds of the interleaved comparison, and fleet runs (one worker) / local runs per round. */
const COMPARISON_ROUNDS = Number(process.env.FLEET_BENCH_ROUNDS ?? 7);
const FLEET_RUNS_PER_ROUND = 10;
const LOCAL_RUNS_PER_ROUND = 5;
const BEFORE = process.env.FLEET_BENCH_BEFORE;
const median = (values: number[]) => percentile(values, 50);

/** Worker processes of `module` (this checkout's fleet by default), started and ready. */
async function startWorkers(
  url: string,
  count: number,
  env: Record<string, string | undefined>,
  repositoryCache: string,
  module?: string,
): Promise<ChildProcess[]> {
  const children = Array.from({ length: count }, () =>
    spawn(
      process.execPath,
      [
        "--conditions=@yoake/source",
        "--import",
        "tsx",
        fileURLToPath(new URL("./worker-main.ts", import.meta.url)),
        url,
        "1",
        repositoryCache,
        ...(module === undefined ? [] : [module]),
      ],
      { env, stdio: ["ignore", "pipe", "inherit"] },
    ),
  );
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          createInterface({ input: child.stdout }).once("line", () => resolve());
          child.once("exit", (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
        }),
    ),
  );
  return children;
}

/**
 * Submits `runs` runs at once and waits until all are done. `perRunMs` counts from the submission
 * (so it includes the idle worker's wait for its first poll); `steadyMs` is the time between
 * consecutive results (last result − first result, over runs − 1): what one more run costs a busy
 * worker.
 */
async function batch(
  client: FleetClient,
  origin: string,
  runs: number,
): Promise<{ perRunMs: number; steadyMs: number; failed: number }> {
  const started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < runs; i += 1)
    ids.push(
      await client.submit({
        repo: `file://${origin}`,
        prompt: "write the files",
        overrides: { tools: { approve: [] } },
      }),
    );
  for (;;) {
    const { rows } = await client.database.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM yoake_runs WHERE id = ANY($1) AND state IN ('finished', 'failed')",
      [ids],
    );
    if (Number(rows[0]?.n) >= runs) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const perRunMs = (performance.now() - started) / runs;
  const { rows } = await client.database.pool.query<{ span: number; failed: string }>(
    `SELECT extract(epoch FROM max(updated_at) - min(updated_at)) * 1000 AS span,
            count(*) FILTER (WHERE state <> 'finished' OR result->>'branch' IS NULL) AS failed
       FROM yoake_runs WHERE id = ANY($1)`,
    [ids],
  );
  return { perRunMs, steadyMs: Number(rows[0]?.span) / (runs - 1), failed: Number(rows[0]?.failed) };
}

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
    // The same run in a local Pod, on a clone that exists already (files on local disk): what the
    // issue compares the fleet with. And the same local run that also gets a fresh clone and
    // pushes its branch, as a fleet run does (the fleet's git work done the plain way).
    const localDir = path.join(scratch, "local");
    git(scratch, "clone", "--quiet", `file://${origin}`, localDir);
    const overrides = { tools: { approve: [] } };
    // Each local run starts where a fleet run does: without the files it writes (else write_file
    // refuses to replace files the model never read, and the run writes nothing). Removing them
    // is not timed. Returns the time of the run: Pod created, run, closed.
    const localRun = async (cwd: string): Promise<number> => {
      await rm(path.join(cwd, "out"), { recursive: true, force: true });
      const started = performance.now();
      const pod = await Pod.create({ cwd, env, overrides });
      let failedCalls = 0;
      pod.listen((event) => {
        if (event.type === "tool_end" && event.result.isError === true) failedCalls += 1;
      });
      const result = await pod.run("write the files");
      await pod.close();
      const ms = performance.now() - started;
      if (result.status !== "finished" || failedCalls > 0)
        throw new Error(`local run ${result.status}, ${failedCalls} failed tool calls`);
      return ms;
    };
    const perRun = async (runs: number, body: (i: number) => Promise<number>): Promise<number> => {
      let total = 0;
      for (let i = 0; i < runs; i += 1) total += await body(i);
      return total / runs;
    };
    let localGitRuns = 0;
    const localWithGit = async (): Promise<number> => {
      localGitRuns += 1;
      const dir = path.join(scratch, `local-git-${localGitRuns}`);
      const started = performance.now();
      git(scratch, "clone", "--quiet", "--no-tags", `file://${origin}`, dir);
      await localRun(dir);
      git(dir, "add", "--all", "--", ".", ":(exclude).yoake");
      git(dir, "commit", "--quiet", "--no-verify", "-m", "local run");
      git(dir, "push", "--quiet", "origin", `HEAD:refs/heads/local/${localGitRuns}`);
      const ms = performance.now() - started;
      await rm(dir, { recursive: true, force: true });
      return ms;
    };
    // The fleets compared: this checkout's worker and, with FLEET_BENCH_BEFORE, that commit's
    // (its src/ taken out of git into a directory of this package, so it resolves the same packages).
    const fleets: Array<{
      name: string;
      client: FleetClient;
      children: ChildProcess[];
      perRun: number[];
      failed: number;
    }> = [];
    const beforeDir = path.join(fileURLToPath(new URL(".", import.meta.url)), ".before");
    for (const variant of BEFORE === undefined ? ["this checkout"] : ["this checkout", BEFORE]) {
      let module: string | undefined;
      if (variant === BEFORE) {
        await rm(beforeDir, { recursive: true, force: true });
        execFileSync(
          "sh",
          ["-c", `mkdir -p '${beforeDir}' && git archive '${BEFORE}' src | tar -x -C '${beforeDir}'`],
          {
            cwd: fileURLToPath(new URL("..", import.meta.url)),
          },
        );
        module = path.join(beforeDir, "src", "index.ts");
      }
      const url = await cluster.createDatabase(`compare_${fleets.length}`);
      const cache = path.join(scratch, `repos-${fleets.length}`);
      // The worker first: an older one makes the schema it knows, and this checkout's client then
      // migrates it further, as an upgrade would (a worker refuses a schema newer than its own).
      const children = await startWorkers(url, 1, env, cache, module);
      fleets.push({ name: variant, client: await FleetClient.connect(url), children, perRun: [], failed: 0 });
    }
    const local: number[] = [];
    const localGit: number[] = [];
    try {
      // Warm-up: every fleet's first run makes its mirror, every Pod path is loaded once.
      for (const fleet of fleets) await batch(fleet.client, origin, 2);
      await perRun(2, () => localRun(localDir));
      // Each round's local figure is the mean of local runs just before and just after its fleet
      // batches: this machine's speed drifts (other jobs share its two cores), and a drift then
      // weighs on both sides of the round's ratio alike.
      for (let round = 0; round < COMPARISON_ROUNDS; round += 1) {
        const before = await perRun(LOCAL_RUNS_PER_ROUND, () => localRun(localDir));
        for (const fleet of fleets) {
          const { steadyMs, failed } = await batch(fleet.client, origin, FLEET_RUNS_PER_ROUND);
          fleet.perRun.push(steadyMs);
          fleet.failed += failed;
        }
        const after = await perRun(LOCAL_RUNS_PER_ROUND, () => localRun(localDir));
        local.push((before + after) / 2);
        localGit.push(await perRun(LOCAL_RUNS_PER_ROUND, localWithGit));
      }
    } finally {
      for (const fleet of fleets) {
        for (const child of fleet.children) child.kill("SIGTERM");
        await fleet.client.close();
      }
      await rm(beforeDir, { recursive: true, force: true });
    }
    lines.push(
      `interleaved, ${COMPARISON_ROUNDS} rounds (each: ${LOCAL_RUNS_PER_ROUND} local runs, ${FLEET_RUNS_PER_ROUND} runs queued at once on each fleet's one worker (per run: time between consecutive results), ${LOCAL_RUNS_PER_ROUND} local runs again, ${LOCAL_RUNS_PER_ROUND} local runs with git), median per run:`,
      `  local Pod, existing checkout, no git (${ROUNDS} rounds × ${CALLS} calls): ${median(local).toFixed(0)} ms (per round: ${local.map((ms) => ms.toFixed(0)).join(", ")})`,
      `  local Pod with a fresh clone and a pushed branch: ${median(localGit).toFixed(0)} ms (${median(localGit.map((ms, i) => ms / (local[i] as number))).toFixed(2)}× the local Pod)`,
      ...fleets.map(
        (fleet) =>
          `  fleet (${fleet.name}), 1 worker: ${median(fleet.perRun).toFixed(0)} ms per run, ${median(fleet.perRun.map((ms, i) => ms / (local[i] as number))).toFixed(2)}× the local Pod (per round: ${fleet.perRun.map((ms, i) => `${ms.toFixed(0)} ms ${(ms / (local[i] as number)).toFixed(2)}×`).join(", ")}), ${median(fleet.perRun.map((ms, i) => ms / (localGit[i] as number))).toFixed(2)}× the local Pod with git; ${fleet.failed} not finished`,
      ),
    );
    for (const workers of [1, 2, 4]) {
      const url = await cluster.createDatabase(`bench_${workers}`);
      const client = await FleetClient.connect(url);
      const children = await startWorkers(url, workers, env, path.join(scratch, `repos-w${workers}`));
      const { perRunMs, failed } = await batch(client, origin, RUNS_PER_SETTING);
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
        `${workers} worker${workers === 1 ? "" : "s"}: ${(1000 / perRunMs).toFixed(2)} runs/s (${RUNS_PER_SETTING} runs at once, ${failed} not finished); idle submit → first event p50 ${percentile(firstMs, 50).toFixed(0)} ms, p99 ${percentile(firstMs, 99).toFixed(0)} ms`,
      );
      for (const child of children) child.kill("SIGTERM");
      await client.close();
    }
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
