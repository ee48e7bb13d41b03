import { hostname } from "node:os";
import path from "node:path";
import { SessionLogError } from "@yoake/pod";
import type PgBoss from "pg-boss";
import { listenFor } from "../database/notifications.js";
import { type RetryPolicy, retryTransient } from "../database/retry.js";
import { isDatabaseUnavailable } from "../database/transient.js";
import { RUN_QUEUE, RUNS_QUEUED_CHANNEL, type RunJob, RunQueue } from "../runs/run-queue.js";
import { RunTable } from "../runs/run-record.js";
import { openFleetStores } from "../stores.js";
import { RepositoryUnreachableError } from "./git-retry.js";
import { Handover } from "./handover.js";
import { ProviderSlots } from "./provider-slots.js";
import { RepositoryCache } from "./repository-cache.js";
import { admitRun, hiddenFromRuns, podEnvironment } from "./run-confinement.js";
import { executeRun } from "./run-executor.js";
import { startRunLiveness } from "./run-liveness.js";

export interface FleetWorkerOptions {
  url: string;
  /** Runs this process executes at once (default 1). */
  concurrency?: number;
  /**
   * The worker's environment: API keys, base URLs, the session key's location. The runs' Pods get
   * it without the worker's own variables (the database's URL, `PG*`, `SSH_*`, `GIT_*`) and without
   * values that carry a password.
   */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Absolute directories whose shared paths this worker runs (`yoake submit --path`), each with
   * everything under it; default none: a run on a shared path fails, refused.
   */
  allowPaths?: readonly string[];
  /** Runs per provider across the fleet at once (default 8). */
  providerLimit?: number;
  /** Session lease (default 10 s): how soon another worker may continue a dead worker's run. */
  leaseMs?: number;
  /**
   * How long a run's worker may go unheard (it says it holds each run every quarter of this)
   * before another worker takes the run over (default 30 s), whatever the run's `timeoutSeconds`.
   */
  jobExpireMs?: number;
  /**
   * How long a statement is tried again while the database is away (restarting, stopped, out of
   * connection slots) before the run's step fails (default 120 s). A run whose worker waits longer
   * than `jobExpireMs` is taken over by another worker meanwhile; this one then drops it.
   */
  databaseRetryMs?: number;
  /**
   * How long a fetch or push is tried again while the run's repository cannot be reached (default
   * 120 s); a permanent failure (no such repository, refused credentials) fails the run at once.
   */
  gitRetryMs?: number;
  /**
   * How long a stopping worker waits for each running run's next model request to start (its log
   * then holds everything before it, and nothing is in flight) before it hands the run over
   * where it is (default 30 s).
   */
  handoverWaitMs?: number;
  /** The most connections of this process's pool (default 2 + concurrency, at most 10). */
  maxConnections?: number;
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
  /**
   * Stops taking runs, hands the runs whose Pod is going over to the queue (ended where they are,
   * their trees kept: the next worker continues them), waits for the ones delivering, disconnects.
   */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 10_000;
export const DEFAULT_JOB_EXPIRE_MS = 30_000;
export const DEFAULT_DATABASE_RETRY_MS = 120_000;
export const DEFAULT_GIT_RETRY_MS = 120_000;
/** Runs of one lane whose changes are being delivered while it runs the next. */
const MAX_DELIVERING = 4;
/**
 * How often an idle lane looks for a job without being told one was queued (pg-boss's own work
 * loop polls every 0.5 s as well): jobs that become ready later (a delayed retry) are not announced.
 */
const POLL_MS = 500;

/**
 * Takes runs from the queue and executes each in a Pod (`executeRun`), `concurrency` at a time.
 * A run paused for approval frees its worker; a run whose session another worker still holds
 * (a dead worker's lease not yet expired), or whose provider is at its fleet-wide limit, or that
 * hit a provider's rate limit, goes back to the queue with a delay instead of holding a worker.
 */
export async function startFleetWorker(options: FleetWorkerOptions): Promise<FleetWorker> {
  const allowPaths = options.allowPaths ?? [];
  for (const dir of allowPaths)
    if (!path.isAbsolute(dir)) throw new Error(`allowPaths: ${JSON.stringify(dir)} is not an absolute path`);
  const id = `${hostname()}:${process.pid}`;
  const log = options.log ?? (() => undefined);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = options.concurrency ?? 1;
  const jobExpireMs = options.jobExpireMs ?? DEFAULT_JOB_EXPIRE_MS;
  // Told once per outage, not at every retry.
  let waitingSince: number | undefined;
  let gitWaitingSince: number | undefined;
  const retry: RetryPolicy = {
    retryMs: options.databaseRetryMs ?? DEFAULT_DATABASE_RETRY_MS,
    onRetry: (error) => {
      if (waitingSince !== undefined && Date.now() - waitingSince < 10_000) return;
      waitingSince = Date.now();
      log(`the database is unavailable (${error.message}): retrying`);
    },
  };
  const stores = await openFleetStores(options.url, {
    env: options.env,
    leaseMs,
    retry,
    maxConnections: options.maxConnections ?? Math.min(10, 2 + concurrency),
  });
  const queue = await RunQueue.open(options.url, { supervise: true, retry });
  const queries = stores.database.queries;
  const runs = new RunTable(queries);
  const slots = new ProviderSlots(options.url, retry);
  const repositories = await RepositoryCache.open(
    options.repositoryCache ?? RepositoryCache.defaultRoot(options.env),
    { clock: () => stores.database.now() },
  );
  const context = {
    worker: id,
    gitRetry: {
      retryMs: options.gitRetryMs ?? DEFAULT_GIT_RETRY_MS,
      onRetry: (error: Error) => {
        if (gitWaitingSince !== undefined && Date.now() - gitWaitingSince < 10_000) return;
        gitWaitingSince = Date.now();
        log(`a repository cannot be reached (${error.message.split("\n")[0]}): retrying`);
      },
    },
    repositories,
    queries,
    runs,
    sessions: stores.sessionStore,
    blobs: stores.blobStore,
    env: podEnvironment(options.env),
    shellHide: hiddenFromRuns({
      env: options.env,
      cacheRoot: repositories.root,
      databaseUrl: options.url,
      allowPaths,
    }),
  };

  // The job first, then the state: a run that reads `queued` has its job in the queue.
  const requeue = async (runId: string, timeoutSeconds: number | undefined, delaySeconds: number) => {
    await queue.send(runId, timeoutSeconds, delaySeconds);
    await runs.requeue(runId, id);
  };

  const handle = async (
    runId: string,
    podClosed: () => void,
    handover: Handover,
    held: () => void,
  ): Promise<void> => {
    const claimed = await runs.claim(runId, id, jobExpireMs);
    // Ended, paused, or held by a worker that is alive (a second job of one run): not run twice.
    if (claimed === undefined) return;
    held();
    // The database may hold a spec no `submit` checked: one this worker does not run ends here.
    const spec = await admitRun(claimed.spec, allowPaths).catch(async (error: Error) => {
      await runs.finish(runId, id, { status: "failed", error: error.message });
      log(`run ${runId}: ${error.message}`);
      return undefined;
    });
    if (spec === undefined) return;
    const run = { ...claimed, spec };
    const provider = run.spec.model?.split("/")[0] ?? "default";
    const slot = await slots.acquire(provider, options.providerLimit ?? 8);
    if (slot === undefined) {
      await requeue(runId, run.spec.timeoutSeconds, 2);
      return;
    }
    // The provider is done with the run when its Pod is: its slot is free while the changes are pushed.
    let released: Promise<void> | undefined;
    const releaseSlot = () => {
      released ??= slot.release();
      return released;
    };
    try {
      log(`run ${runId}: started (attempt ${run.attempts})`);
      const execution = await executeRun(
        run,
        context,
        () => {
          void releaseSlot();
          podClosed();
        },
        handover,
      );
      if (execution.kind === "paused") log(`run ${runId}: paused for approval`);
      else if (execution.kind === "lost")
        log(`run ${runId}: taken over by another worker while this one was not heard from; dropped`);
      else if (execution.kind === "stopped") {
        await requeue(runId, run.spec.timeoutSeconds, 0);
        log(`run ${runId}: handed over (this worker stops)`);
      } else if (execution.kind === "undelivered") {
        await requeue(runId, run.spec.timeoutSeconds, execution.retryAfterSeconds);
        log(
          `run ${runId}: its branch could not be pushed (${execution.reason}): changes kept, again in ${execution.retryAfterSeconds} s`,
        );
      } else if (execution.kind === "rate_limited") {
        await requeue(runId, run.spec.timeoutSeconds, execution.retryAfterSeconds);
        log(`run ${runId}: rate limited, again in ${execution.retryAfterSeconds} s`);
      } else if (!(await runs.finish(runId, id, execution.outcome))) {
        log(`run ${runId}: taken over by another worker while this one was not heard from; not stored`);
      } else {
        // A failed run says why (a provider's errors after the client's retries, ...).
        const { status, branch, error } = execution.outcome;
        log(`run ${runId}: ${status}${branch ? ` on ${branch}` : ""}${error ? `: ${error}` : ""}`);
      }
    } catch (error) {
      if (error instanceof SessionLogError && error.kind === "locked") {
        // Another worker's lease: it is running this session, or it died and the lease will expire.
        await requeue(runId, run.spec.timeoutSeconds, Math.ceil(leaseMs / 1000));
        log(`run ${runId}: its session is held by another worker, again later`);
        return;
      }
      if (handover.lost) {
        log(`run ${runId}: taken over by another worker while this one was not heard from; dropped`);
        return;
      }
      // Only a permanent failure fails a run. Its repository unreachable for longer than
      // --git-retry: queued again for later; the database away for longer than --db-retry: the
      // run is left to the sweep (no one hears from it now).
      if (error instanceof RepositoryUnreachableError) {
        const later = Math.min(30, Math.max(1, Math.ceil(context.gitRetry.retryMs / 4000)));
        await requeue(runId, run.spec.timeoutSeconds, later);
        log(
          `run ${runId}: its repository cannot be reached (${(error as Error).message.split("\n")[0]}): again in ${later} s`,
        );
        return;
      }
      if (isDatabaseUnavailable(error)) {
        log(
          `run ${runId}: the database was away too long (${(error as Error).message}): it goes back to the queue`,
        );
        return;
      }
      const stored = await runs.finish(runId, id, { status: "failed", error: (error as Error).message });
      log(
        `run ${runId}: failed: ${(error as Error).message}${stored ? "" : " (taken over meanwhile: not stored)"}`,
      );
    } finally {
      await releaseSlot();
    }
  };

  // Each lane runs one Pod at a time. Once a run's Pod is closed the lane takes its next job
  // while that run's changes are committed and pushed (its branch waits to go in one push with
  // others'); its job is completed only after its result is stored, so a worker that dies while
  // delivering leaves the job to expire and be retried as before. A lane has at most
  // MAX_DELIVERING runs delivering while it runs the next.
  let stopping = false;
  const queued = await listenFor(options.url, RUNS_QUEUED_CHANNEL);
  const fetches = new Set<Promise<unknown>>();
  /**
   * Jobs taken and not yet completed: whether the run's Pod is still going, how to hand it over
   * when the worker stops, and the whole job.
   */
  const active = new Map<
    string,
    { job: PgBoss.Job<RunJob>; podOpen: boolean; held: boolean; handover: Handover; done: Promise<void> }
  >();
  const runJob = (job: PgBoss.Job<RunJob>, podClosed: () => void): Promise<void> => {
    const closePod = () => {
      const entry = active.get(job.id);
      if (entry !== undefined) entry.podOpen = false;
      podClosed();
    };
    const handover = new Handover(stores.sessionStore, options.handoverWaitMs);
    const held = () => {
      const entry = active.get(job.id);
      if (entry !== undefined) entry.held = true;
    };
    // The job's end is retried like any statement: a job left active would only expire later.
    const done = handle(job.data.runId, closePod, handover, held)
      .then(
        () => retryTransient(() => queue.boss.complete(RUN_QUEUE, job.id), retry),
        (error: Error) =>
          retryTransient(() => queue.boss.fail(RUN_QUEUE, job.id, { message: error.message }), retry),
      )
      .then(
        () => undefined,
        (error: Error) => log(`run ${job.data.runId}: its job was not completed: ${error.message}`),
      )
      .finally(() => {
        closePod();
        active.delete(job.id);
      });
    active.set(job.id, { job, podOpen: true, held: false, handover, done });
    return done;
  };

  const liveness = startRunLiveness({
    worker: id,
    jobExpireMs,
    runs,
    pool: stores.database.pool,
    queue,
    log,
    held: () =>
      [...active.values()]
        .filter((entry) => entry.held)
        .map((entry) => ({ runId: entry.job.data.runId, podOpen: entry.podOpen, handover: entry.handover })),
  });
  const lane = async (): Promise<void> => {
    const delivering = new Set<Promise<void>>();
    while (!stopping) {
      const fetching = queue.boss.fetch<RunJob>(RUN_QUEUE, { batchSize: 1 }).then(
        async ([job]) => {
          // Taken while the worker was stopping: given back at once for another worker.
          if (job !== undefined && stopping)
            await queue.boss
              .fail(RUN_QUEUE, job.id, { message: "its worker stopped" })
              .catch(() => undefined);
          return stopping ? undefined : job;
        },
        () => undefined,
      );
      fetches.add(fetching);
      const job = await fetching.finally(() => fetches.delete(fetching));
      if (stopping) break;
      if (job === undefined) {
        // Until a run is queued (or the poll's time, as pg-boss's own work loop polls); stop()
        // wakes an idle lane too.
        await queued.wait(POLL_MS);
        continue;
      }
      await new Promise<void>((podClosed) => {
        const current: Promise<void> = runJob(job, () => podClosed()).finally(() =>
          delivering.delete(current),
        );
        delivering.add(current);
      });
      while (delivering.size > MAX_DELIVERING) await Promise.race(delivering);
    }
  };
  for (let i = 0; i < concurrency; i += 1) void lane();
  return {
    id,
    async stop() {
      stopping = true;
      liveness.stopSweeping();
      await queued.close();
      await Promise.all([...fetches]);
      // A run whose changes are being pushed ends first. A run whose Pod is still going is ended
      // where it is and queued again at once, its tree kept: the next worker continues it.
      for (const entry of active.values()) if (entry.podOpen) entry.handover.stop();
      await Promise.all([...active.values()].map((entry) => entry.done));
      liveness.stop();
      await queue.close();
      await slots.close();
      await repositories.close();
      await stores.close();
    },
  };
}
