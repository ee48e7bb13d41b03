import { randomUUID } from "node:crypto";
import type { WireEvent } from "@yoake/pod/protocol";
import type pg from "pg";
import type { Queryable } from "../database/retry.js";

/** The channel a stored batch of run events is announced on; the payload is the run id. */
export const RUN_EVENTS_CHANNEL = "yoake_run_events";

/**
 * How long an event may wait for others to share its insert: at most one statement per this many
 * milliseconds per run, so a turn's burst of deltas costs one round trip, and a follower sees each
 * event this much later at most.
 */
const BATCH_MS = 20;

/**
 * Stores a batch: its numbers are taken from the run's counter (`events_next`), whose row lock
 * orders concurrent inserts, so two workers writing one run's events (one taking over from another
 * that lost the database and came back) never collide on `(run, seq)`. The counter remembers the
 * last batch's id: a batch sent again after its answer was lost finds itself counted and inserts
 * nothing. One NOTIFY announces the batch in the same statement.
 */
const INSERT_BATCH = `
WITH counter AS (
  UPDATE yoake_runs SET events_next = events_next + cardinality($3::json[]), events_batch = $2
   WHERE id = $1 AND events_batch IS DISTINCT FROM $2
  RETURNING events_next - cardinality($3::json[]) AS first),
stored AS (
  INSERT INTO yoake_run_events (run, seq, event)
  SELECT $1, counter.first + ordinality - 1, event
    FROM counter, unnest($3::json[]) WITH ORDINALITY AS batch (event, ordinality)
  RETURNING 1)
SELECT pg_notify('${RUN_EVENTS_CHANNEL}', $1::text) FROM (SELECT count(*) FROM stored) stored`;

/**
 * The events of one run as the worker executing it records them (the Pod's events in their wire
 * form, the shapes `yoake -p --output-format stream-json` prints), numbered from 1 across every
 * worker that takes the run. Events are written in batches: the first event of a batch waits
 * `BATCH_MS` for those that follow it (and a batch waits for the one in flight), then all go in
 * one insert (`INSERT_BATCH`), retried while the database is away as `queries` retries.
 */
export class RunEventWriter {
  readonly #queries: Queryable;
  readonly #runId: string;
  /** This writer's batches are `<writer>:<n>`. */
  readonly #writer = randomUUID();
  #batches = 0;
  #pending: WireEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #failure: unknown;

  constructor(queries: Queryable, runId: string) {
    this.#queries = queries;
    this.#runId = runId;
  }

  /** Queues an event; it is stored with the next batch. */
  add(event: WireEvent): void {
    if (this.#failure !== undefined) return;
    this.#pending.push(event);
    this.#timer ??= setTimeout(() => this.#write(), BATCH_MS);
  }

  /**
   * Stores every event added so far, at once; rejects with the first failure (a follower would
   * otherwise see a gap; the run itself goes on, its session log is the record).
   */
  async flush(): Promise<void> {
    while (this.#pending.length > 0 || this.#writing !== undefined) {
      if (this.#failure !== undefined) break;
      await (this.#writing ?? this.#write());
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Writes the pending events as one batch, after the batch in flight. */
  #write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing !== undefined) return this.#writing.then(() => this.#write());
    if (this.#pending.length === 0 || this.#failure !== undefined) return Promise.resolve();
    const batch = this.#pending;
    this.#pending = [];
    this.#batches += 1;
    this.#writing = this.#queries
      .query({
        name: "yoake_run_events_insert",
        text: INSERT_BATCH,
        values: [
          this.#runId,
          `${this.#writer}:${this.#batches}`,
          batch.map((event) => JSON.stringify(event)),
        ],
      })
      .then(
        () => undefined,
        (error: unknown) => {
          this.#failure = error;
          this.#pending = [];
        },
      )
      .finally(() => {
        this.#writing = undefined;
      });
    return this.#writing;
  }
}

/** The run's stored events from `fromSeq` on, in order. */
export async function readRunEvents(
  pool: pg.Pool,
  runId: string,
  fromSeq: number,
): Promise<Array<{ seq: number; event: WireEvent }>> {
  const { rows } = await pool.query<{ seq: number; event: WireEvent }>(
    "SELECT seq, event FROM yoake_run_events WHERE run = $1 AND seq >= $2 ORDER BY seq",
    [runId, fromSeq],
  );
  return rows;
}
