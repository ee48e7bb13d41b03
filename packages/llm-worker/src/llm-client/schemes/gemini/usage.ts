import type { Usage } from "../../event.js";
import type { GeminiUsageMetadata } from "./wire.js";

/**
 * Gemini's `usageMetadata` in the shared meaning. `promptTokenCount` already includes cached
 * content, so it is the whole prompt; tool-use prompt tokens (server tool results read by the
 * model) are input too. Thoughts are output, reported apart from `candidatesTokenCount`.
 * Gemini has no cache writes in a generate call, so `cacheCreationInputTokens` stays unset.
 */
export function normalizeUsage(raw: GeminiUsageMetadata): Usage {
  const usage: Usage = {};
  const prompt = count(raw.promptTokenCount);
  const toolUse = count(raw.toolUsePromptTokenCount);
  if (prompt !== undefined || toolUse !== undefined) usage.inputTokens = (prompt ?? 0) + (toolUse ?? 0);
  const candidates = count(raw.candidatesTokenCount);
  const thoughts = count(raw.thoughtsTokenCount);
  if (candidates !== undefined || thoughts !== undefined)
    usage.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  const cached = count(raw.cachedContentTokenCount);
  if (cached !== undefined) usage.cacheReadInputTokens = cached;
  const total = count(raw.totalTokenCount);
  if (total !== undefined) usage.totalTokens = total;
  return usage;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
