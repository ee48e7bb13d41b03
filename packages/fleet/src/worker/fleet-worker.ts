import { hostname } from "node:os";
import { SessionLogError } from "@yoake/pod";
import type PgBoss from "pg-boss";
import { RUN_QUEUE, type RunJob, RunQueue } from "../runs/run-queue.js";
import { RunTable } from "../runs/run-record.js";
import { openFleetStores } from "../stores.js";
import { ProviderSlots } from "./provider-slots.js";
import { RepositoryCache } from "./repository-cache.js";
import { executeRun } from "./run-executor.js";

export interface FleetWorkerOptions {
  url: string;
  /** Runs this process executes at once (default 1). */
  concurrency?: number;
  /** The Pods' environment: API keys, base URLs, the session key's location. */
  env: Readonly<Record<string, string | undefined>>;
  /** Runs per provider across the fleet at once (default 8). */
  providerLimit?: number;
  /** Session lease (default 10 s): how soon another worker may continue a dead worker's run. */
  leaseMs?: number;
  /** Told what the worker does, one line each (`yoake worker` prints them on stderr). */
  log?: (line: string) => void;
  /**
   * The directory of this machine's repository mirrors and run trees (default
   * `$XDG_CACHE_HOME/yoake/repos`); worker processes on one machine may share it.
   */
  repositoryCache?: string;
}

export interface FleetWorker {
  readonly id: string;
  /** Stops taking runs, waits for the ones going on, and disconnects. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 10_000;

/**
 * Takes runs from the queue and executes each in a Pod (`executeRun`), `concurrency` at a time.
 * A run paused for approval frees its worker; a run whose session another worker still holds
 * (a dead worker's lease not yet expired), or whose provider is at its fleet-wide limit, or that
 * hit a provider's rate limit, goes back to the queue with a delay instead of holding a worker.
 */
export async function startFleetWorker(options: FleetWorkerOptions): Promise<FleetWorker> {
  const id = `${hostname()}:${process.pid}`;
  const log = options.log ?? (() => undefined);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const stores = await openFleetStores(options.url, { env: options.env, leaseMs });
  const queue = await RunQueue.open(options.url, { supervise: true });
  const runs = new RunTable(stores.database.pool);
  const slots = new ProviderSlots(options.url);
  const repositories = await RepositoryCache.open(
    options.repositoryCache ?? RepositoryCache.defaultRoot(options.env),
  );
  const context = {
    repositories,
    pool: stores.database.pool,
    runs,
    sessions: stores.sessionStore,
    blobs: stores.blobStore,
    env: options.env,
  };

  // The job first, then the state: a run that reads `queued` has its job in the queue.
  const requeue = async (runId: string, timeoutSeconds: number | undefined, delaySeconds: number) => {
    await queue.send(runId, timeoutSeconds, delaySeconds);
    await runs.requeue(runId, id);
  };

  const handle = async (runId: string): Promise<void> => {
    const run = await runs.claim(runId, id);
    if (run === undefined) return; // finished, paused or cancelled meanwhile
    const provider = run.spec.model?.split("/")[0] ?? "default";
    const slot = await slots.acquire(provider, options.providerLimit ?? 8);
    if (slot === undefined) {
      await requeue(runId, run.spec.timeoutSeconds, 2);
      return;
    }
    try {
      log(`run ${runId}: started (attempt ${run.attempts})`);
      const execution = await executeRun(run, context);
      if (execution.kind === "paused") log(`run ${runId}: paused for approval`);
      else if (execution.kind === "rate_limited") {
        await requeue(runId, run.spec.timeoutSeconds, execution.retryAfterSeconds);
        log(`run ${runId}: rate limited, again in ${execution.retryAfterSeconds} s`);
      } else {
        await runs.finish(runId, execution.outcome);
        log(
          `run ${runId}: ${execution.outcome.status}${execution.outcome.branch ? ` on ${execution.outcome.branch}` : ""}`,
        );
      }
    } catch (error) {
      if (error instanceof SessionLogError && error.kind === "locked") {
        // Another worker's lease: it is running this session, or it died and the lease will expire.
        await requeue(runId, run.spec.timeoutSeconds, Math.ceil(leaseMs / 1000));
        log(`run ${runId}: its session is held by another worker, again later`);
        return;
      }
      await runs.finish(runId, { status: "failed", error: (error as Error).message });
      log(`run ${runId}: failed: ${(error as Error).message}`);
    } finally {
      await slot.release();
    }
  };

  const workers: string[] = [];
  for (let i = 0; i < (options.concurrency ?? 1); i += 1) {
    let lane = "";
    lane = await queue.boss.work<RunJob>(
      RUN_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      async (jobs: PgBoss.Job<RunJob>[]) => {
        for (const job of jobs) await handle(job.data.runId);
        // pg-boss waits out the rest of its polling interval after a short job; a worker that
        // just finished one looks for the next at once.
        queue.boss.notifyWorker(lane);
      },
    );
    workers.push(lane);
  }
  return {
    id,
    async stop() {
      for (const worker of workers) await queue.boss.offWork({ id: worker }).catch(() => undefined);
      await queue.close();
      await slots.close();
      await repositories.close();
      await stores.close();
    },
  };
}
