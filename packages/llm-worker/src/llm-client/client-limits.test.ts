import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HELLO, mockClient, REQUEST } from "../../test/support/client-test-kit.js";
import { limitFault } from "../testing/limit-faults.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import type { SchemeName } from "./item.js";
import { parseDuration } from "./quota.js";
import type { RetryNotice } from "./retry.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider();
});
afterEach(() => mock.close());

const HOSTED: SchemeName[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];
const ALL: SchemeName[] = [...HOSTED, "ollama"];
const HOUR = 3_600_000;

describe("a spent quota is not a rate limit", () => {
  it.each(HOSTED)("%s: fails fast with kind quota_exhausted, never retried", async (scheme) => {
    mock.enqueue(limitFault(scheme, "quota", 5 * HOUR), HELLO);
    const retries: RetryNotice[] = [];
    const response = await mockClient(mock, scheme).complete(REQUEST, { onRetry: (n) => retries.push(n) });
    expect(response.status).toBe("failed");
    expect(response.error?.kind).toBe("quota_exhausted");
    expect(retries).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });

  it("gemini: the reset time of a daily quota is in the error and its message", async () => {
    const before = Date.now();
    mock.enqueue(limitFault("gemini", "quota", 5 * HOUR));
    const response = await mockClient(mock, "gemini").complete(REQUEST);
    const resetAt = Date.parse(response.error?.resetAt ?? "");
    expect(resetAt).toBeGreaterThanOrEqual(before + 5 * HOUR - 1000);
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 5 * HOUR + 1000);
    expect(response.error?.message).toContain(`(resets at ${response.error?.resetAt})`);
  });

  it("openai: an insufficient_quota that says x-should-retry: true is still not retried", async () => {
    const fault = limitFault("openai-chat", "quota", 0);
    if (fault.fault !== "status") throw new Error("a status fault");
    mock.enqueue({ ...fault, headers: { "x-should-retry": "true" } }, HELLO);
    const response = await mockClient(mock, "openai-chat").complete(REQUEST);
    expect(response.error?.kind).toBe("quota_exhausted");
    expect(mock.requests).toHaveLength(1);
  });
});

describe("a rate limit waits and retries as before", () => {
  it.each(ALL)("%s: retried, then the answer", async (scheme) => {
    mock.enqueue(limitFault(scheme, "rate_limit", 10), HELLO);
    const retries: RetryNotice[] = [];
    const response = await mockClient(mock, scheme).complete(REQUEST, { onRetry: (n) => retries.push(n) });
    expect(response.status).toBe("completed");
    expect(retries.map((r) => r.error.kind)).toEqual(["rate_limit"]);
  });

  it.each(HOSTED)(
    "%s: once retries are spent, the error carries the reset time the provider gave",
    async (scheme) => {
      const before = Date.now();
      mock.enqueue(limitFault(scheme, "rate_limit", 40_000));
      const response = await mockClient(mock, scheme, { retry: { maxRetries: 0 } }).complete(REQUEST);
      expect(response.error?.kind).toBe("rate_limit");
      const resetAt = Date.parse(response.error?.resetAt ?? "");
      expect(resetAt).toBeGreaterThanOrEqual(before + 39_000);
      expect(resetAt).toBeLessThanOrEqual(Date.now() + 41_000);
    },
  );

  it("gemini: without retry-after, the wait is the RetryInfo delay (capped by the policy)", async () => {
    mock.enqueue(limitFault("gemini", "rate_limit", 7000), HELLO);
    const retries: RetryNotice[] = [];
    const client = mockClient(mock, "gemini", { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 20 } });
    await client.complete(REQUEST, { onRetry: (n) => retries.push(n) });
    // Jittered backoff would be below 1 ms; the provider's 7 s capped at the policy's 20 ms.
    expect(retries.map((r) => r.delayMs)).toEqual([20]);
  });
});

describe("parseDuration", () => {
  it("reads the providers' durations", () => {
    expect(parseDuration("6m0s")).toBe(360_000);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("20ms")).toBe(20);
    expect(parseDuration("1h2m3s")).toBe(3_723_000);
    expect(parseDuration("soon")).toBeUndefined();
    expect(parseDuration("")).toBeUndefined();
  });
});
