/**
 * A provider that does not answer costs a bounded silence: the headers' default clock is the same
 * for a server on this machine as for a hosted API, and the request's retries stop at its deadline
 * however many the policy would still allow.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, errorsOf, finalOf, mockClient, REQUEST } from "../../test/support/client-test-kit.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import type { RetryNotice } from "./retry.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider();
});
afterEach(() => mock.close());

describe("a provider that never sends the headers", () => {
  it("on this machine, is given up on at the default 30 s wait, not a longer local one", {
    timeout: 90_000,
  }, async () => {
    mock.enqueue({ fault: "stall" });
    const events = await collect(
      mockClient(mock, "openai-chat", { retry: { maxRetries: 0 } }).stream(REQUEST),
    );
    expect(errorsOf(events)).toMatchObject([{ kind: "timeout" }]);
    expect(errorsOf(events)[0]?.message).toContain("no response headers within 30000 ms");
  });

  it("is retried only until the request's deadline, not as often as the policy allows", {
    timeout: 30_000,
  }, async () => {
    for (let i = 0; i < 12; i++) mock.enqueue({ fault: "stall" });
    const notices: RetryNotice[] = [];
    const client = mockClient(mock, "anthropic", {
      headersTimeoutMs: 200,
      retry: { maxRetries: 10, baseDelayMs: 1, maxDelayMs: 1, retryDeadlineMs: 300 },
      onRetry: (notice) => notices.push(notice),
    });
    const events = await collect(client.stream(REQUEST));
    expect(errorsOf(events)).toMatchObject([{ kind: "timeout" }]);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "failed" });
    // Each attempt waits 200 ms for headers: past the first, a retry would end after the deadline.
    expect(notices.length).toBeLessThanOrEqual(1);
    expect(mock.requests.length).toBeLessThanOrEqual(2);
  });
});
