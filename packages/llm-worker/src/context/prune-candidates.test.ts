import { describe, expect, it } from "vitest";
import { assistant, call, charTokens, result, user } from "../../test/support/test-items.js";
import type { Item } from "../llm-client/item.js";
import { pruneItems } from "./prune.js";
import { pruneCandidates, tailProtectionStart } from "./prune-candidates.js";

/**
 * A headless run: one user message, then results of 3,000, 2,000, 5,000 and 1,000 tokens
 * (oldest first) at indices 2, 4, 6 and 8.
 */
function headlessRun(): Item[] {
  return [
    user(100),
    call("r1"),
    result("r1", 3_000),
    call("r2"),
    result("r2", 2_000),
    call("r3"),
    result("r3", 5_000),
    call("r4"),
    result("r4", 1_000),
  ];
}

describe("tailProtectionStart", () => {
  it("protects the newest results until their tokens reach the budget, the crossing one included", () => {
    const items = headlessRun();
    // Newest first: r4 (0 newer tokens < 6,000: protected), r3 (1,000 < 6,000: protected),
    // r2 (6,000 newer tokens: not protected).
    expect(tailProtectionStart(items, 6_000, charTokens)).toBe(6);
    // With 6,001: r2 is protected too (6,000 < 6,001), r1 not (8,000).
    expect(tailProtectionStart(items, 6_001, charTokens)).toBe(4);
    // 1 token protects the newest result whole.
    expect(tailProtectionStart(items, 1, charTokens)).toBe(8);
  });

  it("is off at 0 and protects everything when the budget exceeds the results", () => {
    const items = headlessRun();
    expect(tailProtectionStart(items, 0, charTokens)).toBe(items.length);
    expect(tailProtectionStart(items, 1_000_000, charTokens)).toBe(2);
  });

  it("does not count results that no longer carry content", () => {
    // r3 already pruned: the 6,000 budget now reaches back past it to r2 and r1.
    const items = pruneItems(headlessRun(), [6]);
    expect(tailProtectionStart(items, 6_000, charTokens)).toBe(2);
  });
});

describe("pruneCandidates: turn and tail protection combined", () => {
  it("with the seed's defaults (3 turns, no tail) a single-turn run is never pruned", () => {
    expect(pruneCandidates(headlessRun(), { protectedTurns: 3, protectedTailTokens: 0 }, charTokens)).toEqual(
      [],
    );
  });

  it("a headless run sets protectedTurns 0 and is protected by the tail alone", () => {
    const protection = { protectedTurns: 0, protectedTailTokens: 6_000 };
    expect(pruneCandidates(headlessRun(), protection, charTokens)).toEqual([2, 4]);
  });

  it("protectedTurns 0 and no tail: every result with content is a candidate", () => {
    const protection = { protectedTurns: 0, protectedTailTokens: 0 };
    expect(pruneCandidates(headlessRun(), protection, charTokens)).toEqual([2, 4, 6, 8]);
  });

  it("a result is a candidate only when it is outside both protections", () => {
    // Turn 1: results at 2 (4,000) and 4 (4,000). Turn 2: result at 8 (500). Turn 3: result at 12 (500).
    const items: Item[] = [
      user(10),
      call("a"),
      result("a", 4_000),
      call("b"),
      result("b", 4_000),
      assistant(10),
      user(10),
      call("c"),
      result("c", 500),
      assistant(10),
      user(10),
      call("d"),
      result("d", 500),
    ];
    // Turns alone (protect the last 2): both results of turn 1.
    expect(pruneCandidates(items, { protectedTurns: 2, protectedTailTokens: 0 }, charTokens)).toEqual([2, 4]);
    // A 4,500-token tail also covers result b (500 + 500 newer < 4,500): only a is left.
    expect(pruneCandidates(items, { protectedTurns: 2, protectedTailTokens: 4_500 }, charTokens)).toEqual([
      2,
    ]);
    // A tail that covers less than the protected turns changes nothing: the turns still protect.
    expect(pruneCandidates(items, { protectedTurns: 2, protectedTailTokens: 600 }, charTokens)).toEqual([
      2, 4,
    ]);
  });
});

describe("pruneCandidates with short-lived results", () => {
  const isInspect = (item: { name: string }) => item.name === "inspect";
  const inspectAnswer = (callId: string, tokens: number) => ({ ...result(callId, tokens), name: "inspect" });

  it("makes an answered inspect result a candidate whatever the protections", () => {
    const items: Item[] = [
      user(10),
      call("r1"),
      result("r1", 3_000),
      call("i1"),
      inspectAnswer("i1", 500),
      assistant(20),
      call("r2"),
      result("r2", 1_000),
    ];
    // Three protected turns protect all of a one-turn run, yet the answered inspect goes.
    expect(
      pruneCandidates(items, { protectedTurns: 3, protectedTailTokens: 0 }, charTokens, isInspect),
    ).toEqual([4]);
    // Without the predicate (the seed's rule), nothing.
    expect(pruneCandidates(items, { protectedTurns: 3, protectedTailTokens: 0 }, charTokens)).toEqual([]);
  });

  it("keeps an inspect answer the model has not yet answered after", () => {
    const items: Item[] = [user(10), call("r1"), result("r1", 3_000), call("i1"), inspectAnswer("i1", 500)];
    expect(
      pruneCandidates(items, { protectedTurns: 0, protectedTailTokens: 0 }, charTokens, isInspect),
    ).toEqual([2]);
  });

  it("does not let inspect answers use up the tail's budget", () => {
    const items: Item[] = [
      user(10),
      call("r1"),
      result("r1", 3_000),
      call("i1"),
      inspectAnswer("i1", 5_000),
      assistant(5),
    ];
    const protection = { protectedTurns: 0, protectedTailTokens: 4_000 };
    // Counted, the 5,000-token answer would fill the tail and leave r1 prunable.
    expect(tailProtectionStart(items, 4_000, charTokens)).toBe(4);
    expect(tailProtectionStart(items, 4_000, charTokens, isInspect)).toBe(2);
    expect(pruneCandidates(items, protection, charTokens, isInspect)).toEqual([4]);
  });
});
