import {
  type Item,
  type LlmClient,
  type PruneInterceptor,
  type Request,
  systemMessage,
  type Usage,
  type Worker,
} from "@yoake/llm-worker";
import {
  errorMessage,
  estimateItemTokens,
  estimateTextTokens,
  isUserMessage,
  itemTokensAtMost,
  sumItemTokens,
  type ToolDefinition,
  textTokensAtMost,
} from "@yoake/llm-worker/internal";
import type { Manifest } from "../manifest/resolve.js";
import { type PlanBook, planNote } from "../plan/plan.js";
import type { Alert } from "../pod/alert.js";
import type { PodOwnEvent } from "../pod/events.js";
import { compactionSummaryItem } from "../restore/restore.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { sessionConfigFromManifest } from "../session-log/session-config.js";
import type { SessionRecorder } from "../session-log/session-recorder.js";
import type { SessionStore } from "../session-log/session-store.js";
import type { SessionWriter } from "../session-log/session-writer.js";
import type { ReadTracker } from "../tools/read-tracker.js";
import { rereadFiles } from "./auto-read.js";
import { CompactionBreaker } from "./circuit-breaker.js";
import { CompactionError, type CompactionResult } from "./compaction-result.js";
import { compactionTriggerTokens, type ResolvedCompactionSettings } from "./compaction-settings.js";
import { frameSummary, SUMMARY_HEADING } from "./summary-prompt.js";
import { type RequestShape, requestSummary } from "./summary-request.js";

/** How `#promptTokens` counts: the tokenizer's estimates, or a bound that needs no tokenizer. */
interface TokenMeasure {
  item(item: Item): number;
  text(text: string): number;
}
const TOKEN_ESTIMATES: TokenMeasure = { item: estimateItemTokens, text: estimateTextTokens };
const TOKENS_AT_MOST: TokenMeasure = { item: itemTokensAtMost, text: textTokensAtMost };

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
  /** Where the session's logs are kept (a compaction starts the next one there). */
  sessionStore: SessionStore;
  /** The tools as the Worker sends them, for a compaction before the Worker sent any request. */
  toolDefinitions: readonly ToolDefinition[];
  /** Delivers an event to the Pod's listeners. */
  emit(event: PodOwnEvent): void;
  /** The model's plan: carried into the session a compaction starts. */
  plan?: PlanBook;
}

/**
 * Compaction (see the README, "Compaction"): before each request it measures the prompt about to
 * be sent and, near the window, replaces the history with the model's summary and the files read
 * again, continuing in a new session log; `compactNow` does the same on request. A circuit breaker
 * stops the automatic attempts after repeated failures.
 */
export class SessionCompactor {
  readonly #context: PodSessionContext;
  readonly #recorder: SessionRecorder;
  /** Told of each compaction, after the new session took over. */
  readonly #onCompacted: (result: CompactionResult) => void;
  readonly #breaker: CompactionBreaker;
  readonly #triggerTokens: number | undefined;
  #worker: Worker | undefined;
  /** The last request without its items (system prompt, tools, generation), for the compaction request. */
  #requestShape: RequestShape | undefined;
  /** History length when the last request was built: the items after it are new since then. */
  #sentLength = 0;
  /** The Worker's `previousUsage` does not describe this history (restored, or just compacted). */
  #usageStale = true;
  /** A compaction happened and no request measured its result yet. */
  #freshlyCompacted = false;
  #compacting = false;

  constructor(
    context: PodSessionContext,
    recorder: SessionRecorder,
    onCompacted: (result: CompactionResult) => void,
  ) {
    this.#context = context;
    this.#recorder = recorder;
    this.#onCompacted = onCompacted;
    this.#breaker = new CompactionBreaker(context.compaction.maxFailures);
    this.#triggerTokens = compactionTriggerTokens(context.compaction);
  }

  /** Whether automatic compaction gave up after repeated failures. */
  get autoDisabled(): boolean {
    return this.#breaker.open;
  }

  attach(worker: Worker): void {
    this.#worker = worker;
  }

  /**
   * Before a request goes out (the log is synced): compacts when the prompt nears the window,
   * replacing `request.items` so the request goes out with the new history. Never throws: a
   * failed compaction is an alert, and the request goes out as it was.
   */
  async beforeRequest(
    request: Request,
    previousUsage: Usage | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const { items: _items, ...shape } = request;
    this.#requestShape = shape;
    await this.#compactIfNeeded(request, previousUsage, signal);
    this.#sentLength = this.#requireWorker().history.length;
    this.#usageStale = false;
  }

  /**
   * Summarizes the session into a new one, now (the Pod is idle; see `Pod.compact`). A success
   * turns automatic compaction back on if repeated failures had turned it off.
   */
  compactNow(signal: AbortSignal | undefined): Promise<CompactionResult> {
    return this.#compact({ auto: false, inProgress: undefined, request: undefined, signal });
  }

  async #compactIfNeeded(
    request: Request,
    previousUsage: Usage | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const trigger = this.#triggerTokens;
    if (!this.#context.compaction.auto || trigger === undefined || this.#breaker.open) return;
    const fresh = this.#freshlyCompacted;
    this.#freshlyCompacted = false;
    // A prompt that cannot reach the trigger needs no estimate: a short session, `yoake -p` among
    // them, never loads the tokenizer (~150 ms) before its first request.
    if (this.#promptTokens(request.system, previousUsage, TOKENS_AT_MOST) < trigger) return;
    const prompt = this.#promptTokens(request.system, previousUsage);
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
      await this.#compact({ auto: true, inProgress, request, signal });
    } catch (error) {
      // A cancelled run is not a failure of compaction.
      if (signal?.aborted) return;
      this.#compactionFailed(errorMessage(error));
    }
  }

  /**
   * The prompt the next request sends, in tokens: what the provider reported for the last request,
   * plus an estimate of the items added since. Without a report that describes this history (a
   * restored or just compacted session), an estimate of everything.
   */
  #promptTokens(
    system: string | undefined,
    previousUsage: Usage | undefined,
    measure: TokenMeasure = TOKEN_ESTIMATES,
  ): number {
    const history = this.#requireWorker().history;
    const reported = previousUsage?.inputTokens;
    if (!this.#usageStale && reported !== undefined && this.#sentLength <= history.length)
      return reported + sumItemTokens(history, measure.item, this.#sentLength);
    return sumItemTokens(history, measure.item) + measure.text(system ?? "");
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
      // Before the Worker sent anything, its requests as it would build them.
      const shape: RequestShape = this.#requestShape ?? {
        ...manifest.generation,
        ...(manifest.instructions.systemPrompt !== undefined && {
          system: manifest.instructions.systemPrompt,
        }),
        ...(this.#context.toolDefinitions.length > 0 && { tools: this.#context.toolDefinitions }),
      };
      const outcome = await requestSummary({
        client: this.#context.client,
        shape,
        items: prune.pruner.reapply(worker.history),
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
      const previous = await this.#recorder.log();
      const next = await this.#continueLog(previous, summary);
      const reread = await rereadFiles(this.#context.fs, this.#context.readTracker, {
        budgetBytes: compaction.rereadBytes,
        maxFileBytes: manifest.limits.toolOutputBytes,
      }).catch(() => ({ items: [], paths: [], skipped: [] }));
      // The plan goes on whole (done steps too, so they are not done again) right after the summary.
      const plan = this.#context.plan?.current;
      const items: Item[] = [
        compactionSummaryItem(summary),
        ...(plan === undefined ? [] : [systemMessage(planNote(plan))]),
        ...reread.items,
      ];
      worker.replaceHistory(items);
      if (mode.request !== undefined) mode.request.items = [...items];
      // The summary is in the new log as its `compaction` entry; the plan and the files follow.
      this.#recorder.switchTo(next, 1);
      if (plan !== undefined) this.#recorder.append({ type: "plan", plan });
      await this.#recorder.sync();
      prune.pruner.reset();
      this.#usageStale = true;
      this.#freshlyCompacted = true;
      this.#sentLength = items.length;
      this.#breaker.recordSuccess();

      const result: CompactionResult = {
        auto: mode.auto,
        sessionId: next.id,
        previousSessionId: previous.id,
        summary,
        rereadFiles: reread.paths,
        itemsBefore,
        itemsAfter: items.length,
        ...(outcome.usage !== undefined && { usage: outcome.usage }),
      };
      this.#onCompacted(result);
      this.#context.emit({
        type: "history_changed",
        reason: "compact",
        auto: mode.auto,
        sessionId: next.id,
        previousSessionId: previous.id,
      });
      const files = reread.paths.length > 0 ? ` and ${reread.paths.length} files read again` : "";
      this.#alert({
        level: "info",
        message: `compacted ${itemsBefore} items into a summary${files}; continuing in session ${next.id}`,
        source: "compaction",
      });
      return result;
    } finally {
      this.#compacting = false;
    }
  }

  /**
   * Ends `previous` with the compaction and starts the linked log. If the new one cannot be made,
   * the old one (closed by then) is opened again so the Pod keeps recording where it was.
   */
  async #continueLog(previous: SessionWriter, summary: string): Promise<SessionWriter> {
    const { manifest, cwd, sessionStore } = this.#context;
    try {
      return await sessionStore.link(previous, summary, sessionConfigFromManifest(manifest, cwd));
    } catch (error) {
      await previous.close().catch(() => undefined);
      try {
        const reopened = await sessionStore.open(previous.id);
        this.#recorder.switchTo(reopened.writer, this.#requireWorker().history.length);
      } catch {
        // The recorder keeps the failed log: the next flush reports it, and the next run stops.
      }
      throw new CompactionError(`could not start the new session: ${errorMessage(error)}`, { cause: error });
    }
  }

  #requireWorker(): Worker {
    if (this.#worker === undefined) throw new Error("compaction is not attached to a Worker yet");
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
