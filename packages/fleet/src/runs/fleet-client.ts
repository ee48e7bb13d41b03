import type { WireEvent } from "@yoake/pod/protocol";
import { v7 as newRunId } from "uuid";
import { FleetDatabase } from "../database/fleet-database.js";
import { listenFor } from "../database/notifications.js";
import { RUN_EVENTS_CHANNEL, readRunEvents } from "./run-events.js";
import { RunQueue } from "./run-queue.js";
import { type RunRecord, type RunSpec, RunTable } from "./run-record.js";
import { checkRunSpec } from "./submitter-policy.js";

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

  /**
   * Stores the run and queues it; returns its id. A spec a submitter may not write (`checkRunSpec`:
   * overrides beyond `SUBMITTER_OVERRIDES`, fields of the wrong kind) is refused with a
   * `RunSpecError` before anything is stored; the workers check again.
   */
  async submit(spec: RunSpec): Promise<string> {
    checkRunSpec(spec);
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
   * Calls `onEvent` with every event of the run, from the first, as they are stored: the Pod's
   * events in the shapes `yoake -p --output-format stream-json` prints, across every worker that
   * took the run. Resolves with the run once it ends or pauses. Reads from the stored events, so a
   * follower that joins late misses nothing; the NOTIFY of each stored batch wakes it (and a poll
   * every second covers a notification lost with a dropped connection).
   */
  async follow(idOrPrefix: string, onEvent: (event: WireEvent) => void): Promise<RunRecord> {
    const listener = await listenFor(this.database.url, RUN_EVENTS_CHANNEL);
    try {
      const { id } = await this.run(idOrPrefix);
      let next = 1;
      for (;;) {
        // The state is read before the events: a run that ended has all its events stored.
        const run = await this.run(id);
        const events = await readRunEvents(this.database.pool, id, next);
        for (const { event } of events) onEvent(event);
        next += events.length;
        if (TERMINAL.has(run.state) || run.state === "paused") return run;
        await listener.wait(1000);
      }
    } finally {
      await listener.close();
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.database.close();
  }
}
