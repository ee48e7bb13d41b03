import { describe, expect, it } from "vitest";
import {
  assistant,
  call,
  charTokens,
  result,
  type SimulatedRun,
  simulateSession,
  user,
} from "../../test/support/test-items.js";
import type { Item } from "../llm-client/item.js";
import { ContextPruner, type ContextPrunerOptions, type ContextUsage } from "./context-pruner.js";
import { sharedPrefixLength, TokenAccountant } from "./token-accounting.js";
import { sumItemTokens } from "./tokens.js";

/** A headless run: one 2,000-token user message, then 3,000-token results with 50-token summaries. */
function runHeadless(options: ContextPrunerOptions, requests: number): SimulatedRun {
  return simulateSession(
    new ContextPruner({ tokensOf: charTokens, ...options }),
    new TokenAccountant({ tokensOf: charTokens }),
    { turns: 1, requestsPerTurn: requests, userTokens: 2_000, resultTokens: 3_000, summaryTokens: 50 },
  );
}

const HEADLESS = { protectedTurns: 0, protectedTailTokens: 6_000 };

describe("ContextPruner in a headless run (protectedTurns 0, 6,000-token tail)", () => {
  it("waits, then prunes a batch of five results at once, every fifth request", () => {
    const log = runHeadless({ config: HEADLESS }, 12);
    // Request 3: c1 leaves the tail (c2, c3 protected), 2,950 tokens < minSavings 4,096.
    // Request 4: 5,900 tokens; K = 4 requests x 590 = 2,360 < the 3,205 it costs now: does not pay.
    // Requests 5-6: it pays, but the rent paid (295 + 590 + 885 = 1,770 by request 6) is below
    // the cost now (2,960). Request 7: rent 2,950 >= cost now 2,837.5: prune c1-c5 together.
    expect(log.reasons).toEqual([
      "nothing_prunable",
      "nothing_prunable",
      "below_min_savings",
      "does_not_pay",
      "waiting",
      "waiting",
      "pays",
      "below_min_savings",
      "waiting",
      "waiting",
      "waiting",
      "pays",
    ]);
    expect(log.pruned[6]).toEqual(["c1", "c2", "c3", "c4", "c5"]);
    expect(log.pruned[11]).toEqual(["c6", "c7", "c8", "c9", "c10"]);
  });

  it("keeps a pruned result pruned, so the prefix only moves when a new batch is pruned", () => {
    const log = runHeadless({ config: HEADLESS }, 30);
    const movedAt: number[] = [];
    for (let i = 1; i < log.sent.length; i++) {
      const before = log.sent[i - 1] ?? [];
      const after = log.sent[i] ?? [];
      if (sharedPrefixLength(before, after) < before.length) movedAt.push(i);
      // Every result pruned so far is still pruned.
      const prunedSoFar = log.pruned.slice(0, i + 1).flat();
      for (const item of after) {
        if (item.type === "tool_result" && prunedSoFar.includes(item.callId)) {
          expect(item.content).toBeUndefined();
        }
      }
    }
    const pruneRequests = log.pruned.flatMap((ids, i) => (ids.length > 0 ? [i] : []));
    expect(movedAt).toEqual(pruneRequests);
    expect(pruneRequests).toEqual([6, 11, 16, 21, 26]);
  });

  it("costs less than never pruning, and less than pruning as soon as it pays", () => {
    const never = runHeadless({ config: { ...HEADLESS, minSavings: Number.POSITIVE_INFINITY } }, 60);
    const eager = runHeadless({ config: HEADLESS, batchPrunes: false }, 60);
    const batched = runHeadless({ config: HEADLESS }, 60);
    // Eager prunes every other request, in pairs; batched every fifth, in fives.
    expect(eager.pruned.filter((ids) => ids.length > 0).length).toBeGreaterThan(25);
    expect(batched.pruned.filter((ids) => ids.length > 0).length).toBe(11);
    expect(batched.cost).toBeLessThan(eager.cost);
    expect(eager.cost).toBeLessThan(never.cost);
    // Never pruning: the items grow to 188,000 tokens; batched stays under 30,000.
    expect(Math.max(...never.sent.map((s) => sumItemTokens(s, charTokens)))).toBe(2_000 + 60 * 3_100);
    expect(Math.max(...batched.sent.map((s) => sumItemTokens(s, charTokens)))).toBeLessThan(30_000);
  });

  it("with the seed's defaults (3 protected turns) never prunes a single-turn run", () => {
    const log = runHeadless({}, 20);
    expect(log.reasons.every((reason) => reason === "nothing_prunable")).toBe(true);
  });
});

/** A fixed view of past requests, for decisions in isolation. */
function usageView(view: Partial<ContextUsage> & { cachedItems?: number }): ContextUsage {
  return {
    cachedPrefixLength: (items) => Math.min(items.length, view.cachedItems ?? items.length),
    expectedFutureRequests: () => 100,
    isPrefixCached: () => true,
    estimate: (items) => sumItemTokens(items, charTokens),
    ...view,
  };
}

describe("ContextPruner decisions", () => {
  // Turn 1 holds two 5,000-token results; turns 2-4 (20,050 tokens) are protected by the default
  // 3 turns. With all of it cached, pruning both rewrites 20,050 tokens at 1.25 instead of reading
  // 30,050 at 0.1: 25,062.5 - 3,005 = 22,057.5 now, for 1,000 saved on each later request.
  const history: Item[] = [
    user(10),
    call("a"),
    result("a", 5_000),
    call("b"),
    result("b", 5_000),
    user(10),
    assistant(20_000),
    user(10),
    assistant(10),
    user(10),
    assistant(10),
  ];

  it("prunes at once when the cache has expired, and never changes the history", () => {
    const before = structuredClone(history);
    const pruner = new ContextPruner({ tokensOf: charTokens });
    const projection = pruner.project(history, usageView({ isPrefixCached: () => false }));
    expect(projection.decision).toMatchObject({ prune: true, reason: "pays" });
    expect(projection.newlyPrunedCallIds).toEqual(["a", "b"]);
    expect(projection.items[2]).toEqual({ type: "tool_result", callId: "a", name: "tool", summary: "" });
    expect(history).toEqual(before);
    expect([...pruner.prunedCallIds]).toEqual(["a", "b"]);
  });

  it("shows the same pruned copy on every later request, so the prefix matches by identity", () => {
    const pruner = new ContextPruner({ tokensOf: charTokens });
    const first = pruner.project(history, usageView({ isPrefixCached: () => false }));
    const second = pruner.project([...history, user(10)], usageView({}));
    expect(first.decision.prune).toBe(true);
    expect(second.items[2]).toBe(first.items[2]);
    expect(second.items[4]).toBe(first.items[4]);
    expect(sharedPrefixLength(first.items, second.items)).toBe(history.length);
  });

  it("re-applies restored prunes without deciding again", () => {
    const pruner = new ContextPruner({ tokensOf: charTokens, prunedCallIds: ["b"] });
    const projection = pruner.project(history, usageView({ expectedFutureRequests: () => 0 }));
    expect(projection.items[4]).not.toHaveProperty("content");
    expect(projection.items[2]).toBe(history[2]);
    // Only a is left as a candidate (5,000 tokens), and with no future requests it does not pay.
    expect(projection.decision).toMatchObject({ prune: false, reason: "does_not_pay", savedTokens: 5_000 });
  });

  it("waits while it does not pay, and returns a copy of the history", () => {
    const pruner = new ContextPruner({ tokensOf: charTokens });
    const projection = pruner.project(history, usageView({ expectedFutureRequests: () => 22 }));
    expect(projection.decision).toMatchObject({ prune: false, reason: "does_not_pay", costNow: 22_057.5 });
    expect(projection.items).not.toBe(history);
    expect(projection.items).toEqual(history);
    expect(projection.items.every((item, i) => item === history[i])).toBe(true);
  });

  it("waits below minSavings", () => {
    const pruner = new ContextPruner({ tokensOf: charTokens, config: { minSavings: 10_001 } });
    expect(pruner.project(history, usageView({})).decision.reason).toBe("below_min_savings");
  });

  it("prunes under context pressure what would not pay", () => {
    // The context is 30,060 tokens.
    const view = usageView({ expectedFutureRequests: () => 0 });
    const relaxed = new ContextPruner({ tokensOf: charTokens, pressureTokens: 30_061 });
    expect(relaxed.project(history, view).decision.reason).toBe("does_not_pay");
    const pressed = new ContextPruner({ tokensOf: charTokens, pressureTokens: 30_060 });
    expect(pressed.project(history, view).decision).toMatchObject({
      prune: true,
      reason: "context_pressure",
    });
  });

  it("forgets its prunes on reset", () => {
    const pruner = new ContextPruner({ tokensOf: charTokens, prunedCallIds: ["a", "b"] });
    pruner.reset();
    expect(pruner.prunedCallIds.size).toBe(0);
    const reapplied = pruner.reapply(history);
    expect(reapplied).not.toBe(history);
    expect(reapplied.every((item, i) => item === history[i])).toBe(true);
  });
});
