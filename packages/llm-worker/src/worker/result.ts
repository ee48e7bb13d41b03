import type { ErrorInfo, Usage } from "../llm-client/event.js";
import type { Response, ToolCall } from "../llm-client/response.js";
import type { OutputIssue } from "../structured/output-schema.js";

/**
 * How a run ended. In every case the history is consistent: each tool call has a result, so the
 * next `run` (or `resume`, when paused) works.
 */
export type WorkerResult<T = unknown> =
  | FinishedResult<T>
  /** A hook paused the run; `resume()` continues it without a new user message. */
  | {
      status: "paused";
      reason: string;
      by: string;
      pendingToolCalls: ToolCall[];
      usage: Usage;
      turns: number;
    }
  /** The signal was aborted, or a hook cancelled or aborted the run (`by` names it). */
  | { status: "cancelled"; reason: string; by: string; usage: Usage; turns: number }
  | { status: "failed"; error: WorkerError; usage: Usage; turns: number };

/**
 * A run that ended with the model's answer. With an output schema (`RunOptions.output`), `output` is
 * the validated answer, typed from the schema.
 */
export type FinishedResult<T = unknown> = {
  status: "finished";
  text: string;
  usage: Usage;
  turns: number;
  response: Response;
} & (unknown extends T ? { output?: unknown } : { output: T });

export type WorkerError =
  /** The provider or the connection failed. */
  | { kind: "llm"; message: string; error: ErrorInfo }
  /** A hook, interceptor or event handler threw. */
  | { kind: "hook"; hook: string; stage: string; message: string }
  /** The run reached `maxTurns` requests (turn-end continuations count too). */
  | { kind: "max_turns"; message: string; maxTurns: number }
  /**
   * The final answer does not match the run's output schema (after the repair, if one was
   * allowed): the answer as the model wrote it, and what is wrong with it.
   */
  | { kind: "invalid_output"; message: string; text: string; issues: OutputIssue[] };

/** Adds usage of one response to a running total (cache breakdown included). */
export function addUsage(total: Usage, add: Usage | undefined): Usage {
  if (!add) return total;
  const sum = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  const out: Usage = {};
  for (const key of [
    "inputTokens",
    "outputTokens",
    "totalTokens",
    "cacheReadInputTokens",
    "cacheCreationInputTokens",
    "reasoningTokens",
  ] as const) {
    const value = sum(total[key], add[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
