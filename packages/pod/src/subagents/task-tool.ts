import { type Tool, tool, type Usage } from "@yoake/llm-worker";
import { addUsage } from "@yoake/llm-worker/internal";
import { z } from "zod";
import type { Pod, PodRunResult } from "../pod.js";
import type { TaskSlots } from "./task-limits.js";

/** What a `task` call asks for. */
export interface TaskRequest {
  description: string;
  prompt: string;
  write: boolean;
  model?: string;
  maxTurns?: number;
  maxTokens?: number;
}

/**
 * What a sub-agent is doing, as its parent tells its listeners (under the parent's `task` call id):
 * enough for a UI to show each of the child's tool calls as a folded card under that call, not the
 * child's text, which only its answer carries.
 */
export type SubagentActivity =
  | { state: "started"; sessionId: string }
  /** A tool call of the child began: `tool` is its label (`grep logs/server.log`), `toolCallId` the child's id of it. */
  | { state: "tool"; tool: string; toolCallId: string }
  /** That tool call ended. */
  | { state: "tool_end"; toolCallId: string; isError: boolean }
  | { state: "ended"; status: PodRunResult["status"] };

/** How the parent makes a child, and reads back its log's last MAC once closed. */
export interface TaskParent {
  slots: TaskSlots;
  /** Tells the parent's listeners what the child of call `callId` does (the UI shows it folded). */
  report(callId: string, description: string, activity: SubagentActivity): void;
  /** Refuses (throws, saying why) a request the parent cannot grant, e.g. writes it may not make. */
  spawn(request: TaskRequest): Promise<Pod>;
  finalHash(sessionId: string): Promise<string | undefined>;
}

/** The name the model calls sub-agents by. */
export const TASK_TOOL = "task";

const input = z.object({
  description: z.string().min(1).describe("A few words on what the sub-agent does (shown to the user)."),
  prompt: z
    .string()
    .min(1)
    .describe("The whole task: the sub-agent sees nothing of this conversation, so say everything it needs."),
  write: z
    .boolean()
    .default(false)
    .describe("Let it write files (only where you may write); read-only otherwise."),
  model: z.string().optional().describe("provider/model for it; your own model when left out."),
  max_turns: z.number().int().positive().optional().describe("The most model requests it may make."),
  max_tokens: z.number().int().positive().optional().describe("The most tokens (in and out) it may use."),
});

/**
 * `task`: runs a self-contained piece of work in a child Pod (see `TaskParent.spawn`) and returns
 * its answer, with the child's session id and the MAC of its log's last line, so the parent's log
 * links to the child's. Several calls in one turn run in parallel within the parent's caps
 * (`TaskSlots`); cancelling the parent's run cancels the children; a child past its token budget
 * is cancelled and its partial state reported.
 */
export function createTaskTool(parent: TaskParent): Tool {
  return tool({
    name: TASK_TOOL,
    description:
      "Start a sub-agent for a self-contained piece of work (research across many files, a review, a focused change) " +
      "and get its answer. It has its own context and tools, read-only unless write is true. Several task calls in " +
      "one turn run in parallel.",
    input,
    // A child's run has its own limits; the Worker's per-tool timeout must not cut it short.
    timeoutMs: 60 * 60 * 1000,
    execute: async (args, context) => {
      const release = await parent.slots.acquire(context.signal);
      // A call refused before its child starts does not count against the session's allowance.
      let started = false;
      try {
        const child = await parent.spawn({
          description: args.description,
          prompt: args.prompt,
          write: args.write,
          ...(args.model !== undefined && { model: args.model }),
          ...(args.max_turns !== undefined && { maxTurns: args.max_turns }),
          ...(args.max_tokens !== undefined && { maxTokens: args.max_tokens }),
        });
        let overBudget = false;
        // Usage events are cumulative within one response; finished responses are added at turn end.
        let ended: Usage = {};
        const check = (current: Usage) => {
          const total = addUsage(ended, current);
          const used = (total.inputTokens ?? 0) + (total.outputTokens ?? 0);
          if (args.max_tokens !== undefined && used > args.max_tokens && !overBudget) {
            overBudget = true;
            child.cancel();
          }
        };
        const report = (activity: SubagentActivity) =>
          parent.report(context.callId, args.description, activity);
        started = true;
        report({ state: "started", sessionId: child.sessionId });
        const offs = [
          child.on("tool_start", ({ call }) =>
            report({ state: "tool", tool: toolLabel(call.name, call.arguments), toolCallId: call.id }),
          ),
          child.on("tool_end", ({ call, result }) =>
            report({ state: "tool_end", toolCallId: call.id, isError: result.isError === true }),
          ),
          child.on("usage", ({ usage }) => check(usage)),
          child.on("turn_end", ({ response }) => {
            ended = addUsage(ended, response.usage ?? {});
            check({});
          }),
        ];
        const stopUsage = () => {
          for (const off of offs) off();
        };
        const cancel = () => child.cancel();
        context.signal.addEventListener("abort", cancel, { once: true });
        let result: PodRunResult;
        try {
          result = await child.run(args.prompt, { signal: context.signal });
        } finally {
          context.signal.removeEventListener("abort", cancel);
          stopUsage();
          await child.close();
        }
        report({ state: "ended", status: result.status });
        const hash = await parent.finalHash(child.sessionId);
        const link = `[sub-agent session ${child.sessionId}${hash === undefined ? "" : `, last hash ${hash}`}]`;
        if (result.status === "finished") return `${result.text}\n\n${link}`;
        const why = overBudget
          ? `it went over its budget of ${args.max_tokens} tokens`
          : result.status === "failed"
            ? `it failed: ${result.error.message}`
            : result.status === "paused"
              ? "it stopped to ask for an approval it cannot get"
              : "it was cancelled";
        throw new Error(`the sub-agent did not finish: ${why} ${link}`);
      } finally {
        release(started);
      }
    },
  });
}

/** `grep logs/server.log`: the tool and the path it works on, when it names one. */
function toolLabel(name: string, args: unknown): string {
  const target = typeof args === "object" && args !== null ? (args as { path?: unknown }).path : undefined;
  return typeof target === "string" ? `${name} ${target}` : name;
}
