import type { Usage } from "@yoake/llm-worker";
import type { ModelPrices } from "@yoake/pod";
import { usageCost } from "../../cost.js";
import type { SessionUsage } from "./ui-state.js";

const USAGE_KEYS = [
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheCreationInputTokens",
  "reasoningTokens",
] as const;

/** The sum of two usages, field by field; a field neither has stays absent. */
export function sumUsage(a: Usage, b: Usage | undefined): Usage {
  if (b === undefined) return a;
  const out: Usage = {};
  for (const key of USAGE_KEYS) {
    const x = a[key];
    const y = b[key];
    if (x !== undefined || y !== undefined) out[key] = (x ?? 0) + (y ?? 0);
  }
  return out;
}

/** A usage snapshot of the response streaming now (providers send cumulative ones). */
export function withLiveUsage(usage: SessionUsage, snapshot: Usage): SessionUsage {
  return { ...usage, live: snapshot };
}

/**
 * A response ended: its final usage joins the total. When it carried none (cancelled before the
 * provider said), the last snapshot seen stands in, so tokens already paid for are still counted.
 */
export function foldTurnUsage(
  usage: SessionUsage,
  final: Usage | undefined,
  prices?: ModelPrices,
): SessionUsage {
  const counted = final ?? usage.live;
  const lastInputTokens = counted?.inputTokens ?? usage.lastInputTokens;
  // Priced now, at the prices of the model that answered: a later `/model` does not reprice it.
  const turnCost = counted === undefined ? 0 : usageCost(counted, prices);
  const cost = turnCost === undefined ? usage.cost : (usage.cost ?? 0) + turnCost;
  return {
    total: sumUsage(usage.total, counted),
    ...(lastInputTokens !== undefined && { lastInputTokens }),
    ...(cost !== undefined && { cost }),
    ...((usage.unpriced === true || (turnCost === undefined && counted !== undefined)) && { unpriced: true }),
  };
}

/** A session's usage as its log sums it, priced at `prices` (the model's now; none: not priced). */
export function restoredUsage(total: Usage, prices: ModelPrices | undefined): SessionUsage {
  const cost = usageCost(total, prices);
  const spent = (total.inputTokens ?? 0) + (total.outputTokens ?? 0) > 0;
  return {
    total,
    ...(cost !== undefined && { cost }),
    ...(cost === undefined && spent && { unpriced: true }),
  };
}

/** Everything counted so far, the streaming response included. */
export function sessionTotal(usage: SessionUsage): Usage {
  return sumUsage(usage.total, usage.live);
}
