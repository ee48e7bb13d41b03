import {
  estimateItemTokens,
  estimateTextTokens,
  type Interceptor,
  type Item,
  isUserMessage,
  type LlmClient,
  type PruneInterceptor,
  type Request,
  sumItemTokens,
  type ToolDefinition,
  type Usage,
  type Worker,
  type WorkerResult,
} from "@yoake/llm-worker";
import type { Alert } from "../alert.js";
import { rereadFiles } from "../compaction/auto-read.js";
import { CompactionBreaker } from "../compaction/circuit-breaker.js";
import {
  compactionTriggerTokens,
  type ResolvedCompactionSettings,
} from "../compaction/compaction-settings.js";
import { frameSummary, SUMMARY_HEADING } from "../compaction/summary-prompt.js";
import { requestSummary } from "../compaction/summary-request.js";
import type { Segment } from "../file-ref/segments.js";
import type { Manifest } from "../manifest/resolve.js";
import type { PodOwnEvent } from "../pod-events.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { continueInNewSession } from "../session/link.js";
import { compactionSummaryItem, type LastRun } from "../session/restore.js";
import { sessionConfigFromManifest } from "../session/session-config.js";
import { SessionLog, type SessionLogOptions } from "../session/session-log.js";
import { sessionsDir } from "../session/sessions.js";
import type { ReadTracker } from "../tools/read-tracker.js";
import { CompactionError, type CompactionResult } from "./compaction-result.js";
import type { OpenedPodSession } from "./open-pod-session.js";
import { outcomeEntry, SessionRecorder } from "./session-recorder.js";

/** What a Pod's session needs of the Pod. */
export interface PodSessionContext {
  manifest: Manifest;
  /** The directory the Pod was started in (recorded in each `session_start`). */
  cwd: string;
  fs: ScopedFs;
  client: LlmClient;
  readTracker: ReadTracker;
  /** The Worker's prune interceptor: its prunes are logged, and a compaction resets them. */
  prune: PruneInterceptor;
  compaction: ResolvedCompactionSettings;
  logOptions: SessionLogOptions;
  /** The tools as the Worker sends them, for a compaction before the Worker sent any request. */
  toolDefinitions: readonly ToolDefinition[];
  /** Delivers an event to the Pod's listeners. */
  emit(event: PodOwnEvent): void;
}

/** How the session this Pod continues had left off, when it continues one. */
export interface RestoredSessionInfo {
  sessionId: string;
  lastRun: LastRun;
  /** Items of history restored. */
  items: number;
  /** A torn last line dropped, a model that changed, ... (also written to the log as alerts). */
  warnings: string[];
}

/**
 * A Pod's session: its log (`SessionRecorder`), restore, and compaction. The Pod calls it at the
 * edges of each run; its two interceptors do the rest inside the Worker:
 * - `first` (before prune): before each request it syncs the log, then compacts when the prompt
 *   nears the window; before each tool call it syncs the log, so the calls are durable before any
 *   runs (or pauses for approval);
 * - `afterPrune` (right after prune): logs the call ids prune newly dropped, before the request
 *   that drops them goes out.
 */
export class PodSession {
  readonly first: Interceptor;
  readonly afterPrune: Interceptor;
  readonly restored: RestoredSessionInfo | undefined;
  readonly #context: PodSessionContext;
  readonly #recorder: SessionRecorder;
  readonly #breaker: CompactionBreaker;
  readonly #triggerTokens: number | undefined;
  #sessionId: string;
  #worker: Worker | undefined;
  /** The system prompt and tools of the last request, for the compaction request. */
  #requestShape: { system: string | undefined; tools: readonly ToolDefinition[] } | undefined;
  /** The signal of the run going now (a compaction inside it is cancelled with it). */
  #signal: AbortSignal | undefined;
  /** History length when the last request was built: the items after it are new since then. */
  #sentLength = 0;
  /** The Worker's `previousUsage` does not describe this history (restored, or just compacted). */
  #usageStale = true;
  /** A compaction happened and no request measured its result yet. */
  #freshlyCompacted = false;
  #compacting = false;
  #loggedPrunes = 0;
  /** A restored run stopped before a request: `resume()` sends it. */
  #resumable = false;
  #closed = false;

  constructor(opened: OpenedPodSession, context: PodSessionContext) {
    this.#context = context;
    this.#sessionId = opened.sessionId;
    this.#recorder = new SessionRecorder(opened.log, context.manifest.model.id, (message) =>
      this.#alert({ level: "error", message, source: "session" }),
    );
    this.#breaker = new CompactionBreaker(context.compaction.maxFailures);
    this.#triggerTokens = compactionTriggerTokens(context.compaction);
    const restored = opened.restored;
    this.restored =
      restored === undefined
        ? undefined
        : {
            sessionId: restored.sessionId,
            lastRun: restored.lastRun,
            items: restored.history.length,
            warnings: opened.warnings,
          };
    for (const message of opened.warnings)
      this.#recorder.append({ type: "alert", level: "warn", message, source: "session" });

    this.first = {
      name: "session",
      onPreRequest: async ({ request, previousUsage }) => {
        await this.#recorder.sync();
        this.#requestShape = { system: request.system, tools: request.tools ?? [] };
        await this.#compactIfNeeded(request, previousUsage);
        this.#sentLength = this.#requireWorker().history.length;
        this.#usageStale = false;
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

  /** A restored run that stopped before a request (a pause, a crash) waits for `resume()`. */
  get resumable(): boolean {
    return this.#resumable;
  }

  /** Whether automatic compaction gave up after repeated failures. */
  get autoCompactionDisabled(): boolean {
    return this.#breaker.open;
  }

  /** Follows `worker`, whose history (restored or empty) the log already holds. */
  attach(worker: Worker): void {
    this.#worker = worker;
    this.#recorder.attach(worker, worker.history.length);
    // A Timeline handler: called for usage events only, not for every delta.
    worker.onUsage((usage) => this.#recorder.noteUsage(usage));
    const lastRun = this.restored?.lastRun.state;
    const last = worker.history.at(-1);
    this.#resumable =
      !worker.isPaused &&
      (lastRun === "paused" ||
        (lastRun === "interrupted" &&
          last !== undefined &&
          !(last.type === "message" && last.role === "assistant")));
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
      this.#alert({
        level: "error",
        message: `the session log could not record the end of the run: ${messageOf(error)}`,
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

  /**
   * Summarizes the session into a new one, now (the Pod is idle; see `Pod.compact`). A success
   * turns automatic compaction back on if repeated failures had turned it off.
   */
  compactNow(signal: AbortSignal | undefined): Promise<CompactionResult> {
    return this.#compact({ auto: false, inProgress: undefined, request: undefined, signal });
  }

  /** Flushes and closes the log; later entries are dropped. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#recorder.close();
  }

  #startRun(signal: AbortSignal | undefined): void {
    if (this.#closed) throw new Error("the Pod is closed");
    this.#signal = signal;
    this.#resumable = false;
    this.#recorder.collect();
  }

  async #compactIfNeeded(request: Request, previousUsage: Usage | undefined): Promise<void> {
    const trigger = this.#triggerTokens;
    if (!this.#context.compaction.auto || trigger === undefined || this.#breaker.open) return;
    const prompt = this.#promptTokens(request.system, previousUsage);
    const fresh = this.#freshlyCompacted;
    this.#freshlyCompacted = false;
    if (prompt < trigger) return;
    if (fresh) {
      // Compacting again would summarize the summary on every request.
      this.#compactionFailed(
        `the summary and the files read again already take about ${prompt} tokens, over the ${trigger}-token trigger`,
      );
      return;
    }
    const window = this.#context.compaction.contextWindow;
    this.#alert({
      level: "info",
      message: `compacting the session: the prompt is about ${prompt} tokens of a ${window}-token window`,
      source: "compaction",
    });
    try {
      const inProgress = currentRequest(this.#requireWorker().history);
      await this.#compact({ auto: true, inProgress, request, signal: this.#signal });
    } catch (error) {
      // A cancelled run is not a failure of compaction.
      if (this.#signal?.aborted) return;
      this.#compactionFailed(messageOf(error));
    }
  }

  /**
   * The prompt the next request sends, in tokens: what the provider reported for the last request,
   * plus an estimate of the items added since. Without a report that describes this history (a
   * restored or just compacted session), an estimate of everything.
   */
  #promptTokens(system: string | undefined, previousUsage: Usage | undefined): number {
    const history = this.#requireWorker().history;
    const reported = previousUsage?.inputTokens;
    if (!this.#usageStale && reported !== undefined && this.#sentLength <= history.length)
      return reported + sumItemTokens(history, estimateItemTokens, this.#sentLength);
    return sumItemTokens(history) + estimateTextTokens(system ?? "");
  }

  #compactionFailed(message: string): void {
    const failure = this.#breaker.recordFailure();
    this.#alert({
      level: "warn",
      message: `automatic compaction failed (${failure.failuresInARow} in a row): ${message}`,
      source: "compaction",
    });
    if (failure.trippedNow)
      this.#alert({
        level: "warn",
        message: `automatic compaction is off after ${failure.failuresInARow} failures in a row; the session goes on uncompacted (compact by hand to try again)`,
        source: "compaction",
      });
  }

  async #compact(mode: {
    auto: boolean;
    inProgress: string | undefined;
    /** The request about to go out, when compacting inside a run: it is sent with the new history. */
    request: Request | undefined;
    signal: AbortSignal | undefined;
  }): Promise<CompactionResult> {
    if (this.#compacting) throw new CompactionError("a compaction is already going");
    const worker = this.#requireWorker();
    const { manifest, compaction, prune } = this.#context;
    this.#compacting = true;
    try {
      await this.#recorder.sync();
      const itemsBefore = worker.history.length;
      if (itemsBefore === 0) throw new CompactionError("there is nothing to compact yet");
      const shape = this.#requestShape ?? {
        system: manifest.instructions.systemPrompt,
        tools: this.#context.toolDefinitions,
      };
      const outcome = await requestSummary({
        client: this.#context.client,
        system: shape.system,
        tools: shape.tools,
        items: prune.pruner.reapply(worker.history),
        generation: manifest.generation,
        summaryTokens: compaction.summaryTokens,
        ...(mode.signal !== undefined && { signal: mode.signal }),
      });
      // The summary request is a model request of this session: its usage is logged like any other.
      if (outcome.usage !== undefined)
        this.#recorder.append({ type: "usage", usage: outcome.usage, model: manifest.model.id });
      await this.#recorder.flush();
      if (!outcome.ok) throw new CompactionError(outcome.message);

      const text = outcome.truncated
        ? `${outcome.summary}\n\n[The summary was cut at its output limit.]`
        : outcome.summary;
      const summary = frameSummary(text, mode.inProgress);
      const previousSessionId = this.#sessionId;
      const next = await this.#continueLog(summary);
      const reread = await rereadFiles(this.#context.fs, this.#context.readTracker, {
        budgetBytes: compaction.rereadBytes,
        maxFileBytes: manifest.limits.toolOutputBytes,
      }).catch(() => ({ items: [], paths: [], skipped: [] }));
      const items: Item[] = [compactionSummaryItem(summary), ...reread.items];
      worker.replaceHistory(items);
      if (mode.request !== undefined) mode.request.items = [...items];
      this.#sessionId = next.id;
      // The summary is in the log as the `compaction` entry; the files follow as items.
      this.#recorder.switchTo(next, 1);
      await this.#recorder.sync();
      prune.pruner.reset();
      this.#loggedPrunes = 0;
      this.#usageStale = true;
      this.#freshlyCompacted = true;
      this.#sentLength = items.length;
      this.#breaker.recordSuccess();

      const result: CompactionResult = {
        auto: mode.auto,
        sessionId: next.id,
        previousSessionId,
        summary,
        rereadFiles: reread.paths,
        itemsBefore,
        itemsAfter: items.length,
        ...(outcome.usage !== undefined && { usage: outcome.usage }),
      };
      this.#context.emit({
        type: "history_changed",
        reason: "compact",
        auto: mode.auto,
        sessionId: next.id,
        previousSessionId,
      });
      this.#alert({
        level: "info",
        message: `compacted ${itemsBefore} items into a summary${reread.paths.length > 0 ? ` and ${reread.paths.length} files read again` : ""}; continuing in session ${next.id}`,
        source: "compaction",
      });
      return result;
    } finally {
      this.#compacting = false;
    }
  }

  /**
   * Ends the current log with the compaction and starts the linked one. If the new one cannot be
   * made, the old one (closed by then) is opened again so the Pod keeps recording where it was.
   */
  async #continueLog(summary: string): Promise<SessionLog> {
    const { manifest, cwd, logOptions } = this.#context;
    const previous = await this.#recorder.log();
    try {
      return await continueInNewSession(previous, {
        dir: sessionsDir(manifest.projectRoot),
        summary,
        config: sessionConfigFromManifest(manifest, cwd),
        options: logOptions,
      });
    } catch (error) {
      await previous.close().catch(() => undefined);
      try {
        const reopened = await SessionLog.open(previous.path, logOptions);
        this.#recorder.switchTo(reopened.log, this.#requireWorker().history.length);
      } catch {
        // The recorder keeps the failed log: the next flush reports it, and the next run stops.
      }
      throw new CompactionError(`could not start the new session: ${messageOf(error)}`, { cause: error });
    }
  }

  #requireWorker(): Worker {
    if (this.#worker === undefined) throw new Error("the session is not attached to a Worker yet");
    return this.#worker;
  }

  #alert(alert: Alert): void {
    this.#context.emit({ type: "alert", ...alert });
  }
}

/** The user's latest request in `history`, unless that is a compaction summary. */
function currentRequest(history: readonly Item[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i] as Item;
    if (isUserMessage(item)) return item.text.startsWith(SUMMARY_HEADING) ? undefined : item.text;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
