import type pg from "pg";
import { isTransient } from "./transient.js";

/**
 * How long a statement that failed for a passing reason (the server restarting or stopped, a
 * broken connection, the server out of connection slots) is tried again before its failure counts.
 */
export interface RetryPolicy {
  /** The time budget of one statement's retries, from its first failure (0: no retry). */
  retryMs: number;
  /** Told each retry (the worker's log says why a run waits). */
  onRetry?: (error: Error, waitMs: number) => void;
}

/** The first wait between tries, doubled after each up to `MAX_WAIT_MS`, with jitter. */
const FIRST_WAIT_MS = 100;
const MAX_WAIT_MS = 2_000;

/**
 * Runs `attempt` and, while it fails with an error `transient` says may pass, runs it again with
 * a growing wait (100 ms doubling to 2 s, jittered so a fleet does not come back in step) until
 * `policy.retryMs` has passed since the first failure; then rethrows the last error. A permanent
 * error is rethrown at once. `attempt` must be safe to run again: an idempotent statement, or one
 * that recognises its own earlier success.
 */
export async function retryTransient<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  transient: (error: unknown) => boolean = isTransient,
): Promise<T> {
  let deadline: number | undefined;
  let wait = FIRST_WAIT_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      deadline ??= Date.now() + policy.retryMs;
      const left = deadline - Date.now();
      if (!transient(error) || left <= 0) throw error;
      const waitMs = Math.min(left, wait * (0.75 + Math.random() / 2));
      policy.onRetry?.(error as Error, waitMs);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      wait = Math.min(MAX_WAIT_MS, wait * 2);
    }
  }
}

/** What the fleet's tables are queried through: a pool, or one that retries (`retryingQueries`). */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string | pg.QueryConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

/**
 * `pool`'s queries, each retried under `policy` (see `retryTransient`). Only for statements that
 * may run twice: reads, and updates whose second run changes nothing or what the first did.
 */
export function retryingQueries(pool: pg.Pool, policy: RetryPolicy): Queryable {
  return {
    query: <R extends pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]) =>
      retryTransient(
        () =>
          typeof text === "string"
            ? pool.query<R>(text, values)
            : pool.query<R>(values === undefined ? text : { ...text, values }),
        policy,
      ),
  };
}
