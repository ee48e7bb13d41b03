import type { Item } from "../llm-client/item.js";
import { hasContent, withoutContent } from "./prune.js";
import { estimateItemTokens, type ItemTokenCounter } from "./tokens.js";

/**
 * The cache-aware prune decision. A prune is not free: the provider caches the prompt as a
 * prefix, so changing an item invalidates the cache from that item on, and everything after the
 * first pruned item that was a cheap cache read must be written to the cache again, at a premium.
 * What it buys is that every later request sends the pruned tokens no more. So prune when the
 * saving over the coming requests outweighs the rewrite now, and then prune everything prunable
 * at once, so the prefix moves rarely.
 *
 * Paying is not enough: pruning two results now and two more a little later rewrites the suffix
 * twice, where waiting would have rewritten it once. When to stop waiting is the rent-or-buy
 * (ski rental) problem: keeping the candidates costs `savingPerRequest` on every request (rent),
 * pruning costs `costNow` once (buy). Buying once the rent paid reaches the price is the classic
 * answer: for one such choice it never costs more than twice what knowing the future would have,
 * and it needs no forecast of the coming requests.
 */

/**
 * Prompt prices relative to the price of an uncached input token (1). Anthropic's defaults: a
 * 5-minute cache write costs 1.25x, a cache read 0.1x (a 1-hour write costs 2x). OpenAI: write
 * 1, read 0.5 to 0.1 by model; Gemini implicit caching: write 1, read 0.25 or 0.1. A provider
 * without caching: both 1, and then every prune that removes tokens pays.
 */
export interface CachePricing {
  cacheWrite: number;
  cacheRead: number;
}

export const ANTHROPIC_CACHE_PRICING: Readonly<CachePricing> = Object.freeze({
  cacheWrite: 1.25,
  cacheRead: 0.1,
});

/** What a prune of given candidates would change, in tokens. */
export interface PruneMeasure {
  /** Index of the first pruned item: the cache is invalidated from here on. -1 if none. */
  firstIndex: number;
  /** Tokens the prune removes inside the cached prefix (content minus the summary shown instead). */
  prunedCachedTokens: number;
  /** Tokens the prune removes from items added since the cached request. */
  prunedNewTokens: number;
  /** Cached tokens from the first pruned item on that stay and must be written again. */
  rewriteTokens: number;
}

/**
 * Measures a prune of `candidates` (tool results with content) in `items`, of which the first
 * `cachedItemCount` were the prompt of the last request and are in the provider's cache.
 */
export function measurePrune(
  items: readonly Item[],
  candidates: readonly number[],
  cachedItemCount: number,
  tokensOf: ItemTokenCounter = estimateItemTokens,
): PruneMeasure {
  const pruned = new Set<number>();
  let prunedCachedTokens = 0;
  let prunedNewTokens = 0;
  let firstIndex = -1;
  for (const i of candidates) {
    const item = items[i];
    if (item === undefined || !hasContent(item) || pruned.has(i)) continue;
    pruned.add(i);
    const removed = Math.max(0, tokensOf(item) - tokensOf(withoutContent(item)));
    if (i < cachedItemCount) prunedCachedTokens += removed;
    else prunedNewTokens += removed;
    if (firstIndex === -1 || i < firstIndex) firstIndex = i;
  }
  let rewriteTokens = 0;
  if (firstIndex !== -1) {
    const cachedEnd = Math.min(cachedItemCount, items.length);
    for (let i = firstIndex; i < cachedEnd; i++) {
      const item = items[i];
      if (item !== undefined) rewriteTokens += tokensOf(item);
    }
    rewriteTokens -= prunedCachedTokens;
  }
  return { firstIndex, prunedCachedTokens, prunedNewTokens, rewriteTokens };
}

/** What the decision depends on besides the measure. */
export interface PrunePlanOptions {
  /** Prune only if it removes at least this many tokens (`PruneConfig.minSavings`). */
  minSavings: number;
  /**
   * How many more requests will carry the pruned context (K). An estimate:
   * `TokenAccountant.expectedFutureRequests()` gives one from the session's requests per turn.
   */
  expectedFutureRequests: number;
  /** Defaults to `ANTHROPIC_CACHE_PRICING`. */
  pricing?: CachePricing;
  /**
   * Whether the cached prefix is still in the provider's cache (default true). When it has
   * expired, every token is written anyway and the rewrite costs nothing extra.
   */
  prefixCached?: boolean;
  /**
   * What keeping the current candidates has cost so far: the sum of `savingPerRequest` over the
   * earlier requests that sent them unpruned. When given, a prune that pays still waits until
   * this reaches `costNow` (rent-or-buy). `ContextPruner` keeps this figure.
   */
  waitingCostSoFar?: number;
  /** The estimated size of the next prompt; compared with `pressureTokens`. */
  contextTokens?: number;
  /**
   * Above this prompt size, prune whenever the saving reaches `minSavings`, paying or not: the
   * alternative near the context window is compaction or a failed request. Off by default.
   */
  pressureTokens?: number;
}

export type PruneReason =
  /** No candidate carries content. */
  | "nothing_prunable"
  /** The saving is below `minSavings`: wait for more. */
  | "below_min_savings"
  /** The rewrite now costs more than the coming requests save: wait. */
  | "does_not_pay"
  /** It pays, but waiting has not yet cost as much as the rewrite: collect more first. */
  | "waiting"
  /** The coming requests save more than the rewrite costs, and waiting has cost as much. */
  | "pays"
  /** It does not pay, but the prompt is above `pressureTokens`. */
  | "context_pressure";

/** A prune decision with the figures behind it. Costs are in uncached-input-token units. */
export interface PruneDecision {
  prune: boolean;
  reason: PruneReason;
  /** Tokens removed from every request from now on. */
  savedTokens: number;
  /** What pruning adds to the cost of this request (negative: this request is cheaper too). */
  costNow: number;
  /** What each later request saves. */
  savingPerRequest: number;
  /** `expectedFutureRequests * savingPerRequest - costNow`. */
  netBenefit: number;
  /** Later requests needed before the prune has paid for itself (0 when it pays at once). */
  breakEvenRequests: number;
}

/**
 * Decides whether to apply a measured prune. This request without the prune: the cached prefix
 * is read, the new items written. With it: the prefix up to the first pruned item is read, the
 * rest is written, minus what is pruned. Each later request reads `savedTokens` fewer from cache.
 * The prune happens when it removes at least `minSavings` tokens, pays (`netBenefit > 0`), and
 * waiting has cost at least `costNow` (when `waitingCostSoFar` is given). Above `pressureTokens`
 * only `minSavings` applies.
 */
export function planPrune(measure: PruneMeasure, options: PrunePlanOptions): PruneDecision {
  const { cacheWrite, cacheRead } = options.pricing ?? ANTHROPIC_CACHE_PRICING;
  const { prunedCachedTokens, prunedNewTokens, rewriteTokens } = measure;
  const savedTokens = prunedCachedTokens + prunedNewTokens;
  // Without the prune, the invalidated part would have been a cache read, or a write if expired.
  const cachedPrice = (options.prefixCached ?? true) ? cacheRead : cacheWrite;
  const costNow =
    rewriteTokens * cacheWrite -
    (rewriteTokens + prunedCachedTokens) * cachedPrice -
    prunedNewTokens * cacheWrite;
  const savingPerRequest = savedTokens * cacheRead;
  const futureRequests = Math.max(0, options.expectedFutureRequests);
  const netBenefit = futureRequests * savingPerRequest - costNow;
  const breakEvenRequests =
    costNow <= 0 ? 0 : savingPerRequest > 0 ? costNow / savingPerRequest : Number.POSITIVE_INFINITY;
  const figures = { savedTokens, costNow, savingPerRequest, netBenefit, breakEvenRequests };

  if (measure.firstIndex === -1 || savedTokens <= 0)
    return { prune: false, reason: "nothing_prunable", ...figures };
  if (savedTokens < options.minSavings) return { prune: false, reason: "below_min_savings", ...figures };
  const pressure = options.pressureTokens;
  const underPressure = pressure !== undefined && (options.contextTokens ?? 0) >= pressure;
  const waited = options.waitingCostSoFar ?? Number.POSITIVE_INFINITY;
  if (netBenefit > 0 && waited >= costNow) return { prune: true, reason: "pays", ...figures };
  if (underPressure) return { prune: true, reason: "context_pressure", ...figures };
  return { prune: false, reason: netBenefit > 0 ? "waiting" : "does_not_pay", ...figures };
}
