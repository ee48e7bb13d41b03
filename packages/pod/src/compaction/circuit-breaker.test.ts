import { describe, expect, it } from "vitest";
import { CompactionBreaker } from "./circuit-breaker.js";

describe("CompactionBreaker", () => {
  it("opens at the third failure in a row, says so once, and a success closes it", () => {
    const breaker = new CompactionBreaker(3);
    expect(breaker.recordFailure()).toEqual({ failuresInARow: 1, trippedNow: false });
    breaker.recordSuccess();
    expect(breaker.recordFailure()).toEqual({ failuresInARow: 1, trippedNow: false });
    expect(breaker.recordFailure()).toEqual({ failuresInARow: 2, trippedNow: false });
    expect(breaker.open).toBe(false);
    expect(breaker.recordFailure()).toEqual({ failuresInARow: 3, trippedNow: true });
    expect(breaker.open).toBe(true);
    expect(breaker.recordFailure()).toEqual({ failuresInARow: 4, trippedNow: false });
    breaker.recordSuccess();
    expect(breaker.open).toBe(false);
  });

  it("never opens with maxFailures 0", () => {
    const breaker = new CompactionBreaker(0);
    for (let i = 0; i < 5; i++) expect(breaker.recordFailure().trippedNow).toBe(false);
    expect(breaker.open).toBe(false);
  });
});
