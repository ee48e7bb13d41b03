import PgBoss from "pg-boss";
import { type RetryPolicy, retryTransient } from "../database/retry.js";

/** The pg-boss queue that carries run ids to workers. */
export const RUN_QUEUE = "yoake-runs";

/** One job: a run to start or to continue (after an approval, a crash, a provider's limit). */
export interface RunJob {
  runId: string;
}

/** The channel a job ready to run is announced on, so idle workers take it at once. */
export const RUNS_QUEUED_CHANNEL = "yoake_runs_queued";

/** The connections of pg-boss's own pool in each process. */
export const QUEUE_CONNECTIONS = 2;

/** How long a run may hold a worker by default (`RunSpec.timeoutSeconds`). */
export const DEFAULT_RUN_TIMEOUT_SECONDS = 15 * 60;

/**
 * The queue on the fleet's database (pg-boss keeps its own tables in the `pgboss` schema). A job
 * that fails or expires is retried, so a run whose worker died is taken up by another.
 */
export class RunQueue {
  readonly boss: PgBoss;
  readonly #retry: RetryPolicy;

  private constructor(boss: PgBoss, retry: RetryPolicy) {
    this.boss = boss;
    this.#retry = retry;
  }

  /**
   * `retry`: how long `send` is tried again while the database is away (default not at all). A
   * job sent twice (its first answer lost) is harmless: a run is claimed by one worker at a time
   * and a job for a run that is held or ended is dropped.
   */
  static async open(
    url: string,
    options: { supervise?: boolean; retry?: RetryPolicy } = {},
  ): Promise<RunQueue> {
    const boss = new PgBoss({
      connectionString: url,
      max: QUEUE_CONNECTIONS,
      // Only workers supervise (expire lost jobs); a submitting command need not.
      supervise: options.supervise ?? false,
      schedule: false,
      maintenanceIntervalSeconds: 2,
      monitorStateIntervalSeconds: 60,
    });
    boss.on("error", () => undefined);
    await boss.start();
    await boss.createQueue(RUN_QUEUE).catch((error: unknown) => {
      // Two processes creating it at once: the second finds it there.
      if (!/already exists|duplicate key/i.test((error as Error).message)) throw error;
    });
    return new RunQueue(boss, options.retry ?? { retryMs: 0 });
  }

  /**
   * Queues `runId`, at once or after `delaySeconds`. A worker holding it longer than
   * `timeoutSeconds` counts as lost (a killed worker never completes its job): pg-boss then hands
   * the run to another worker. A job ready at once is announced (`RUNS_QUEUED_CHANNEL`): idle
   * workers poll only every half second.
   */
  async send(runId: string, timeoutSeconds = DEFAULT_RUN_TIMEOUT_SECONDS, delaySeconds = 0): Promise<void> {
    await retryTransient(
      () =>
        this.boss.send(RUN_QUEUE, { runId } satisfies RunJob, {
          retryLimit: 5,
          retryDelay: 1,
          expireInSeconds: timeoutSeconds,
          ...(delaySeconds > 0 && { startAfter: delaySeconds }),
        }),
      this.#retry,
    );
    if (delaySeconds === 0)
      await this.boss
        .getDb()
        .executeSql(`NOTIFY ${RUNS_QUEUED_CHANNEL}`, [])
        // Only a wake-up: idle workers poll anyway.
        .catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
