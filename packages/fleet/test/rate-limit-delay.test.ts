import type { PodRunResult } from "@yoake/pod";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RATE_LIMIT_DELAY_SECONDS,
  MAX_RATE_LIMIT_DELAY_SECONDS,
  rateLimitDelay,
} from "../src/worker/rate-limit-delay.js";

const now = Date.parse("2026-11-25T02:00:00.000Z");
const failed = (error: { kind: string; status?: number; resetAt?: string }) =>
  ({
    status: "failed",
    error: { kind: "llm", message: "refused", error: { message: "refused", ...error } },
    usage: {},
    turns: 1,
  }) as unknown as PodRunResult;

describe("rateLimitDelay", () => {
  it("waits until the provider's reset, rounded up to whole seconds", () => {
    expect(
      rateLimitDelay(failed({ kind: "rate_limit", status: 429, resetAt: "2026-11-25T02:00:06.200Z" }), now),
    ).toBe(7);
  });

  it("waits at least a second and at most 15 minutes", () => {
    expect(rateLimitDelay(failed({ kind: "rate_limit", resetAt: "2026-11-25T01:59:00.000Z" }), now)).toBe(1);
    expect(rateLimitDelay(failed({ kind: "rate_limit", resetAt: "2026-11-26T02:00:00.000Z" }), now)).toBe(
      MAX_RATE_LIMIT_DELAY_SECONDS,
    );
  });

  it("waits a default when the provider said nothing, and not at all for other endings", () => {
    expect(rateLimitDelay(failed({ kind: "rate_limit", status: 429 }), now)).toBe(
      DEFAULT_RATE_LIMIT_DELAY_SECONDS,
    );
    expect(rateLimitDelay(failed({ kind: "quota_exhausted", status: 429 }), now)).toBeUndefined();
    expect(rateLimitDelay(failed({ kind: "server", status: 500 }), now)).toBeUndefined();
    expect(
      rateLimitDelay({ status: "finished", text: "", usage: {}, turns: 1 } as unknown as PodRunResult, now),
    ).toBe(undefined);
  });
});
