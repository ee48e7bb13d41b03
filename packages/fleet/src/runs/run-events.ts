import type { WireEvent } from "@yoake/pod/protocol";
import type pg from "pg";

/** The channel a stored batch of run events is announced on; the payload is the run id. */
export const RUN_EVENTS_CHANNEL = "yoake_run_events";

/**
 * How long an event may wait for others to share its insert: at most one statement per this many
 * milliseconds per run, so a turn's burst of deltas costs one round trip, and a follower sees each
 * event this much later at most.
 */
const BATCH_MS = 20;

/**
 * The events of one run as the worker executing it records them (the Pod's events in their wire
 * form, the shapes `yoake -p --output-format stream-json` prints), numbered from 1 across every
 * worker that takes the run. Events are written in batches: the first event of a batch waits
 * `BATCH_MS` for those that follow it (and a batch waits for the one in flight), then all go in
 * one insert, announced with one NOTIFY in the same statement.
 */
export class RunEventWriter {
  readonly #pool: pg.Pool;
  readonly #runId: string;
  #next: number;
  #pending: WireEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #failure: unknown;

  private constructor(pool: pg.Pool, runId: string, next: number) {
    this.#pool = pool;
    this.#runId = runId;
    this.#next = next;
  }

  /**
   * A writer continuing the run's events after those already stored (by an earlier worker);
   * `fresh` when the run never had a session (so no events): nothing to look up.
   */
  static async open(pool: pg.Pool, runId: string, fresh = false): Promise<RunEventWriter> {
    if (fresh) return new RunEventWriter(pool, runId, 1);
    const { rows } = await pool.query<{ last: number | null }>(
      "SELECT max(seq) AS last FROM yoake_run_events WHERE run = $1",
      [runId],
    );
    return new RunEventWriter(pool, runId, (rows[0]?.last ?? 0) + 1);
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
    const first = this.#next;
    this.#next += batch.length;
    this.#writing = this.#pool
      .query({
        name: "yoake_run_events_insert",
        text: `WITH stored AS (
           INSERT INTO yoake_run_events (run, seq, event)
           SELECT $1, $2 + ordinality - 1, event FROM unnest($3::json[]) WITH ORDINALITY AS batch (event, ordinality)
           RETURNING 1)
         SELECT pg_notify('${RUN_EVENTS_CHANNEL}', $1::text) FROM (SELECT count(*) FROM stored) stored`,
        values: [this.#runId, first, batch.map((event) => JSON.stringify(event))],
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
