import type { LogEntry } from "@yoake/pod/session-log";
import pg from "pg";
import { v7 as newRunId } from "uuid";
import { FleetDatabase } from "../database/fleet-database.js";
import type { PostgresSessionStore } from "../sessions/postgres-session-store.js";
import { RunQueue } from "./run-queue.js";
import { type RunRecord, type RunSpec, RunTable } from "./run-record.js";

const TERMINAL = new Set(["finished", "failed", "cancelled"]);

/**
 * What a submitter, a follower or an approver does with the fleet (the library behind
 * `yoake submit`, `yoake runs` and `yoake approve`).
 */
export class FleetClient {
  readonly runs: RunTable;

  private constructor(
    readonly database: FleetDatabase,
    readonly queue: RunQueue,
  ) {
    this.runs = new RunTable(database.pool);
  }

  static async connect(url: string): Promise<FleetClient> {
    const database = new FleetDatabase(url);
    try {
      await database.ready();
      return new FleetClient(database, await RunQueue.open(url));
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  /** Stores the run and queues it; returns its id. */
  async submit(spec: RunSpec): Promise<string> {
    if ((spec.repo === undefined) === (spec.path === undefined))
      throw new Error("a run needs a repository (--repo) or a shared path (--path), not both");
    const id = newRunId();
    await this.runs.insert(id, spec);
    await this.queue.send(id, spec.timeoutSeconds);
    return id;
  }

  /** The run with this id or id prefix; throws when none or several match. */
  async run(idOrPrefix: string): Promise<RunRecord> {
    const found = await this.runs.find(idOrPrefix);
    if (found.length === 0) throw new Error(`no run ${JSON.stringify(idOrPrefix)}`);
    if (found.length > 1)
      throw new Error(`${JSON.stringify(idOrPrefix)} matches several runs: give more of the id`);
    return found[0] as RunRecord;
  }

  /** Answers the request a paused run waits on and queues it again; any worker continues it. */
  async approve(idOrPrefix: string, callId: string, allow: boolean): Promise<void> {
    const run = await this.run(idOrPrefix);
    if (!(await this.runs.decide(run.id, callId, allow))) {
      throw new Error(
        run.state !== "paused"
          ? `run ${run.id} is ${run.state}, not waiting for an approval`
          : `run ${run.id} waits on call ${run.permission?.callId}, not ${callId}`,
      );
    }
    await this.queue.send(run.id, run.spec.timeoutSeconds);
  }

  /**
   * Calls `onEntry` with every entry of the run's session log, from the first, as they are stored,
   * until the run ends or pauses; resolves with the run then. Reads from the store, so a follower
   * that joins late misses nothing; a NOTIFY per stored entry wakes it (and a poll every second
   * covers a notification lost with a dropped connection).
   */
  async follow(
    idOrPrefix: string,
    sessions: PostgresSessionStore,
    onEntry: (entry: LogEntry) => void,
  ): Promise<RunRecord> {
    const listener = new pg.Client({ connectionString: this.database.url });
    await listener.connect();
    let wake: (() => void) | undefined;
    listener.on("notification", () => wake?.());
    listener.on("error", () => wake?.());
    await listener.query("LISTEN yoake_session_entries");
    try {
      let next = 1;
      for (;;) {
        const run = await this.run(idOrPrefix);
        if (run.sessionId !== undefined) {
          const entries = await sessions.read(run.sessionId, next);
          for (const entry of entries) onEntry(entry);
          next += entries.length;
        }
        // The state is read before the entries: a run that ended has all its entries stored.
        if (TERMINAL.has(run.state) || run.state === "paused") return run;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      await listener.end().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.database.close();
  }
}
