import type { Interceptor, Item, Usage, Worker, WorkerResult } from "@yoake/llm-worker";
import type { CompactionResult } from "../compaction/compaction-result.js";
import { type PodSessionContext, SessionCompactor } from "../compaction/session-compactor.js";
import type { Segment } from "../file-ref/segments.js";
import type { OpenedPodSession } from "../restore/open-pod-session.js";
import { type LastRun, restoreSession } from "../restore/restore.js";
import { outcomeEntry, SessionRecorder } from "../session-log/session-recorder.js";
import type { StoredSessionInfo } from "../session-log/session-store.js";
import type { Alert } from "./alert.js";

export type { PodSessionContext } from "../compaction/session-compactor.js";

/** How the session this Pod continues had left off, when it continues one. */
export interface RestoredSessionInfo {
  sessionId: string;
  lastRun: LastRun;
  /** Items of history restored. */
  items: number;
  /** Tokens of every model request the session made so far (what its status line starts from). */
  usage: Usage;
  /** A torn last line dropped, a model that changed, ... (also written to the log as alerts). */
  warnings: string[];
}

/**
 * A Pod's session: its log (`SessionRecorder`), restore, and compaction (`SessionCompactor`). The
 * Pod calls it at the edges of each run; its two interceptors do the rest inside the Worker:
 * - `first` (before prune and the approval step): before each request it syncs the log, then
 *   compacts when the prompt nears the window; before each tool call it syncs the log, so the
 *   calls are durable before any runs (or pauses for approval);
 * - `afterPrune` (right after prune): logs the call ids prune newly dropped, before the request
 *   that drops them goes out.
 */
export class PodSession {
  readonly first: Interceptor;
  readonly afterPrune: Interceptor;
  readonly restored: RestoredSessionInfo | undefined;
  readonly #context: PodSessionContext;
  readonly #recorder: SessionRecorder;
  readonly #compactor: SessionCompactor;
  #sessionId: string;
  #worker: Worker | undefined;
  /** The signal of the run going now (a compaction inside it is cancelled with it). */
  #signal: AbortSignal | undefined;
  /** How many of prune's call ids the log holds. */
  #loggedPrunes = 0;
  /** A restored run stopped before a request: `resume()` sends it. */
  #resumable = false;
  #closed = false;

  /** The sessions of the store this one is kept in, oldest first. */
  listSessions(): Promise<StoredSessionInfo[]> {
    return this.#context.sessionStore.list();
  }

  /** The history of another session of the store (a sub-agent's), read from its log. */
  async sessionHistory(sessionId: string): Promise<Item[]> {
    return restoreSession(await this.#context.sessionStore.read(sessionId)).history;
  }

  constructor(opened: OpenedPodSession, context: PodSessionContext) {
    this.#context = context;
    this.#sessionId = opened.sessionId;
    this.#recorder = new SessionRecorder(opened.log, context.manifest.model.id, (message) =>
      this.#alert({ level: "error", message, source: "session" }),
    );
    this.#compactor = new SessionCompactor(context, this.#recorder, (result) => {
      this.#sessionId = result.sessionId;
      this.#loggedPrunes = 0;
    });
    const restored = opened.restored;
    this.restored =
      restored === undefined
        ? undefined
        : {
            sessionId: restored.sessionId,
            lastRun: restored.lastRun,
            items: restored.history.length,
            usage: restored.usage,
            warnings: opened.warnings,
          };
    for (const message of opened.warnings)
      this.#recorder.append({ type: "alert", level: "warn", message, source: "session" });
    const effort = context.manifest.generation.effort;
    if (restored !== undefined && restored.effort !== effort)
      this.#recorder.append({ type: "effort", ...(effort !== undefined && { level: effort }) });
    // Each plan the model writes is logged as it is kept; the tool result that follows is synced with it.
    context.plan?.onChange((plan) => {
      if (!this.#closed) this.#recorder.append({ type: "plan", plan });
    });

    this.first = {
      name: "session",
      onPreRequest: async ({ request, previousUsage }) => {
        await this.#recorder.sync();
        await this.#compactor.beforeRequest(request, previousUsage, this.#signal);
        return undefined;
      },
      beforeToolCall: async () => {
        await this.#recorder.sync();
        return undefined;
      },
    };
    this.afterPrune = {
      name: "session-prune",
      onPreRequest: async () => {
        const pruned = context.prune.pruner.prunedCallIds;
        if (pruned.size <= this.#loggedPrunes) return undefined;
        const callIds = [...pruned].slice(this.#loggedPrunes);
        this.#loggedPrunes = pruned.size;
        this.#recorder.append({ type: "pruned", callIds });
        await this.#recorder.flush();
        return undefined;
      },
    };
  }

  /** The session being written (it changes with each compaction). */
  get id(): string {
    return this.#sessionId;
  }

  /** A restored run that stopped before a request (a pause, a crash, a failure) waits for `resume()`. */
  get resumable(): boolean {
    return this.#resumable;
  }

  /** Whether automatic compaction gave up after repeated failures. */
  get autoCompactionDisabled(): boolean {
    return this.#compactor.autoDisabled;
  }

  /** Follows `worker`, whose history (restored or empty) the log already holds. */
  attach(worker: Worker): void {
    this.#worker = worker;
    this.#recorder.attach(worker, worker.history.length);
    this.#compactor.attach(worker);
    // A Timeline handler: called for usage events only, not for every delta.
    worker.onUsage((usage) => this.#recorder.noteUsage(usage));
    const lastRun = this.restored?.lastRun.state;
    const last = worker.history.at(-1);
    const answered = last?.type === "message" && last.role === "assistant";
    // A run that failed before the model answered (a provider's limit) is sent again on resume.
    this.#resumable =
      !worker.isPaused &&
      (lastRun === "paused" ||
        ((lastRun === "interrupted" || lastRun === "failed") && last !== undefined && !answered));
  }

  /** Before a run: the input, as typed and as segments, and the run's start, durable. */
  async beginRun(segments: readonly Segment[], text: string, signal: AbortSignal | undefined): Promise<void> {
    this.#startRun(signal);
    this.#recorder.append({
      type: "user_input",
      segments: segments.map((segment) => ({ ...segment })),
      text,
    });
    this.#recorder.append({ type: "run_start" });
    await this.#recorder.flush();
  }

  /** Before a paused run continues (an answer to an approval, `resume()`). */
  async beginResume(signal: AbortSignal | undefined): Promise<void> {
    this.#startRun(signal);
    this.#recorder.append({ type: "resumed" });
    await this.#recorder.flush();
  }

  /**
   * After a run stopped: the rest of its history, its last usage and how it stopped. Never throws:
   * the run has happened; a log that cannot record it raises an error alert, and the next run,
   * which would act on what the log does not hold, fails to start.
   */
  async endRun(result: WorkerResult): Promise<void> {
    this.#signal = undefined;
    try {
      this.#recorder.collect();
      this.#recorder.append(outcomeEntry(result));
      await this.#recorder.flush();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#alert({
        level: "error",
        message: `the session log could not record the end of the run: ${message}`,
        source: "session",
      });
    }
  }

  /** History grew outside a run (a note): logged now, durable by the next flush. */
  historyGrew(): void {
    if (!this.#closed) this.#recorder.collect();
  }

  /** An alert the user was shown. */
  recordAlert(alert: Alert): void {
    if (this.#closed) return;
    this.#recorder.append({
      type: "alert",
      level: alert.level,
      message: alert.message,
      source: alert.source,
    });
  }

  /** Summarizes the session into a new one now; see `Pod.compact`. */
  compactNow(signal: AbortSignal | undefined): Promise<CompactionResult> {
    if (this.#closed) return Promise.reject(new Error("the Pod is closed"));
    return this.#compactor.compactNow(signal);
  }

  /** Flushes and closes the log; later entries are dropped. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#recorder.close();
  }

  #startRun(signal: AbortSignal | undefined): void {
    if (this.#closed) throw new Error("the Pod is closed");
    if (this.#worker === undefined) throw new Error("the session is not attached to a Worker yet");
    this.#signal = signal;
    this.#resumable = false;
    this.#recorder.collect();
  }

  #alert(alert: Alert): void {
    this.#context.emit({ type: "alert", ...alert });
  }
}
