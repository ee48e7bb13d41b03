/**
 * The agent loop (seed 001 lifecycle) as a free function over plain data: where the run stands
 * (`RunPosition`), what it works on (`LoopContext`), and one sink for everything it tells the
 * outside (the `EventHub`). It reads top to bottom as one round: ask the pre-request hooks, stream
 * the response, then either run its tool calls or ask the turn-end hooks and judge the answer.
 * The Worker owns the state between runs; this owns none.
 */
import type { LlmClient } from "../llm-client/client.js";
import type { Usage } from "../llm-client/event.js";
import type { Item } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import type { Response, ToolCall } from "../llm-client/response.js";
import type { Tool } from "../tool/tool.js";
import type { RunTrace } from "../tracing/run-trace.js";
import { separateDuplicateCalls } from "./duplicate-calls.js";
import type { EventHub } from "./event-hub.js";
import { type Extensions, firstAction, HookError, stepsOf } from "./hook-runner.js";
import type { PreRequestAction, RequestSummary, TurnEndAction } from "./hooks.js";
import { addUsage, type WorkerResult } from "./result.js";
import type { RunOutput } from "./run-output.js";
import { streamTurn } from "./stream-turn.js";
import type { ToolRunOptions } from "./tool-runner.js";
import { answerOpenCalls, runToolStage, type ToolStage } from "./tool-stage.js";

/** What comes next in a run: a request (after the hook step that paused it), or tool calls. */
export type Stage = { at: "request"; resumeAfterStep?: number } | ({ at: "tools" } & ToolStage);

/** Where a run stands: what comes next, the requests made and the usage so far. A pause keeps it. */
export interface RunPosition {
  stage: Stage;
  turns: number;
  usage: Usage;
  /** The provider paused its server-tool turn and the loop is continuing it (see `continuation`). */
  pausedTurn?: PausedTurn;
}

/** A paused turn being continued: how many responses in a row paused, and their text so far. */
export interface PausedTurn {
  pauses: number;
  text: string;
}

/**
 * How many paused responses in a row the loop continues. Anthropic pauses a turn after some
 * iterations of its server tools (ten by default); a provider that pauses every response would
 * otherwise spend the whole `maxTurns` budget without an answer.
 */
export const MAX_PAUSED_CONTINUATIONS = 5;

/** What one run works on. `history` is the Worker's own list, appended to as the run goes. */
export interface LoopContext {
  client: LlmClient;
  /** The one sink: WorkerEvents to listeners, provider events through the Timeline. */
  hub: EventHub;
  history: Item[];
  tools: ReadonlyMap<string, Tool>;
  extensions: Extensions;
  /** The next request, from the history as it is now. */
  request: () => Request;
  output: RunOutput | undefined;
  maxTurns: number;
  toolRun: ToolRunOptions;
  signal: AbortSignal | undefined;
  trace: RunTrace | undefined;
  /** The last response's usage, for `onPreRequest`; the loop updates it. */
  previousUsage: Usage | undefined;
}

/** How a run stopped; `paused` is where `resume()` goes on from. */
export interface LoopEnd {
  result: WorkerResult;
  paused?: RunPosition;
}

type Outcome = WorkerResult extends infer R
  ? R extends unknown
    ? Omit<R, "usage" | "turns">
    : never
  : never;

const BY_CALLER = { status: "cancelled", reason: "aborted by the caller", by: "signal" } as const;

/** A round that did not end the run says what comes next; one that did, how it ended. */
type Next = { next: Stage } | LoopEnd;

/** Runs from `start` until the model answers, a hook stops or pauses the run, or it fails. */
export async function runLoop(start: RunPosition, ctx: LoopContext): Promise<LoopEnd> {
  const at: RunPosition = { ...start };
  try {
    for (;;) {
      if (ctx.signal?.aborted) return ended(at, BY_CALLER);
      const round = at.stage.at === "tools" ? await toolRound(at, at.stage, ctx) : await modelRound(at, ctx);
      if (!("next" in round)) return round;
      at.stage = round.next;
    }
  } catch (err) {
    ctx.hub.abortOpenBlock(err instanceof Error ? err.message : "failed");
    if (at.stage.at === "tools") answerOpenCalls(ctx.history, at.stage, "the run failed");
    return ended(at, failure(err));
  }
}

/** The run's result at `at`; with `pausedAt`, where `resume()` goes on from. */
function ended(at: RunPosition, outcome: Outcome, pausedAt?: Stage): LoopEnd {
  const result = { ...outcome, usage: at.usage, turns: at.turns } as WorkerResult;
  if (!pausedAt) return { result };
  const { pausedTurn } = at;
  return {
    result,
    paused: { stage: pausedAt, turns: at.turns, usage: at.usage, ...(pausedTurn && { pausedTurn }) },
  };
}

/** The tool calls of a response, through the tool hooks; their results enter history. */
async function toolRound(at: RunPosition, stage: ToolStage, ctx: LoopContext): Promise<Next> {
  const { tools, extensions, hub, trace } = ctx;
  const outcome = await runToolStage(stage, {
    tools,
    extensions,
    hub,
    run: ctx.toolRun,
    ...(trace !== undefined && { trace }),
  });
  if (outcome.kind === "paused") {
    const paused = pausedBy(outcome.reason, outcome.by, stage.calls.slice(stage.next));
    return ended(at, paused, { at: "tools", ...stage, resumeAfterStep: outcome.step });
  }
  ctx.history.push(...outcome.results);
  if (outcome.kind === "failed") return ended(at, failure(outcome.error));
  if (outcome.kind === "aborted")
    return ended(at, { status: "cancelled", reason: outcome.reason, by: outcome.by });
  return { next: { at: "request" } };
}

/** One request: the pre-request hooks, the response streamed, then what it asks for. */
async function modelRound(at: RunPosition, ctx: LoopContext): Promise<Next> {
  if (at.turns >= ctx.maxTurns) {
    const message = `stopped after ${ctx.maxTurns} requests in one run (maxTurns); the history is intact, run again to go on`;
    return ended(at, { status: "failed", error: { kind: "max_turns", message, maxTurns: ctx.maxTurns } });
  }
  const request = ctx.request();
  const resumeAfterStep = at.stage.at === "request" ? at.stage.resumeAfterStep : undefined;
  const pre = await preRequest(ctx, request, at, resumeAfterStep);
  if (pre?.action.action === "cancel")
    return ended(at, { status: "cancelled", reason: pre.action.reason ?? "cancelled", by: pre.by });
  if (pre?.action.action === "yield") {
    const paused = pausedBy(pre.action.reason ?? "yielded", pre.by);
    return ended(at, paused, { at: "request", resumeAfterStep: pre.step });
  }

  const response = await streamResponse(ctx, request, ++at.turns);
  // Before anyone sees the response whole: listeners and the history get the same call ids.
  const duplicates = separateDuplicateCalls(response);
  at.usage = addUsage(at.usage, response.usage);
  ctx.previousUsage = response.usage;
  ctx.hub.emit({ type: "turn_end", turn: at.turns, response });
  if (response.status === "cancelled") {
    // Partial text is kept; a half-received reasoning block or tool call could not be sent back.
    ctx.history.push(...response.items.filter((item) => item.type === "message" && item.text !== ""));
    return ended(at, BY_CALLER);
  }
  if (response.status === "failed") {
    const error = response.error ?? { kind: "stream" as const, message: "the response failed" };
    return ended(at, { status: "failed", error: { kind: "llm", message: error.message, error } });
  }
  ctx.history.push(...response.items);
  const pausedTurn = at.pausedTurn;
  delete at.pausedTurn;
  if (response.stopReason === "pause_turn" && response.toolCalls.length === 0) {
    const continued = continuation(pausedTurn, response);
    if (continued.pauses <= MAX_PAUSED_CONTINUATIONS) {
      at.pausedTurn = continued;
      return { next: { at: "request" } };
    }
  }
  if (response.toolCalls.length > 0) {
    const decisions: ToolStage["decisions"] = [];
    for (const [i, result] of duplicates) decisions[i] = { run: false, result };
    return { next: { at: "tools", calls: response.toolCalls, decisions, next: 0 } };
  }
  // A continued turn's answer is everything the model said in it, the paused parts first.
  return answerRound(at, response, ctx, (pausedTurn?.text ?? "") + response.text);
}

/**
 * The provider paused a long server-tool turn (`pause_turn`): its content is already in history,
 * last, so the next request, with no message added, lets the model go on where it stopped (as
 * Anthropic documents). Each continuation is a turn of its own. After `MAX_PAUSED_CONTINUATIONS`
 * pauses in a row the response is taken as the answer; the history keeps the paused content, so a
 * later run continues from it.
 */
function continuation(before: PausedTurn | undefined, response: Response): PausedTurn {
  return { pauses: (before?.pauses ?? 0) + 1, text: (before?.text ?? "") + response.text };
}

/** An answer with no tool calls: the turn-end hooks may continue or pause; else `text` is judged. */
async function answerRound(
  at: RunPosition,
  response: Response,
  ctx: LoopContext,
  text: string,
): Promise<Next> {
  const after = await turnEnd(ctx, text, at.turns);
  if (after?.action.action === "continue") {
    ctx.history.push(...after.action.items);
    return { next: { at: "request" } };
  }
  if (after?.action.action === "pause") {
    return ended(at, pausedBy(after.action.reason ?? "paused", after.by), { at: "request" });
  }
  const verdict = ctx.output?.judge(text);
  if (verdict?.kind === "repair") {
    ctx.history.push(verdict.message);
    return { next: { at: "request" } };
  }
  if (verdict?.kind === "invalid") return ended(at, { status: "failed", error: verdict.error });
  const output = verdict?.kind === "valid" ? { output: verdict.value } : {};
  return ended(at, { status: "finished", text, response, ...output });
}

function pausedBy(reason: string, by: string, pendingToolCalls: ToolCall[] = []): Outcome {
  return { status: "paused", reason, by, pendingToolCalls };
}

/**
 * A HookError (a hook, interceptor or listener threw) ends the run as failed, naming it; anything
 * else is a bug of ours and is thrown.
 */
export function failure(err: unknown): Extract<Outcome, { status: "failed" }> {
  if (err instanceof HookError) {
    return {
      status: "failed",
      error: { kind: "hook", hook: err.hook, stage: err.stage, message: err.message },
    };
  }
  throw err;
}

async function streamResponse(ctx: LoopContext, request: Request, turn: number): Promise<Response> {
  ctx.hub.emit({ type: "turn_start", turn });
  ctx.trace?.turn(turn);
  const { client, hub, signal, trace } = ctx;
  const send = () => streamTurn({ client, hub, request, turn, signal, trace });
  return trace ? trace.request(request, send) : send();
}

function preRequest(ctx: LoopContext, request: Request, at: RunPosition, skipThrough: number | undefined) {
  const turn = at.turns + 1;
  const usage = at.usage;
  // Made when the first hook asks, after the interceptors: `itemCount` is what will be sent.
  let frozen: RequestSummary | undefined;
  const summary = (): RequestSummary =>
    (frozen ??= Object.freeze({
      turn,
      itemCount: request.items.length,
      inputTokensSoFar: usage.inputTokens ?? 0,
    }));
  const steps = stepsOf<PreRequestAction>(
    ctx.extensions,
    "onPreRequest",
    async (x) => {
      const action = await x.onPreRequest?.({ request, turn, usage, previousUsage: ctx.previousUsage });
      // A projection (prune) replaces what this request sends; history itself never changes.
      if (action?.action !== "project") return action;
      request.items = [...action.items];
      return undefined;
    },
    (x) => x.onPreRequest?.(summary()),
  );
  return firstAction("onPreRequest", steps, { ...(skipThrough !== undefined && { skipThrough }) });
}

function turnEnd(ctx: LoopContext, text: string, turn: number) {
  const summary = Object.freeze({ turn, text });
  const steps = stepsOf<TurnEndAction>(
    ctx.extensions,
    "onTurnEnd",
    (x) => x.onTurnEnd?.({ items: ctx.history, text, turn }),
    (x) => x.onTurnEnd?.(summary),
  );
  return firstAction("onTurnEnd", steps, { neutral: (a) => a.action === "finish" });
}
