import type { Item, ToolCallItem, ToolResultItem } from "../llm-client/item.js";
import { parseToolArguments, type ToolCall } from "../llm-client/response.js";
import type { Tool } from "../tool/tool.js";
import type { RunTrace } from "../tracing/run-trace.js";
import type { EventHub } from "./event-hub.js";
import { type Extensions, firstAction, type HookStep, stepsOf } from "./hook-runner.js";
import type {
  AfterToolAction,
  BeforeToolAction,
  InterceptorAfterToolAction,
  ToolCallSummary,
} from "./hooks.js";
import { cancelledResult, runTool, type ToolRunOptions } from "./tool-runner.js";

/** The tool calls of one response, as far as they have been decided. Kept across a pause. */
export interface ToolStage {
  calls: ToolCall[];
  /** Per call, in call order: run it, or its result is already known (skipped). */
  decisions: Array<{ run: true } | { run: false; result: ToolResultItem }>;
  /** The next call to ask the before-tool hooks about. */
  next: number;
  /** Set after a pause: the step that paused call `next` is not asked again. */
  resumeAfterStep?: number;
}

export type ToolStageOutcome =
  | { kind: "done"; results: ToolResultItem[] }
  | { kind: "paused"; reason: string; by: string; step: number }
  | { kind: "aborted"; reason: string; by: string; results: ToolResultItem[] }
  /** A hook or listener threw while tools ran: the others were stopped, every call still has a result. */
  | { kind: "failed"; error: unknown; results: ToolResultItem[] };

export interface ToolStageContext {
  tools: ReadonlyMap<string, Tool>;
  extensions: Extensions;
  hub: EventHub;
  run: ToolRunOptions;
  /** The run's spans: each call runs inside an `execute_tool` span. */
  trace?: RunTrace;
}

/**
 * Seed 001 step 4: every call goes through the before-tool hooks in the model's order; the allowed
 * ones run in parallel; each result goes through the after-tool hooks as it arrives; results come
 * back in the model's order, one for every call whatever happened.
 */
export async function runToolStage(stage: ToolStage, ctx: ToolStageContext): Promise<ToolStageOutcome> {
  for (; stage.next < stage.calls.length; stage.next++) {
    // Cancelled while hooks were being asked: the calls not yet decided never run (cancelled below).
    if (ctx.run.signal.aborted) break;
    // Decided before any hook was asked (a repeated call id): nothing to ask about.
    if (stage.decisions[stage.next] !== undefined) continue;
    const call = stage.calls[stage.next] as ToolCall;
    const skipThrough = stage.resumeAfterStep;
    stage.resumeAfterStep = undefined;
    const decided = await firstAction<BeforeToolAction>("beforeToolCall", beforeSteps(call, ctx), {
      ...(skipThrough !== undefined && { skipThrough }),
    });
    const action = decided?.action;
    if (!decided || !action || action.action === "continue") {
      stage.decisions[stage.next] = { run: true };
    } else if (action.action === "skip") {
      const reason = action.reason ?? "not allowed";
      stage.decisions[stage.next] = { run: false, result: skippedResult(call, decided.by, reason) };
    } else if (action.action === "pause") {
      return { kind: "paused", reason: action.reason ?? "paused", by: decided.by, step: decided.step };
    } else {
      const reason = action.reason ?? "aborted";
      return {
        kind: "aborted",
        reason,
        by: decided.by,
        results: stage.calls.map((c, i) => decidedResult(stage, i) ?? cancelledResult(c, reason)),
      };
    }
  }

  let abort: { reason: string; by: string } | undefined;
  let failure: unknown;
  // Stops the other tools when one call's hooks or listeners fail; the run's own signal stops them
  // too. Each call has a signal of its own, fed by one listener here rather than one per call on a
  // shared signal (eleven of those made Node warn of a listener leak).
  const running = new Set<AbortController>();
  const stop = new AbortController();
  const stopAll = (reason: unknown): void => {
    stop.abort(reason);
    for (const controller of running) controller.abort(reason);
  };
  const onRunAbort = (): void => stopAll(ctx.run.signal.reason);
  ctx.run.signal.addEventListener("abort", onRunAbort, { once: true });
  if (ctx.run.signal.aborted) stop.abort(ctx.run.signal.reason);
  const runOptions: ToolRunOptions = {
    ...ctx.run,
    onProgress: (call, text) => {
      try {
        ctx.hub.emit({ type: "tool_progress", callId: call.id, name: call.name, text });
      } catch {
        // A listener failing on progress must not fail the tool, which is still running.
      }
    },
  };
  const results = await Promise.all(
    stage.calls.map(async (call, i) => {
      const decision = stage.decisions[i];
      if (!decision?.run) return decision?.result ?? cancelledResult(call);
      let result: ToolResultItem | undefined;
      const own = new AbortController();
      if (stop.signal.aborted) own.abort(stop.signal.reason);
      running.add(own);
      try {
        ctx.hub.emit({ type: "tool_start", call });
        const started = performance.now();
        const execute = () => runTool(ctx.tools, call, { ...runOptions, signal: own.signal });
        result = await (ctx.trace ? ctx.trace.tool(call, execute) : execute());
        const after = await firstAction<AfterToolAction | InterceptorAfterToolAction>(
          "afterToolCall",
          afterSteps(result, call, ctx),
        );
        if (after?.action.action === "hide") hide(result, after.by, after.action.reason);
        else if (after?.action.action === "abort")
          abort ??= { reason: after.action.reason ?? "aborted", by: after.by };
        ctx.hub.emit({ type: "tool_end", call, result, durationMs: performance.now() - started });
        return result;
      } catch (err) {
        if (failure === undefined) failure = err;
        stopAll(err);
        return result ?? cancelledResult(call, "the run failed");
      } finally {
        running.delete(own);
      }
    }),
  );
  ctx.run.signal.removeEventListener("abort", onRunAbort);
  if (failure !== undefined) return { kind: "failed", error: failure, results };
  return abort ? { kind: "aborted", ...abort, results } : { kind: "done", results };
}

/**
 * Keeps history valid after a failure mid-tools or an abandoned pause: every call of `stage` gets an
 * answer, its decided result or a cancelled one saying `reason`.
 */
export function answerOpenCalls(items: Item[], stage: ToolStage, reason: string): void {
  // Only results after this stage's calls count: some providers reuse ids across responses.
  const firstId = stage.calls[0]?.id;
  let from = items.length;
  while (from > 0) {
    const item = items[--from] as Item;
    if (item.type === "tool_call" && item.callId === firstId) break;
  }
  const answered = new Set(
    items.slice(from).flatMap((item) => (item.type === "tool_result" ? [item.callId] : [])),
  );
  stage.calls.forEach((call, i) => {
    if (!answered.has(call.id)) items.push(decidedResult(stage, i) ?? cancelledResult(call, reason));
  });
}

/** A call's result already known before anything ran (a skip), if any. */
export function decidedResult(stage: ToolStage, index: number): ToolResultItem | undefined {
  const decision = stage.decisions[index];
  return decision && !decision.run ? decision.result : undefined;
}

function beforeSteps(call: ToolCall, ctx: ToolStageContext): HookStep<BeforeToolAction>[] {
  // Made when the first hook asks, after the interceptors: hooks see the arguments that will run.
  let frozen: ToolCallSummary | undefined;
  const summary = (): ToolCallSummary =>
    (frozen ??= Object.freeze({
      callId: call.id,
      name: call.name,
      arguments: call.parseError === undefined ? deepFreeze(structuredClone(call.arguments)) : undefined,
    }));
  return stepsOf<BeforeToolAction>(
    ctx.extensions,
    "beforeToolCall",
    (x) => x.beforeToolCall?.(call),
    (x) => x.beforeToolCall?.(summary()),
  );
}

function afterSteps(
  result: ToolResultItem,
  call: ToolCall,
  ctx: ToolStageContext,
): HookStep<AfterToolAction | InterceptorAfterToolAction>[] {
  return stepsOf<AfterToolAction | InterceptorAfterToolAction>(
    ctx.extensions,
    "afterToolCall",
    (x) => x.afterToolCall?.(result, call),
    (x) =>
      x.afterToolCall?.(
        Object.freeze({
          callId: result.callId,
          name: result.name,
          isError: result.isError === true,
          summary: result.summary,
        }),
      ),
  );
}

function skippedResult(call: ToolCall, by: string, reason: string): ToolResultItem {
  const text = `[skipped by ${by}: ${reason}] ${call.name} was not run.`;
  return {
    type: "tool_result",
    callId: call.id,
    name: call.name,
    summary: text,
    content: text,
    isError: true,
  };
}

function hide(result: ToolResultItem, by: string, reason: string | undefined): void {
  const text = `[result hidden by ${by}${reason ? `: ${reason}` : ""}]`;
  result.summary = text;
  result.content = text;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The tool calls of the last assistant turn that have no result yet. */
export function unansweredCalls(items: readonly Item[]): ToolCall[] {
  const answered = new Set<string>();
  const calls: ToolCall[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as Item;
    if (item.type === "tool_result") answered.add(item.callId);
    else if (item.type === "tool_call") {
      if (!answered.has(item.callId)) calls.unshift(toolCallOf(item));
    } else if (item.type === "message" && item.role !== "assistant") break;
  }
  return calls;
}

function toolCallOf(item: ToolCallItem): ToolCall {
  const parsed = parseToolArguments(item.arguments);
  return {
    id: item.callId,
    name: item.name,
    argumentsText: item.arguments,
    arguments: parsed.value,
    ...(parsed.error !== undefined && { parseError: parsed.error }),
    ...(item.synthesizedId && { synthesizedId: true as const }),
  };
}
