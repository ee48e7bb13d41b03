import type { UsageEvent } from "../../event.js";

/**
 * The normalized usage of an Anthropic usage object. Anthropic's `input_tokens` is only the uncached
 * part of the prompt, so the whole prompt is it plus cache reads plus cache writes.
 */
export function normalizeAnthropicUsage(raw: Readonly<Record<string, unknown>>): Omit<UsageEvent, "type"> {
  const uncached = count(raw.input_tokens);
  const cacheRead = count(raw.cache_read_input_tokens);
  const cacheCreation = count(raw.cache_creation_input_tokens);
  const output = count(raw.output_tokens);
  const details = raw.output_tokens_details as { thinking_tokens?: unknown } | null | undefined;
  const reasoning = details ? count(details.thinking_tokens) : undefined;

  const usage: Omit<UsageEvent, "type"> = { raw };
  if (uncached !== undefined || cacheRead !== undefined || cacheCreation !== undefined)
    usage.inputTokens = (uncached ?? 0) + (cacheRead ?? 0) + (cacheCreation ?? 0);
  if (output !== undefined) usage.outputTokens = output;
  if (usage.inputTokens !== undefined && output !== undefined) usage.totalTokens = usage.inputTokens + output;
  if (cacheRead !== undefined) usage.cacheReadInputTokens = cacheRead;
  if (cacheCreation !== undefined) usage.cacheCreationInputTokens = cacheCreation;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * The usage after a `message_delta`: its counts are cumulative, so every non-null field replaces
 * the one before. A new object, so that usage events already emitted keep their snapshot.
 */
export function overlayUsage(
  base: Readonly<Record<string, unknown>> | undefined,
  delta: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...base };
  for (const key in delta) {
    const value = delta[key];
    if (value !== null && value !== undefined) next[key] = value;
  }
  return next;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
