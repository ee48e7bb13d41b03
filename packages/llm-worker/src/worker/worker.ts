import type { LlmClient } from "../llm-client/client.js";
import type { Usage } from "../llm-client/event.js";
import { type Item, type MessageItem, userMessage } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import type { OutputSpec } from "../structured/output-schema.js";
import { type Tool, toolDefinition } from "../tool/tool.js";
import type { BlobStore } from "../tool-output/blob-store.js";
import type { HistoryResultOptions } from "../tool-output/history-result.js";
import { createInspectTool, INSPECT_TOOL_NAME } from "../tool-output/inspect-tool.js";
import { RunTrace } from "../tracing/run-trace.js";
import { EventHub } from "./event-hub.js";
import type { WorkerEvent } from "./events.js";
import { type Extensions, extensionsOf, firstAction, stepsOf } from "./hook-runner.js";
import type { Hook, Interceptor, InterceptorPromptAction, PromptAction, PromptSummary } from "./hooks.js";
import type { WorkerResult } from "./result.js";
import { failure, type LoopContext, type RunPosition, runLoop } from "./run-loop.js";
import { RunOutput } from "./run-output.js";
import { answerOpenCalls, unansweredCalls } from "./tool-stage.js";
import { WorkerEvents } from "./worker-events.js";

/** Request settings other than the conversation itself. */
export type GenerationSettings = Omit<Request, "system" | "items" | "tools">;

export interface WorkerOptions {
  client: LlmClient;
  system?: string;
  tools?: readonly Tool[];
  interceptors?: readonly Interceptor[];
  hooks?: readonly Hook[];
  /** Where large tool outputs go (seed 000); without one every output stays inline. */
  blobStore?: BlobStore;
  /**
   * How tool outputs become history with a `blobStore`: the inline limit and the summaries
   * (default: the seed's 800 bytes and formats). `BLOB_STORE_TOOL_OUTPUT` is the Pod's choice.
   */
  toolOutput?: HistoryResultOptions;
  /** Requests per run, turn-end continuations included (default 50). */
  maxTurns?: number;
  /** A tool's time limit when it sets none (default 120 s). */
  toolTimeoutMs?: number;
  /** History to start from (a restored session). */
  history?: readonly Item[];
  /**
   * How the run that left `history` ending in unanswered tool calls stopped: `paused` (the default:
   * on purpose, for an approval or a hook) or `interrupted` (the process crashed or was killed
   * mid-run). A `run()` instead of `resume()` answers those calls with a result that says which.
   */
  restoredRun?: "paused" | "interrupted";
  generation?: GenerationSettings;
  /** Send OpenAI-strict tool schemas (every property required, optional ones nullable). */
  strictToolSchemas?: boolean;
  /**
   * OpenTelemetry spans for each run, turn, provider request and tool call (see `RunTrace`), when
   * the optional peer `@opentelemetry/api` is installed (default on; `false` never loads it).
   */
  tracing?: boolean;
}

export interface RunOptions<T = unknown> {
  signal?: AbortSignal;
  /**
   * Ask for the final answer as JSON matching this schema (zod, typed; or `outputSchema(json)`):
   * every request of the run carries it in the provider's native mode, and the answer is validated
   * into the result's `output`. An answer that does not validate fails the run (`invalid_output`).
   */
  output?: OutputSpec<T>;
  /** Send the validation issues back once and take the corrected answer (default false). */
  repairOutput?: boolean;
  /**
   * A W3C `traceparent` to continue (a `TRACEPARENT` from the environment): the run's span is its
   * child. Without it, the run's span is a child of the active OpenTelemetry context.
   */
  traceparent?: string;
}

/** What every Worker can do, cache-locked or not: run turns, read history, listen. */
export interface WorkerApi extends WorkerEvents {
  readonly history: readonly Item[];
  readonly isRunning: boolean;
  readonly isPaused: boolean;
  run<T = unknown>(input: string | Item[], options?: RunOptions<T>): Promise<WorkerResult<T>>;
  /** Continues a paused run; its output schema, if it had one, still holds. */
  resume(options?: RunOptions): Promise<WorkerResult>;
  /** The events of one run as an async iterable, ending with `run_end` (which carries the result). */
  stream(input: string | Item[], options?: RunOptions): AsyncIterable<WorkerEvent>;
}

/**
 * A worker whose system prompt, tools and sent history can no longer change (seed 001's
 * CacheLocked type-state): the provider's KV-cache prefix is never broken by accident. It has no
 * method that could; `Worker`'s mutators also refuse at run time once locked.
 */
export interface CacheLockedWorker extends WorkerApi {
  readonly locked: true;
}

/**
 * Runs turns (seed 001 lifecycle): prompt-submit hooks, request and stream, every tool call
 * through the before-tool hooks, the allowed ones in parallel, after-tool hooks, loop while the
 * model calls tools, then turn-end hooks, which may add messages and continue.
 */
export class Worker extends WorkerEvents implements WorkerApi {
  private readonly client: LlmClient;
  private system: string | undefined;
  private readonly tools = new Map<string, Tool>();
  private readonly extensions: Extensions;
  private readonly items: Item[];
  private readonly options: WorkerOptions;
  private paused:
    | (RunPosition & {
        /** Why the calls are answered if a new run abandons this pause (default: a pause not resumed). */
        abandonedBecause?: string;
      })
    | undefined;
  private running = false;
  private lockedFlag = false;
  private previousUsage: Usage | undefined;
  /** The structured output asked of the current (or paused) run. */
  private output: RunOutput | undefined;
  /** The spans of the current run, when tracing. */
  private trace: RunTrace | undefined;

  constructor(options: WorkerOptions) {
    super(new EventHub(options.client.scheme));
    this.options = options;
    this.client = options.client;
    this.system = options.system;
    // Seed 000: with a BlobStore, the model gets `inspect` to read stored outputs back.
    if (options.blobStore) this.tools.set(INSPECT_TOOL_NAME, createInspectTool(options.blobStore) as Tool);
    for (const t of options.tools ?? []) this.tools.set(t.name, t);
    this.extensions = extensionsOf(options.interceptors ?? [], options.hooks ?? []);
    this.items = [...(options.history ?? [])];
    // A restored history that ends in unanswered tool calls (the process stopped mid-tools) is a
    // paused run: `resume()` runs those calls, `run()` answers them as cancelled first.
    const pending = unansweredCalls(this.items);
    if (pending.length > 0)
      this.paused = {
        stage: { at: "tools", calls: pending, decisions: [], next: 0 },
        turns: 0,
        usage: {},
        ...(options.restoredRun === "interrupted" && { abandonedBecause: INTERRUPTED }),
      };
  }

  get history(): readonly Item[] {
    return this.items;
  }
  get isRunning(): boolean {
    return this.running;
  }
  get isPaused(): boolean {
    return this.paused !== undefined;
  }
  get locked(): boolean {
    return this.lockedFlag;
  }

  setSystemPrompt(system: string | undefined): void {
    this.assertMutable("setSystemPrompt");
    this.system = system;
  }
  addTool(tool: Tool): void {
    this.assertMutable("addTool");
    this.tools.set(tool.name, tool);
  }
  removeTool(name: string): void {
    this.assertMutable("removeTool");
    this.tools.delete(name);
  }
  /** Replaces the whole history (e.g. after compaction). */
  replaceHistory(items: readonly Item[]): void {
    this.assertMutable("replaceHistory");
    this.items.splice(0, this.items.length, ...items);
    this.paused = undefined;
  }

  /** Freezes the system prompt, the tools and the history prefix; see `CacheLockedWorker`. */
  lock(): CacheLockedWorker {
    this.lockedFlag = true;
    return this as unknown as CacheLockedWorker;
  }

  async run<T = unknown>(input: string | Item[], options: RunOptions<T> = {}): Promise<WorkerResult<T>> {
    return this.exclusive(options, async () => {
      this.abandonPause();
      this.output = RunOutput.of(options.output, options.repairOutput);
      const items: Item[] = typeof input === "string" ? [userMessage(input)] : [...input];
      try {
        this.hub.emit({ type: "run_start", input: textOf(items) });
      } catch (err) {
        return failed(err, {}, 0);
      }
      const submitted = await this.submitPrompt(items);
      if (submitted) return submitted;
      return this.loop({ stage: { at: "request" }, turns: 0, usage: {} }, options.signal);
    }) as Promise<WorkerResult<T>>;
  }

  /** Continues a paused run past the point that paused it, without adding a user message. */
  async resume(options: RunOptions = {}): Promise<WorkerResult> {
    const paused = this.paused;
    if (!paused) throw new Error("resume(): the worker is not paused");
    return this.exclusive(options, async () => {
      this.paused = undefined;
      return this.loop(paused, options.signal);
    });
  }

  async *stream(input: string | Item[], options?: RunOptions): AsyncIterable<WorkerEvent> {
    const events = this.hub.events((event) => event.type === "run_end");
    const done = this.run(input, options);
    done.catch(() => events.return?.());
    yield* events;
    await done;
  }

  private async exclusive(options: RunOptions, body: () => Promise<WorkerResult>): Promise<WorkerResult> {
    if (this.running) throw new Error("a run is already in progress on this worker");
    this.running = true;
    const trace =
      this.options.tracing === false ? undefined : RunTrace.start(this.client, options.traceparent);
    this.trace = trace;
    let result: WorkerResult | undefined;
    try {
      result = await body();
    } finally {
      this.running = false;
      this.trace = undefined;
      trace?.end(result);
    }
    try {
      this.hub.emit({ type: "run_end", result });
    } catch (err) {
      // The run is over, but a listener failing on its end must not pass unnoticed: the call fails.
      result = failed(err, result.usage, result.turns);
    }
    return result;
  }

  /** A new run instead of `resume()`: the calls the paused run left unanswered get an answer first. */
  private abandonPause(): void {
    const paused = this.paused;
    this.paused = undefined;
    if (paused?.stage.at === "tools")
      answerOpenCalls(
        this.items,
        paused.stage,
        paused.abandonedBecause ?? "the run was paused and not resumed",
      );
  }

  /** Prompt-submit hooks; the input enters history unless cancelled. Returns a result only if the run ends here. */
  private async submitPrompt(items: Item[]): Promise<WorkerResult | undefined> {
    const added: Item[] = [];
    // Made when the first hook asks, after the interceptors edited the input.
    let summary: PromptSummary | undefined;
    const promptSummary = (): PromptSummary => (summary ??= Object.freeze({ text: textOf(items) }));
    const steps = stepsOf<PromptAction | InterceptorPromptAction>(
      this.extensions,
      "onPromptSubmit",
      (x) => x.onPromptSubmit?.({ items }),
      async (x) => {
        const action = await x.onPromptSubmit?.(promptSummary());
        // The safe tier never adds to the context, whatever an untyped hook returns.
        if ((action as { action?: string } | undefined)?.action === "continue_with")
          throw new Error("only interceptors may add items (continue_with)");
        return action;
      },
    );
    try {
      const decided = await firstAction("onPromptSubmit", steps, {
        passThrough: (a) => {
          if (a.action !== "continue_with") return false;
          added.push(...a.items);
          return true;
        },
      });
      if (decided?.action.action === "cancel") {
        return {
          status: "cancelled",
          reason: decided.action.reason ?? "cancelled",
          by: decided.by,
          usage: {},
          turns: 0,
        };
      }
    } catch (err) {
      return failed(err, {}, 0);
    }
    this.items.push(...items, ...added);
    return undefined;
  }

  /** Runs the loop from `at`, keeping where it paused and the last response's usage. */
  private async loop(at: RunPosition, signal: AbortSignal | undefined): Promise<WorkerResult> {
    const ctx: LoopContext = {
      client: this.client,
      hub: this.hub,
      history: this.items,
      tools: this.tools,
      extensions: this.extensions,
      request: () => this.buildRequest(),
      output: this.output,
      maxTurns: this.options.maxTurns ?? 50,
      toolRun: {
        signal: signal ?? new AbortController().signal,
        defaultTimeoutMs: this.options.toolTimeoutMs ?? 120_000,
        ...(this.options.blobStore !== undefined && { blobStore: this.options.blobStore }),
        ...(this.options.toolOutput !== undefined && { toolOutput: this.options.toolOutput }),
      },
      signal,
      trace: this.trace,
      previousUsage: this.previousUsage,
    };
    try {
      const end = await runLoop(at, ctx);
      this.paused = end.paused;
      return end.result;
    } finally {
      this.previousUsage = ctx.previousUsage;
    }
  }

  private buildRequest(): Request {
    const strict = this.options.strictToolSchemas === true;
    return {
      ...this.options.generation,
      ...(this.system !== undefined && { system: this.system }),
      ...(this.output !== undefined && { responseFormat: this.output.schema.format }),
      items: [...this.items],
      ...(this.tools.size > 0 && {
        tools: [...this.tools.values()].map((t) => toolDefinition(t, { strict })),
      }),
    };
  }

  private assertMutable(method: string): void {
    if (this.lockedFlag) throw new Error(`${method}() is not allowed on a cache-locked worker`);
  }
}

/** What an unanswered call of a run that died with its process is told. */
const INTERRUPTED =
  "the run was interrupted (the process crashed or was killed) before this call was answered";

function failed(err: unknown, usage: Usage, turns: number): WorkerResult {
  return { ...failure(err), usage, turns };
}

function textOf(items: readonly Item[]): string {
  return items
    .filter((item): item is MessageItem => item.type === "message" && item.role === "user")
    .map((item) => item.text)
    .join("\n");
}
