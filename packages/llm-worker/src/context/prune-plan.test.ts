import { describe, expect, it } from "vitest";
import { assistant, call, charTokens, result, user } from "../../test/support/test-items.js";
import type { Item } from "../llm-client/item.js";
import { measurePrune, type PruneMeasure, planPrune } from "./prune-plan.js";

/**
 * The README's worked example. The last request sent items 0-5 (100,000 tokens, all cached);
 * items 6-7 are new (2,000 tokens). Results a and b are prunable: 12,100 and 8,100 tokens of
 * content whose 100-token summaries are shown instead, so a prune removes 20,000 tokens. The
 * first of them starts at token 40,000, so 60,000 cached tokens lie from it to the end.
 */
function workedExample(): Item[] {
  return [
    user(40_000),
    call("a"),
    result("a", 12_100, 100),
    call("b"),
    result("b", 8_100, 100),
    assistant(39_800),
    call("c"),
    result("c", 2_000, 100),
  ];
}

const WORKED_MEASURE: PruneMeasure = {
  firstIndex: 2,
  prunedCachedTokens: 20_000,
  prunedNewTokens: 0,
  rewriteTokens: 40_000,
};

describe("measurePrune", () => {
  it("measures the worked example", () => {
    expect(measurePrune(workedExample(), [2, 4], 6, charTokens)).toEqual(WORKED_MEASURE);
  });

  it("counts candidates among the new items as removed without any rewrite", () => {
    expect(measurePrune(workedExample(), [7], 6, charTokens)).toEqual({
      firstIndex: 7,
      prunedCachedTokens: 0,
      prunedNewTokens: 1_900,
      rewriteTokens: 0,
    });
  });

  it("rewrites from the first pruned item: pruning only b moves less of the prefix", () => {
    // From b (token 52,100) to the end of the cache: 8,100 + 39,800 = 47,900, of which 8,000 go.
    expect(measurePrune(workedExample(), [4], 6, charTokens)).toEqual({
      firstIndex: 4,
      prunedCachedTokens: 8_000,
      prunedNewTokens: 0,
      rewriteTokens: 39_900,
    });
  });

  it("ignores indices that are not results with content, and duplicates", () => {
    expect(measurePrune(workedExample(), [0, 1, 99], 6, charTokens).firstIndex).toBe(-1);
    expect(measurePrune(workedExample(), [2, 2, 4], 6, charTokens)).toEqual(WORKED_MEASURE);
  });
});

describe("planPrune", () => {
  it("waits while the rewrite costs more than the coming requests save (K = 10)", () => {
    // Now: 40,000 tokens written at 1.25 instead of 60,000 read at 0.1 -> 50,000 - 6,000 = 44,000.
    // Each later request reads 20,000 fewer tokens at 0.1 -> saves 2,000. Break-even: 22 requests.
    expect(planPrune(WORKED_MEASURE, { minSavings: 4_096, expectedFutureRequests: 10 })).toEqual({
      prune: false,
      reason: "does_not_pay",
      savedTokens: 20_000,
      costNow: 44_000,
      savingPerRequest: 2_000,
      netBenefit: -24_000,
      breakEvenRequests: 22,
    });
  });

  it("prunes once enough requests are expected to follow", () => {
    expect(planPrune(WORKED_MEASURE, { minSavings: 4_096, expectedFutureRequests: 22 })).toMatchObject({
      prune: false,
      netBenefit: 0,
    });
    expect(planPrune(WORKED_MEASURE, { minSavings: 4_096, expectedFutureRequests: 30 })).toMatchObject({
      prune: true,
      reason: "pays",
      netBenefit: 16_000,
    });
  });

  it("never prunes below minSavings, even when it would pay", () => {
    const decision = planPrune(WORKED_MEASURE, { minSavings: 20_001, expectedFutureRequests: 100 });
    expect(decision).toMatchObject({ prune: false, reason: "below_min_savings" });
    expect(decision.netBenefit).toBeGreaterThan(0);
  });

  it("prunes at once when the cache has expired: everything is written anyway", () => {
    // Now: 40,000 x 1.25 instead of 60,000 x 1.25 -> this request is 25,000 cheaper.
    const decision = planPrune(WORKED_MEASURE, {
      minSavings: 4_096,
      expectedFutureRequests: 0,
      prefixCached: false,
    });
    expect(decision).toMatchObject({ prune: true, reason: "pays", costNow: -25_000, breakEvenRequests: 0 });
  });

  it("takes the provider's prices: without a cache discount a prune always pays", () => {
    const decision = planPrune(WORKED_MEASURE, {
      minSavings: 4_096,
      expectedFutureRequests: 1,
      pricing: { cacheWrite: 1, cacheRead: 1 },
    });
    expect(decision).toMatchObject({
      prune: true,
      costNow: -20_000,
      savingPerRequest: 20_000,
      netBenefit: 40_000,
    });
  });

  it("with OpenAI-like prices (write 1, read 0.5) the same prune breaks even after one request", () => {
    // Now: 40,000 x 1 - 60,000 x 0.5 = 10,000. Each later request: 20,000 x 0.5 = 10,000.
    const decision = planPrune(WORKED_MEASURE, {
      minSavings: 4_096,
      expectedFutureRequests: 2,
      pricing: { cacheWrite: 1, cacheRead: 0.5 },
    });
    expect(decision).toMatchObject({
      prune: true,
      costNow: 10_000,
      breakEvenRequests: 1,
      netBenefit: 10_000,
    });
  });

  it("pruning new items only is cheaper now as well", () => {
    const measure = { firstIndex: 7, prunedCachedTokens: 0, prunedNewTokens: 5_000, rewriteTokens: 0 };
    expect(planPrune(measure, { minSavings: 4_096, expectedFutureRequests: 0 })).toMatchObject({
      prune: true,
      costNow: -6_250,
    });
  });

  it("under context pressure prunes what does not pay, but still not below minSavings", () => {
    const options = { minSavings: 4_096, expectedFutureRequests: 10, pressureTokens: 90_000 };
    expect(planPrune(WORKED_MEASURE, { ...options, contextTokens: 102_000 })).toMatchObject({
      prune: true,
      reason: "context_pressure",
    });
    expect(planPrune(WORKED_MEASURE, { ...options, contextTokens: 80_000 }).reason).toBe("does_not_pay");
    const small = { ...WORKED_MEASURE, prunedCachedTokens: 1_000 };
    expect(planPrune(small, { ...options, contextTokens: 102_000 }).reason).toBe("below_min_savings");
  });

  it("reports nothing to prune", () => {
    const none = { firstIndex: -1, prunedCachedTokens: 0, prunedNewTokens: 0, rewriteTokens: 0 };
    expect(planPrune(none, { minSavings: 0, expectedFutureRequests: 100 })).toMatchObject({
      prune: false,
      reason: "nothing_prunable",
    });
  });
});
