import type { Usage } from "@yoake/llm-worker";
import type { ModelPrices } from "@yoake/pod";

const PER_MILLION = 1_000_000;

/**
 * What `usage` cost in US dollars at the catalogue's (or the manifest's) list prices, or
 * `undefined` when the model has no prices or nothing was reported. `inputTokens` includes cache
 * reads and writes (the normalized meaning): those parts are billed at their own prices, or at the
 * input price where the model lists none.
 */
export function usageCost(usage: Usage, prices: ModelPrices | undefined): number | undefined {
  if (prices === undefined) return undefined;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheCreationInputTokens ?? 0;
  const uncachedInput = Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite);
  const dollars =
    uncachedInput * prices.input +
    cacheRead * (prices.cacheRead ?? prices.input) +
    cacheWrite * (prices.cacheWrite ?? prices.input) +
    (usage.outputTokens ?? 0) * prices.output;
  return dollars / PER_MILLION;
}

/** `$0.0123`: four decimals, since one headless run often costs less than a cent. */
export function formatCost(dollars: number): string {
  return `$${dollars.toFixed(4)}`;
}
