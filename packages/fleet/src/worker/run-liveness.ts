import type pg from "pg";
import { RUN_QUEUE, type RunQueue } from "../runs/run-queue.js";
import { RunTable } from "../runs/run-record.js";
import type { Handover } from "./handover.js";

/** A run this worker holds, as its liveness sees it. */
export interface HeldRun {
  runId: string;
  /** Whether its Pod is still going (a run taken over is stopped only then). */
  podOpen: boolean;
  handover: Handover;
}

export interface RunLivenessOptions {
  /** This worker (`host:pid`). */
  worker: string;
  /** How long a run's worker may go unheard before another worker takes the run over. */
  jobExpireMs: number;
  /** The runs table, its statements retried while the database is away. */
  runs: RunTable;
  /** The pool itself: the sweep's statements are not retried (a sweep that met an outage starts over). */
  pool: pg.Pool;
  queue: RunQueue;
  log: (line: string) => void;
  /** The runs this worker holds now. */
  held: () => HeldRun[];
}

/**
 * How a worker keeps its runs and takes over others': every quarter of `jobExpireMs` it says which
 * runs it holds (`RunTable.heartbeat`), and ends where it is a run it finds taken over (it was not
 * heard from: it lost the database); every half of it, it queues again the runs nobody has heard
 * from for `jobExpireMs` and the queued runs whose job was lost (`RunTable.silent`), the job first,
 * then the state. Only a worker that has itself reached the database for a whole `jobExpireMs`
 * sweeps: when the database comes back after an outage every holder gets that long to say it is
 * still there, so the runs of a fleet that lost the database together are finished by their own
 * workers.
 */
export function startRunLiveness(options: RunLivenessOptions): { stopSweeping(): void; stop(): void } {
  const { worker, jobExpireMs, runs, queue, log } = options;
  let beating = false;
  const heartbeat = setInterval(
    async () => {
      if (beating) return;
      beating = true;
      try {
        const held = options.held();
        const lost = new Set(
          await runs.heartbeat(
            held.map((run) => run.runId),
            worker,
          ),
        );
        for (const run of held) if (lost.has(run.runId) && run.podOpen) run.handover.stop(true);
      } catch {
        // The database is away: said again at the next beat, or the run is taken over meanwhile.
      } finally {
        beating = false;
      }
    },
    Math.max(100, jobExpireMs / 4),
  );
  let sweeping = false;
  let stopped = false;
  const sweepRuns = new RunTable(options.pool);
  let reachableSince: number | undefined;
  const sweep = setInterval(
    async () => {
      if (sweeping || stopped) return;
      sweeping = true;
      try {
        await options.pool.query("SELECT 1");
        reachableSince ??= Date.now();
        if (Date.now() - reachableSince < jobExpireMs) return;
        const silent = await sweepRuns.silent(jobExpireMs, RUN_QUEUE);
        for (const run of silent) {
          await queue.send(run.id, run.timeoutSeconds, 0);
          log(`run ${run.id}: not heard from for ${Math.round(jobExpireMs / 1000)} s: queued again`);
        }
        // A run some worker claimed meanwhile (woken by the job) stays with it.
        await sweepRuns.release(
          silent.map((run) => run.id),
          jobExpireMs,
        );
      } catch {
        // The database is away: the next sweep looks again, a whole expiry after it is back.
        reachableSince = undefined;
      } finally {
        sweeping = false;
      }
    },
    Math.max(500, jobExpireMs / 2) * (0.75 + Math.random() / 2),
  );
  return {
    stopSweeping() {
      stopped = true;
      clearInterval(sweep);
    },
    stop() {
      stopped = true;
      clearInterval(sweep);
      clearInterval(heartbeat);
    },
  };
}
