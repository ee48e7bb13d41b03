import type { Usage } from "../../event.js";
import type { OpenaiChatUsage } from "./wire.js";

/**
 * Chat usage in the normalized meaning. `prompt_tokens` already counts cached tokens, so it is the
 * input as is; the cache read count is `prompt_tokens_details.cached_tokens`, or DeepSeek's
 * `prompt_cache_hit_tokens` where only that is given.
 *
 * Output includes reasoning. OpenAI counts reasoning inside `completion_tokens`; xAI leaves it out
 * and counts it only in `total_tokens`. The totals tell the two apart: when `total_tokens` equals
 * prompt + completion + reasoning (and not prompt + completion), the reasoning is added.
 */
export function normalizeOpenaiChatUsage(raw: OpenaiChatUsage): Usage {
  const usage: Usage = {};
  const input = numberOrUndefined(raw.prompt_tokens);
  const completion = numberOrUndefined(raw.completion_tokens);
  const total = numberOrUndefined(raw.total_tokens);
  const reasoning = numberOrUndefined(raw.completion_tokens_details?.reasoning_tokens);
  const cacheRead =
    numberOrUndefined(raw.prompt_tokens_details?.cached_tokens) ??
    numberOrUndefined(raw.prompt_cache_hit_tokens);
  const cacheWrite = numberOrUndefined(raw.prompt_tokens_details?.cache_write_tokens);

  if (input !== undefined) usage.inputTokens = input;
  if (completion !== undefined) {
    const reasoningOutsideCompletion =
      reasoning !== undefined &&
      reasoning > 0 &&
      input !== undefined &&
      total !== undefined &&
      total === input + completion + reasoning;
    usage.outputTokens = reasoningOutsideCompletion ? completion + reasoning : completion;
  }
  if (total !== undefined) usage.totalTokens = total;
  if (cacheRead !== undefined) usage.cacheReadInputTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheCreationInputTokens = cacheWrite;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
