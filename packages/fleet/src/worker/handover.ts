import type { Pod, SessionStore } from "@yoake/pod";
import type { SessionWriter } from "@yoake/pod/session-log";

/**
 * How a stopping worker hands a run that is going to the next worker. A Pod stopped the usual way
 * (`cancel`) records its run as cancelled, and a cancelled run has ended. So the run's session
 * writer is closed first, and then the run cancelled: from then on nothing reaches the log, which
 * ends where the run was, as a crashed worker's does, and the next worker continues the run from
 * it (unanswered calls are answered as interrupted). `store` is the store the run's Pod is given:
 * it remembers the writer the Pod writes with now (a compaction links a new one).
 */
export class Handover {
  #writer: SessionWriter | undefined;
  #pod: Pod | undefined;
  #stopped = false;
  #lost = false;
  readonly store: SessionStore;

  constructor(sessions: SessionStore) {
    const keep = (writer: SessionWriter) => {
      this.#writer = writer;
      // A log made after the stop (a new session appears with its first entry) is closed at
      // once: nothing of the stopped run, its cancellation least of all, may reach it.
      if (this.#stopped) void writer.close().catch(() => undefined);
      return writer;
    };
    this.store = {
      location: sessions.location,
      create: async (start) => keep(await sessions.create(start)),
      open: async (id) => {
        const opened = await sessions.open(id);
        keep(opened.writer);
        return opened;
      },
      read: (id, fromSeq) => sessions.read(id, fromSeq),
      list: () => sessions.list(),
      link: async (previous, summary, config) => keep(await sessions.link(previous, summary, config)),
      close: () => sessions.close(),
    };
  }

  /** Whether `stop` was called: the run's outcome, whatever it says, is a handover. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Whether the run was stopped because another worker took it over (this one was not heard from
   * for too long): it is not queued again, and nothing of it is stored as the run's.
   */
  get lost(): boolean {
    return this.#lost;
  }

  /** The run's Pod, once made (a stop before that closes its writer when it comes). */
  attach(pod: Pod): void {
    this.#pod = pod;
    if (this.#stopped) void this.#stop();
  }

  /** Ends the run where it is without a word in its log; `lost`: it was taken over. */
  stop(lost = false): void {
    if (lost) this.#lost = true;
    if (this.#stopped) return;
    this.#stopped = true;
    void this.#stop();
  }

  async #stop(): Promise<void> {
    await this.#writer?.close().catch(() => undefined);
    this.#pod?.cancel();
  }
}
