import type { ToolResultItem } from "../llm-client/item.js";
import type { ToolCall } from "../llm-client/response.js";
import type { EventHub } from "./event-hub.js";
import { firstAction, type HookStep } from "./hook-runner.js";
import type {
  AfterToolAction,
  BeforeToolAction,
  Hook,
  Interceptor,
  InterceptorAfterToolAction,
} from "./hooks.js";
import type { Tool } from "./tool.js";
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
  | { kind: "aborted"; reason: string; by: string; results: ToolResultItem[] };

export interface ToolStageContext {
  tools: ReadonlyMap<string, Tool>;
  interceptors: readonly Interceptor[];
  hooks: readonly Hook[];
  names: { interceptors: string[]; hooks: string[] };
  hub: EventHub;
  run: ToolRunOptions;
}

/**
 * Seed 001 step 4: every call goes through the before-tool hooks in the model's order; the allowed
 * ones run in parallel; each result goes through the after-tool hooks as it arrives; results come
 * back in the model's order, one for every call whatever happened.
 */
export async function runToolStage(stage: ToolStage, ctx: ToolStageContext): Promise<ToolStageOutcome> {
  for (; stage.next < stage.calls.length; stage.next++) {
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
        results: stage.calls.map((c) => cancelledResult(c, reason)),
      };
    }
  }

  let abort: { reason: string; by: string } | undefined;
  const results = await Promise.all(
    stage.calls.map(async (call, i) => {
      const decision = stage.decisions[i];
      if (!decision?.run) return decision?.result ?? cancelledResult(call);
      ctx.hub.emit({ type: "tool_start", call });
      const started = performance.now();
      const result = await runTool(ctx.tools, call, ctx.run);
      const after = await firstAction<AfterToolAction | InterceptorAfterToolAction>(
        "afterToolCall",
        afterSteps(result, call, ctx),
      );
      if (after?.action.action === "hide") hide(result, after.by, after.action.reason);
      else if (after?.action.action === "abort")
        abort ??= { reason: after.action.reason ?? "aborted", by: after.by };
      ctx.hub.emit({ type: "tool_end", call, result, durationMs: performance.now() - started });
      return result;
    }),
  );
  return abort ? { kind: "aborted", ...abort, results } : { kind: "done", results };
}

function beforeSteps(call: ToolCall, ctx: ToolStageContext): HookStep<BeforeToolAction>[] {
  const summary = Object.freeze({
    callId: call.id,
    name: call.name,
    arguments: call.parseError === undefined ? deepFreeze(structuredClone(call.arguments)) : undefined,
  });
  return [
    ...ctx.interceptors.flatMap((interceptor, i) =>
      interceptor.beforeToolCall
        ? [{ name: ctx.names.interceptors[i] as string, run: () => interceptor.beforeToolCall?.(call) }]
        : [],
    ),
    ...ctx.hooks.flatMap((hook, i) =>
      hook.beforeToolCall
        ? [{ name: ctx.names.hooks[i] as string, run: () => hook.beforeToolCall?.(summary) }]
        : [],
    ),
  ];
}

function afterSteps(
  result: ToolResultItem,
  call: ToolCall,
  ctx: ToolStageContext,
): HookStep<AfterToolAction | InterceptorAfterToolAction>[] {
  return [
    ...ctx.interceptors.flatMap((interceptor, i) =>
      interceptor.afterToolCall
        ? [
            {
              name: ctx.names.interceptors[i] as string,
              run: () => interceptor.afterToolCall?.(result, call),
            },
          ]
        : [],
    ),
    ...ctx.hooks.flatMap((hook, i) =>
      hook.afterToolCall
        ? [
            {
              name: ctx.names.hooks[i] as string,
              run: () =>
                hook.afterToolCall?.(
                  Object.freeze({
                    callId: result.callId,
                    name: result.name,
                    isError: result.isError === true,
                    summary: result.summary,
                  }),
                ),
            },
          ]
        : [],
    ),
  ];
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
