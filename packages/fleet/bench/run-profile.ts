import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Pod } from "@yoake/pod";
import { toWireEvent } from "@yoake/pod/protocol";
import { openFleetStores } from "../src/index.js";
import { RunEventWriter } from "../src/runs/run-events.js";
import { RunTable } from "../src/runs/run-record.js";
import { ProviderSlots } from "../src/worker/provider-slots.js";
import { RepositoryCache } from "../src/worker/repository-cache.js";
import { prepareWorkspace } from "../src/worker/workspace.js";
import { startBenchBed } from "./bench-model.js";

const SAMPLES = Number(process.env.PROFILE_RUNS ?? 9);

/**
 * CPU time of this process's child processes, from /proc: the finished ones waited for, and the
 * running Node ones with what they waited for (the git command relay and its git processes).
 */
function childrenCpuMs(): number {
  const ticks = (pid: number | string, first: number, count: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return fields.slice(first, first + count).reduce((sum, field) => sum + Number(field), 0);
  };
  let total = ticks("self", 13, 2);
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.includes("(node) ") && Number(stat.split(") ")[1]?.split(" ")[1]) === process.pid)
        total += ticks(pid, 11, 4);
    } catch {
      // gone meanwhile
    }
  }
  return (total * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const bed = await startBenchBed();
  const { cluster, scratch, origin, env, git } = bed;
  const url = await cluster.createDatabase("profile");
  const stores = await openFleetStores(url, { env });
  const runs = new RunTable(stores.database.pool);
  const slots = new ProviderSlots(url);
  const repositories = await RepositoryCache.open(path.join(scratch, "repos"));
  const times: Record<string, number[]> = {};
  /** CPU of this process (every thread) and of the git processes it waited for, per part. */
  const cpu: Record<string, number> = {};
  const time = async <T>(part: string, body: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const before = process.cpuUsage();
    const childrenBefore = childrenCpuMs();
    try {
      return await body();
    } finally {
      times[part] = [...(times[part] ?? []), performance.now() - started];
      const used = process.cpuUsage(before);
      cpu[part] = (cpu[part] ?? 0) + (used.user + used.system) / 1000 + childrenCpuMs() - childrenBefore;
    }
  };
  const overrides = { tools: { approve: [] } };
  // Statements sent by the stores (each one a round trip and, autocommitted, one transaction).
  let statements = 0;
  const query = stores.database.pool.query.bind(stores.database.pool);
  stores.database.pool.query = ((...args: Parameters<typeof query>) => {
    statements += 1;
    return query(...args);
  }) as typeof query;
  const statementsPerRun: { run?: number[] } = {};
  try {
    const localDir = path.join(scratch, "local");
    git(scratch, "clone", "--quiet", `file://${origin}`, localDir);
    for (let i = 0; i < SAMPLES; i += 1) {
      // Without the files the run writes, as a fleet run's fresh tree (see fleet-bench.ts).
      await rm(path.join(localDir, "out"), { recursive: true, force: true });
      await time("local Pod: create + run + close (files)", async () => {
        const pod = await Pod.create({ cwd: localDir, env, overrides });
        await pod.run("write the files");
        await pod.close();
      });
      // The previous way, for comparison: a clone per run (deleted at once).
      await time("for comparison: git clone --no-tags (the previous way to get a tree)", async () => {
        const dir = path.join(scratch, `clone-${i}`);
        git(scratch, "clone", "--quiet", "--no-tags", `file://${origin}`, dir);
        await rm(dir, { recursive: true, force: true });
      });
      await time("fleet run: all parts", async () => {
        const id = crypto.randomUUID();
        await runs.insert(id, { repo: `file://${origin}`, prompt: "write the files", overrides });
        const run = await time("  claim the run", () => runs.claim(id, "profile", 30_000));
        const slot = await time("  provider slot (advisory lock)", () => slots.acquire("anthropic", 8));
        // Runs submitted one at a time, each after the previous ended: every run fetches.
        const workspace = await time("  working tree (fetch into the mirror, checkout)", () =>
          prepareWorkspace(
            { repo: `file://${origin}`, prompt: "write the files" },
            repositories,
            run?.createdAt,
          ),
        );
        const pod = await time("  Pod.create (PostgreSQL stores)", () =>
          Pod.create({
            cwd: workspace.dir,
            env,
            overrides,
            sessionStore: stores.sessionStore,
            blobStore: stores.blobStore,
          }),
        );
        const events = new RunEventWriter(stores.database.pool, id);
        const stop = pod.listen((event) => {
          const wire = toWireEvent(event, () => pod.history);
          if (wire !== undefined) events.add(wire);
        });
        await runs.setSession(id, "profile", pod.sessionId);
        const before = statements;
        await time("  pod.run (appends to PostgreSQL)", () => pod.run("write the files"));
        await events.flush();
        statementsPerRun.run = [...(statementsPerRun.run ?? []), statements - before];
        stop();
        await time("  flush run events", () => events.flush());
        await time("  pod.close", () => pod.close());
        const delivered = await time("  commit + push (waits 200 ms for other branches)", () =>
          workspace.deliver(id),
        );
        await time("  store the result", () =>
          runs.finish(id, "profile", { status: "finished", ...delivered }),
        );
        await workspace.dispose();
        await slot?.release();
      });
    }
    console.log("    wall      CPU  (medians of wall time; CPU: mean, this process and its children)");
    for (const [part, values] of Object.entries(times))
      console.log(
        `${median(values).toFixed(1).padStart(8)} ${((cpu[part] ?? 0) / SAMPLES).toFixed(1).padStart(8)} ms  ${part}`,
      );
    const { rows } = await stores.database.pool.query<{ entries: string; events: string }>(
      `SELECT (SELECT count(*) FROM yoake_session_entries) AS entries, (SELECT count(*) FROM yoake_run_events) AS events`,
    );
    console.log(
      `per run: ${Number(rows[0]?.entries) / SAMPLES} session entries and ${Number(rows[0]?.events) / SAMPLES} events in ${median(statementsPerRun.run ?? [])} statements`,
    );
  } finally {
    await slots.close();
    await repositories.close();
    await stores.close();
    await bed.close();
  }
}

await main();
