import type { Item, ToolResultItem } from "../llm-client/item.js";
import { INSPECT_TOOL_NAME } from "../tool-output/inspect-tool.js";
import { DEFAULT_PRUNE_CONFIG, hasContent, type PruneConfig, withoutContent } from "./prune.js";
import { pruneCandidates, type ShortLived } from "./prune-candidates.js";
import { type CachePricing, measurePrune, type PruneDecision, planPrune } from "./prune-plan.js";
import { estimateItemTokens, type ItemTokenCounter } from "./tokens.js";

/** What the pruner needs to know about past requests; `TokenAccountant` provides it. */
export interface ContextUsage {
  /** How many leading items the provider has cached from the last request. */
  cachedPrefixLength(items: readonly Item[]): number;
  /** How many more requests the context is expected to be sent with. */
  expectedFutureRequests(): number;
  /** Whether the cached prefix has not expired. */
  isPrefixCached(): boolean;
  /** Estimated prompt tokens of `items`. */
  estimate(items: readonly Item[]): number;
}

export interface ContextPrunerOptions {
  /** Defaults: `DEFAULT_PRUNE_CONFIG`. */
  config?: Partial<PruneConfig>;
  /** Defaults to Anthropic's (write 1.25, read 0.1). */
  pricing?: CachePricing;
  /** See `PrunePlanOptions.pressureTokens`; off by default. */
  pressureTokens?: number;
  /**
   * Wait to batch prunes until waiting has cost as much as the rewrite (rent-or-buy, see
   * `PrunePlanOptions.waitingCostSoFar`). Default true; false prunes as soon as it pays.
   */
  batchPrunes?: boolean;
  tokensOf?: ItemTokenCounter;
  /**
   * Tools whose results are short-lived (see `ShortLived`): prunable as soon as the model has
   * answered after them, whatever the protections. Default `["inspect"]`: an answer is a slice of
   * a blob, and its summary `[blob:<id>] <selector>` reads it again.
   */
  shortLivedTools?: readonly string[];
  /** Call ids pruned earlier in this session (restored from a session log). */
  prunedCallIds?: Iterable<string>;
}

/** The context for one request. */
export interface ContextProjection {
  /** The items to send: a new array, which the history's later growth does not change. */
  items: readonly Item[];
  /** Whether this request pruned more, and the figures behind it. */
  decision: PruneDecision;
  /** Call ids this request pruned (empty unless `decision.prune`). */
  newlyPrunedCallIds: readonly string[];
}

/**
 * Prune as a stable projection. The call ids of pruned results are kept and re-applied to every
 * later request: a result shown whole in one request and pruned in the next would move the
 * cached prefix every time. New prunes are decided by `planPrune` and take every candidate at
 * once, so the prefix moves rarely. The history passed in is never changed.
 */
export class ContextPruner {
  readonly #config: PruneConfig;
  readonly #pricing: CachePricing | undefined;
  readonly #pressureTokens: number | undefined;
  readonly #batchPrunes: boolean;
  readonly #tokensOf: ItemTokenCounter;
  readonly #shortLived: ShortLived;
  readonly #pruned: Set<string>;
  /** Rent paid since the last prune: the saving the requests sent without it forwent. */
  #waitingCost = 0;
  readonly #prunedCopies = new WeakMap<ToolResultItem, ToolResultItem>();

  constructor(options: ContextPrunerOptions = {}) {
    this.#config = { ...DEFAULT_PRUNE_CONFIG, ...options.config };
    this.#pricing = options.pricing;
    this.#pressureTokens = options.pressureTokens;
    this.#batchPrunes = options.batchPrunes ?? true;
    this.#tokensOf = options.tokensOf ?? estimateItemTokens;
    const shortLivedTools = new Set(options.shortLivedTools ?? [INSPECT_TOOL_NAME]);
    this.#shortLived = (item) => shortLivedTools.has(item.name);
    this.#pruned = new Set(options.prunedCallIds);
  }

  /** The call ids pruned so far (to persist beside the session). */
  get prunedCallIds(): ReadonlySet<string> {
    return this.#pruned;
  }

  get config(): Readonly<PruneConfig> {
    return this.#config;
  }

  /** The items to send for `history`: earlier prunes re-applied, and a new prune if it pays. */
  project(history: readonly Item[], usage: ContextUsage): ContextProjection {
    const items = this.reapply(history);
    const candidates = pruneCandidates(items, this.#config, this.#tokensOf, this.#shortLived);
    const measure = measurePrune(items, candidates, usage.cachedPrefixLength(items), this.#tokensOf);
    const decision = planPrune(measure, {
      minSavings: this.#config.minSavings,
      expectedFutureRequests: usage.expectedFutureRequests(),
      prefixCached: usage.isPrefixCached(),
      waitingCostSoFar: this.#batchPrunes ? this.#waitingCost : undefined,
      pricing: this.#pricing,
      pressureTokens: this.#pressureTokens,
      // Only worth estimating when it can change the decision.
      contextTokens: this.#pressureTokens === undefined ? undefined : usage.estimate(items),
    });
    if (!decision.prune) {
      this.#waitingCost += decision.savingPerRequest;
      return { items, decision, newlyPrunedCallIds: [] };
    }
    this.#waitingCost = 0;
    const newlyPrunedCallIds: string[] = [];
    for (const i of candidates) {
      const item = items[i];
      if (item === undefined || !hasContent(item)) continue;
      items[i] = this.#prunedCopy(item);
      newlyPrunedCallIds.push(item.callId);
      this.#pruned.add(item.callId);
    }
    return { items, decision, newlyPrunedCallIds };
  }

  /**
   * A new array: `history` with every earlier prune applied. The history's later growth does not
   * change it, and `history` itself is never changed.
   */
  reapply(history: readonly Item[]): Item[] {
    const items = history.slice();
    if (this.#pruned.size === 0) return items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item !== undefined && hasContent(item) && this.#pruned.has(item.callId)) {
        items[i] = this.#prunedCopy(item);
      }
    }
    return items;
  }

  /**
   * The pruned copy of a result, the same object on every request: the next request's prefix
   * then matches the last one's by identity, and its token count stays cached.
   */
  #prunedCopy(item: ToolResultItem): ToolResultItem {
    const copy = this.#prunedCopies.get(item);
    if (copy !== undefined && copy.summary === item.summary && copy.isError === item.isError) return copy;
    const fresh = withoutContent(item);
    this.#prunedCopies.set(item, fresh);
    return fresh;
  }

  /** Forgets every prune (after a compaction replaced the history). */
  reset(): void {
    this.#pruned.clear();
    this.#waitingCost = 0;
  }
}
