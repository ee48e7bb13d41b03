import { describe, expect, it } from "vitest";
import { DEFAULT_RESTART_POLICY, restartDelayMs } from "./restart-policy.js";

describe("restartDelayMs", () => {
  it("doubles from the initial delay and stops at the cap", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => restartDelayMs(attempt, DEFAULT_RESTART_POLICY));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it("stays finite for absurd attempt counts", () => {
    expect(restartDelayMs(10_000, { ...DEFAULT_RESTART_POLICY, maxDelayMs: Number.MAX_VALUE })).toBe(
      500 * 2 ** 30,
    );
  });
});
