import { describe, expect, it } from "vitest";
import { compactionTriggerTokens, resolveCompactionSettings } from "./compaction-settings.js";

describe("compaction settings", () => {
  it("fill in the defaults, the window from the manifest unless set", () => {
    expect(resolveCompactionSettings({}, 200_000)).toEqual({
      auto: true,
      threshold: 0.8,
      reserveTokens: 8192,
      summaryTokens: 4096,
      contextWindow: 200_000,
      maxFailures: 3,
      rereadBytes: 65_536,
    });
    expect(resolveCompactionSettings({ contextWindow: 1000 }, 200_000).contextWindow).toBe(1000);
  });

  it("trigger at the threshold's share of the window less the reserve; no window, no trigger", () => {
    expect(compactionTriggerTokens(resolveCompactionSettings({}, 200_000))).toBe(
      Math.floor((200_000 - 8192) * 0.8),
    );
    expect(
      compactionTriggerTokens(resolveCompactionSettings({ threshold: 0.5, reserveTokens: 1000 }, 10_000)),
    ).toBe(4500);
    expect(compactionTriggerTokens(resolveCompactionSettings({}, undefined))).toBeUndefined();
    // A window the reserve alone fills leaves nothing to measure against.
    expect(compactionTriggerTokens(resolveCompactionSettings({}, 8000))).toBeUndefined();
  });

  it("refuse a threshold outside (0, 1] and negative or fractional counts", () => {
    expect(() => resolveCompactionSettings({ threshold: 0 }, 1000)).toThrow("compaction.threshold");
    expect(() => resolveCompactionSettings({ threshold: 1.5 }, 1000)).toThrow("compaction.threshold");
    expect(() => resolveCompactionSettings({ reserveTokens: -1 }, 1000)).toThrow("compaction.reserveTokens");
    expect(() => resolveCompactionSettings({ maxFailures: 1.5 }, 1000)).toThrow("compaction.maxFailures");
  });
});
