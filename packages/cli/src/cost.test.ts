import { describe, expect, it } from "vitest";
import { formatCost, usageCost } from "./cost.js";

describe("usageCost", () => {
  const prices = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

  it("bills uncached input, cache reads, cache writes and output at their own prices", () => {
    // 1M input of which 600k cache reads and 100k cache writes: 300k uncached.
    const cost = usageCost(
      {
        inputTokens: 1_000_000,
        cacheReadInputTokens: 600_000,
        cacheCreationInputTokens: 100_000,
        outputTokens: 10_000,
      },
      prices,
    );
    expect(cost).toBeCloseTo(0.3 * 3 + 0.6 * 0.3 + 0.1 * 3.75 + 0.01 * 15, 10);
  });

  it("bills cache parts at the input price when the model lists no cache prices", () => {
    expect(
      usageCost({ inputTokens: 1_000_000, cacheReadInputTokens: 500_000 }, { input: 2, output: 8 }),
    ).toBe(2);
  });

  it("is undefined without prices or without any reported tokens", () => {
    expect(usageCost({ inputTokens: 10 }, undefined)).toBeUndefined();
    expect(usageCost({}, prices)).toBeUndefined();
  });

  it("formats to four decimals", () => {
    expect(formatCost(0.012345)).toBe("$0.0123");
  });
});
