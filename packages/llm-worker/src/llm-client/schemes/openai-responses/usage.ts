import type { UsageEvent } from "../../event.js";
import type { WireUsage } from "./wire.js";

/**
 * The Responses usage object in the normalized meaning. `input_tokens` already counts cached
 * tokens (unlike Anthropic, nothing is added) and `output_tokens` counts reasoning; `raw` is the
 * provider's object, unchanged.
 */
export function normalizeUsage(usage: WireUsage): Omit<UsageEvent, "type"> {
  const input = usage.input_tokens_details ?? undefined;
  const output = usage.output_tokens_details ?? undefined;
  return {
    ...(typeof usage.input_tokens === "number" && { inputTokens: usage.input_tokens }),
    ...(typeof usage.output_tokens === "number" && { outputTokens: usage.output_tokens }),
    ...(typeof usage.total_tokens === "number" && { totalTokens: usage.total_tokens }),
    ...(typeof input?.cached_tokens === "number" && { cacheReadInputTokens: input.cached_tokens }),
    // Not in the API reference, but some deployments report prompt-cache writes here.
    ...(typeof input?.cache_write_tokens === "number" && {
      cacheCreationInputTokens: input.cache_write_tokens,
    }),
    ...(typeof output?.reasoning_tokens === "number" && { reasoningTokens: output.reasoning_tokens }),
    raw: usage,
  };
}
