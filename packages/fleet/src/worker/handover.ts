import type { Pod, SessionStore } from "@yoake/pod";
import type { SessionWriter } from "@yoake/pod/session-log";

/**
 * How long a stopping worker waits by default for a run's next safe point (the start of a model
 * request, once the log holds everything before it) before it cuts the run where it is.
 */
export const DEFAULT_HANDOVER_WAIT_MS = 30_000;

/**
 * How a stopping worker hands a run that is going to the next worker. A Pod stopped the usual way
 * (`cancel`) records its run as cancelled, and a cancelled run has ended. So the run's session
 * writer is closed first, and then the run cancelled: from then on nothing reaches the log, which
 * ends where the run was, as a crashed worker's does, and the next worker continues the run from
 * it (unanswered calls are answered as interrupted). The cut waits for the run's next safe point:
 * the start of its next model request, when the log holds the prompt, every answer and every tool
 * result so far (the Pod syncs its log before each request) and nothing is in flight, so the next
 * worker sends that request and no round is asked twice (at most `waitMs`; a run
 * taken over by another worker is cut at once). A run that ends before its safe point simply
 * ends. `store` is the store the run's Pod is given: it remembers the writer the Pod writes with
 * now (a compaction links a new one).
 */
export class Handover {
  #writer: SessionWriter | undefined;
  #pod: Pod | undefined;
  #stopped = false;
  #cut = false;
  #settled = false;
  #lost = false;
  #waiting: { timer: NodeJS.Timeout; unlisten: () => void } | undefined;
  readonly store: SessionStore;

  constructor(
    sessions: SessionStore,
    private readonly waitMs = DEFAULT_HANDOVER_WAIT_MS,
  ) {
    const keep = (writer: SessionWriter) => {
      this.#writer = writer;
      // A log made after the cut (a new session appears with its first entry) is closed at
      // once: nothing of the stopped run, its cancellation least of all, may reach it.
      if (this.#cut) void writer.close().catch(() => undefined);
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

  /** Whether `stop` was called (the worker stops, or lost the run). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Whether the run was cut where it was: its outcome, whatever it says, is a handover. */
  get cut(): boolean {
    return this.#cut;
  }

  /**
   * Whether the run was stopped because another worker took it over (this one was not heard from
   * for too long): it is not queued again, and nothing of it is stored as the run's.
   */
  get lost(): boolean {
    return this.#lost;
  }

  /** The run's Pod, once made (a stop before that cuts the run when it comes). */
  attach(pod: Pod): void {
    this.#pod = pod;
    if (this.#stopped) this.#cutNow();
  }

  /** The run's conversation returned (ended, paused, ...): from now on a stop cuts nothing. */
  settle(): void {
    this.#settled = true;
    this.#stopWaiting();
  }

  /**
   * Ends the run without a word in its log, at its next safe point; `lost`: it was taken over,
   * so at once.
   */
  stop(lost = false): void {
    if (lost) this.#lost = true;
    this.#stopped = true;
    if (this.#cut || this.#settled) return;
    const pod = this.#pod;
    if (pod === undefined) return; // cut when it is attached
    if (lost) {
      this.#cutNow();
      return;
    }
    if (this.#waiting !== undefined) return;
    const unlisten = pod.listen((event) => {
      if (event.type === "turn_start") this.#cutNow();
    });
    this.#waiting = { timer: setTimeout(() => this.#cutNow(), this.waitMs), unlisten };
  }

  #stopWaiting(): void {
    if (this.#waiting === undefined) return;
    clearTimeout(this.#waiting.timer);
    this.#waiting.unlisten();
    this.#waiting = undefined;
  }

  /**
   * Closes the log (its closed flag is set at once: nothing appended from now on reaches it, what
   * was appended before is still written) and then cancels the run, in one synchronous step: at a
   * request's start, before the request is sent.
   */
  #cutNow(): void {
    if (this.#cut || this.#settled) return;
    this.#cut = true;
    this.#stopWaiting();
    void this.#writer?.close().catch(() => undefined);
    this.#pod?.cancel();
  }
}
