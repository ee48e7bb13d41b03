import type { Usage } from "@yoake/llm-worker";
import type { Manifest, PodRunResult } from "@yoake/pod";

/** A tool call the headless run refused because it needed the user's approval. */
export interface DeniedCall {
  tool: string;
  callId: string;
  reason: string;
}

/**
 * What `--output-format json` prints, and the last line of `stream-json`: how the run ended, the
 * answer, what it cost. `text` is the final answer (the model's last response); empty unless
 * the run finished. Keyed `event` like the protocol events `stream-json` prints before it.
 */
export interface RunSummary {
  event: "result";
  status: PodRunResult["status"];
  isError: boolean;
  text: string;
  /** Model requests made. */
  turns: number;
  /**
   * Summed over the run's requests, with the same keys for every provider (0 where it reported
   * nothing): `inputTokens` includes cache reads and writes, `outputTokens` includes reasoning,
   * `totalTokens` is the two added.
   */
  usage: Required<Usage>;
  /** US dollars at list prices; absent when the model has no prices in the catalogue or manifest. */
  costUsd?: number;
  /** `provider/model` as configured, or `scheme/id`. */
  model: string;
  /** The session the run was logged in, when the Pod keeps one. */
  sessionId?: string;
  durationMs: number;
  /** With `--output-schema`: the validated answer (`text` is the answer as the model wrote it). */
  structured_output?: unknown;
  /**
   * Why the run did not finish; `resetAt` (ISO 8601) when a provider limit refused it and said when
   * it lifts (`quota_exhausted`, `rate_limit`): the time to schedule the run again.
   */
  error?: { kind: string; message: string; resetAt?: string };
  /** Calls refused because approvals cannot be asked in headless mode (absent when none). */
  deniedCalls?: DeniedCall[];
}

/** The model as the summary names and prices it. */
export type SummaryModel = Pick<Manifest["model"], "scheme" | "id"> &
  Partial<Pick<Manifest["model"], "ref" | "prices">>;

export interface SummaryContext {
  manifest: { readonly model: SummaryModel };
  durationMs: number;
  deniedCalls: readonly DeniedCall[];
  sessionId?: string | undefined;
  /** The run's cost, priced turn by turn by the model that answered (`RunCostMeter`). */
  costUsd?: number | undefined;
}

/** Builds the summary of a run that has stopped. */
export function runSummary(result: PodRunResult, context: SummaryContext): RunSummary {
  const { manifest } = context;
  const cost = context.costUsd;
  const error = failureOf(result);
  return {
    event: "result",
    status: result.status,
    isError: result.status !== "finished",
    text: result.status === "finished" ? result.text : "",
    ...(result.status === "finished" && result.output !== undefined && { structured_output: result.output }),
    turns: result.turns,
    usage: fullUsage(result.usage),
    ...(cost !== undefined && { costUsd: cost }),
    model: manifest.model.ref ?? `${manifest.model.scheme}/${manifest.model.id}`,
    ...(context.sessionId !== undefined && { sessionId: context.sessionId }),
    durationMs: context.durationMs,
    ...(error !== undefined && { error }),
    ...(context.deniedCalls.length > 0 && { deniedCalls: [...context.deniedCalls] }),
  };
}

/** The one-line reason a run did not finish, or undefined when it did. */
export function failureOf(
  result: PodRunResult,
): { kind: string; message: string; resetAt?: string } | undefined {
  switch (result.status) {
    case "finished":
      return undefined;
    case "failed":
      return {
        kind: result.error.kind === "llm" ? result.error.error.kind : result.error.kind,
        message: result.error.message,
        ...(result.error.kind === "llm" &&
          result.error.error.resetAt !== undefined && { resetAt: result.error.error.resetAt }),
      };
    case "cancelled":
      return { kind: "cancelled", message: `cancelled by ${result.by}: ${result.reason}` };
    case "paused":
      return {
        kind: "paused",
        message: `the run paused (${result.by}: ${result.reason}) and headless mode cannot resume it`,
      };
  }
}

/** Every usage key, 0 where the provider reported nothing. */
export function fullUsage(usage: Usage): Required<Usage> {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: usage.cacheCreationInputTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0,
  };
}
