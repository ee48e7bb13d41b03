import type { Item, Usage, WorkerResult } from "@yoake/llm-worker";
import { type AppendableEntry, itemEntry } from "./entry.js";
import type { SessionWriter } from "./session-writer.js";

/** Where the recorder reads the history from: the Worker. */
export interface HistorySource {
  readonly history: readonly Item[];
}

/** A log that exists, or the way to create it when the first entry comes. */
export type LogSource = SessionWriter | (() => Promise<SessionWriter>);

/**
 * Writes what a Pod does into its session log, in order. Appends start at once, in call order,
 * and `flush` waits for all of them to be durable. A new session's file is created with its
 * first entry, not before: a Pod opened and closed without a word leaves no empty session behind
 * to become "the latest". The Pod flushes before it acts: the Pod flushes before it acts (before a request goes out, before a tool runs, before
 * `run` returns). History is recorded by difference: `collect` appends the items that entered the
 * Worker's history since the last call, so every item is logged once, in history order, exactly as
 * the Worker holds it (a tool result with its summary and blob ids).
 *
 * Once an append fails the log refuses every later one; `flush` then keeps throwing that failure,
 * so the Pod stops acting on what it cannot record.
 */
export class SessionRecorder {
  #source: LogSource;
  /** The log, once asked for; every append goes through it, so appends keep their call order. */
  #ready: Promise<SessionWriter> | undefined;
  #history: HistorySource | undefined;
  /** How many leading history items the log holds. */
  #logged = 0;
  /** The last of them: the history must still hold this very object at `#logged - 1`. */
  #lastLogged: Item | undefined;
  /** The latest usage event of the request in flight (usage events are cumulative). */
  #usage: Usage | undefined;
  #tail: Promise<unknown> = Promise.resolve();
  #failure: unknown;

  constructor(
    log: LogSource,
    /** The model id written beside each usage entry. */
    private readonly model: string,
    /** Told when the history changed in a way the log cannot follow (replaced outside the Pod). */
    private readonly onDivergence: (message: string) => void,
  ) {
    this.#source = log;
    if (typeof log !== "function") this.#ready = Promise.resolve(log);
  }

  /** Whether the log file exists (a new session's is created with its first entry). */
  get started(): boolean {
    return this.#ready !== undefined;
  }

  /** The log, created if it did not exist yet. */
  log(): Promise<SessionWriter> {
    if (this.#ready === undefined) {
      const source = this.#source;
      this.#ready = typeof source === "function" ? source() : Promise.resolve(source);
      this.#ready.catch((error: unknown) => {
        this.#failure ??= error;
      });
    }
    return this.#ready;
  }

  /** Starts following `source`, whose first `alreadyLogged` items the log already holds. */
  attach(history: HistorySource, alreadyLogged: number): void {
    this.#history = history;
    this.#mark(alreadyLogged);
  }

  /**
   * Continues in another log (a compaction's new session) whose first `alreadyLogged` history items
   * are already represented (the summary, by its `compaction` entry).
   */
  switchTo(log: SessionWriter, alreadyLogged: number): void {
    this.#source = log;
    this.#ready = Promise.resolve(log);
    this.#failure = undefined;
    this.#tail = Promise.resolve();
    this.#usage = undefined;
    this.#mark(alreadyLogged);
  }

  /** Starts appending `entry`; `flush` waits for it. */
  append(entry: AppendableEntry): void {
    // Callbacks on one promise run in the order they were added: the log sees the call order.
    const pending = this.log().then((log) => log.append(entry));
    // Recorded here so no rejection goes unhandled; `flush` reports it.
    pending.catch((error: unknown) => {
      this.#failure ??= error;
    });
    this.#tail = pending;
  }

  /** Keeps the latest usage of the request in flight; `collect` writes it after that request's items. */
  noteUsage(usage: Usage): void {
    this.#usage = usage;
  }

  /** Starts appending the history items not logged yet, then the usage of the last request. */
  collect(): void {
    const history = this.#history?.history;
    if (history === undefined) return;
    const logged = this.#logged;
    if (logged > history.length || (logged > 0 && history[logged - 1] !== this.#lastLogged)) {
      this.onDivergence(
        "the history was replaced outside the Pod: the session log records only what is added from now on",
      );
      this.#mark(history.length);
    } else {
      for (let i = logged; i < history.length; i++) this.append(itemEntry(history[i] as Item));
      this.#mark(history.length);
    }
    const usage = this.#usage;
    if (usage !== undefined) {
      this.#usage = undefined;
      this.append({ type: "usage", usage, model: this.model });
    }
  }

  /** Resolves once every append so far is durable; throws the first failure. */
  async flush(): Promise<void> {
    await this.#tail.catch(() => undefined);
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** `collect`, then `flush`: the log holds the history as it is now. */
  async sync(): Promise<void> {
    this.collect();
    await this.flush();
  }

  /** Syncs and closes the log (a new session that never got an entry has no file to close). */
  async close(): Promise<void> {
    if (this.#ready === undefined) return;
    try {
      await this.sync();
    } finally {
      const log = await this.#ready.catch(() => undefined);
      await log?.close();
    }
  }

  #mark(count: number): void {
    this.#logged = count;
    this.#lastLogged = count > 0 ? this.#history?.history[count - 1] : undefined;
  }
}

/** The entry that says how a run (or its continuation) stopped. */
export function outcomeEntry(result: WorkerResult): AppendableEntry {
  switch (result.status) {
    case "finished":
      return { type: "run_end", status: "finished" };
    case "failed":
      return { type: "run_end", status: "failed", message: result.error.message };
    case "paused":
      return {
        type: "paused",
        reason: result.reason,
        by: result.by,
        pendingCallIds: result.pendingToolCalls.map((call) => call.id),
      };
    case "cancelled":
      return { type: "cancelled", reason: result.reason, by: result.by };
  }
}
