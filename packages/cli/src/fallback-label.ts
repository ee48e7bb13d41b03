import type { WorkerEventOf } from "@yoake/llm-worker/internal";

/**
 * One line for a switch of models, for progress lines and the terminal UI:
 * `switched to openai-responses/gpt-5: anthropic/claude-x failed (anthropic: 529 Overloaded);
 * ~12,345 prompt tokens without a cache`.
 */
export function fallbackLabel(
  event: Pick<WorkerEventOf<"fallback">, "from" | "to" | "reason" | "error" | "coldCacheTokens">,
): string {
  const name = (ref: { scheme: string; model: string }): string => `${ref.scheme}/${ref.model}`;
  const why =
    event.reason === "error"
      ? `${name(event.from)} failed (${event.error?.message ?? "unknown error"})`
      : `trying the first model again after its cool-down`;
  const cold = `~${event.coldCacheTokens.toLocaleString("en-US")} prompt tokens without a cache`;
  return `switched to ${name(event.to)}: ${why}; ${cold}`;
}
