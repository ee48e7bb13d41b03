import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { LlmError } from "./errors.js";
import { isRetryableError, parseRetryAfter, Retrier, type RetryNotice, retryDelayMs } from "./retry.js";
import type { HttpRequest } from "./scheme.js";
import { type AttemptOutcome, sendOnce, sendWithRetries } from "./transport.js";

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

describe("parseRetryAfter", () => {
  const parse = (headers: Record<string, string>) => parseRetryAfter(new Headers(headers), NOW);

  it("reads retry-after-ms, then retry-after in seconds or as an HTTP date", () => {
    expect(parse({ "retry-after-ms": "250" })).toBe(250);
    expect(parse({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(parse({ "retry-after": "3" })).toBe(3000);
    expect(parse({ "retry-after": "0.05" })).toBe(50);
    expect(parse({ "retry-after": new Date(NOW + 7000).toUTCString() })).toBe(7000);
    expect(parse({ "retry-after": new Date(NOW - 7000).toUTCString() })).toBe(0);
  });

  it("ignores what is not a wait", () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ "retry-after": "soon" })).toBeUndefined();
    expect(parse({ "retry-after": "-2" })).toBeUndefined();
    expect(parse({ "retry-after-ms": "", "retry-after": "1" })).toBe(1000);
  });
});

describe("retryDelayMs", () => {
  const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000 };

  it("doubles the jitter range per retry, capped by the max delay", () => {
    expect(retryDelayMs(policy, 0, undefined, () => 0.5)).toBe(50);
    expect(retryDelayMs(policy, 2, undefined, () => 0.5)).toBe(200);
    expect(retryDelayMs(policy, 8, undefined, () => 0.5)).toBe(500);
    expect(retryDelayMs(policy, 1, undefined, () => 0)).toBe(0);
  });

  it("follows the server's wait, capped by the max delay", () => {
    expect(retryDelayMs(policy, 0, 300, () => 0.5)).toBe(300);
    expect(retryDelayMs(policy, 0, 60_000, () => 0.5)).toBe(1000);
  });
});

describe("isRetryableError", () => {
  it("retries throttling, overload, server errors and broken connections only", () => {
    expect(isRetryableError({ kind: "rate_limit", message: "", status: 429 })).toBe(true);
    expect(isRetryableError({ kind: "invalid_request", message: "", status: 409 })).toBe(true);
    expect(isRetryableError({ kind: "overloaded", message: "", status: 529 })).toBe(true);
    expect(isRetryableError({ kind: "network", message: "" })).toBe(true);
    expect(isRetryableError({ kind: "timeout", message: "" })).toBe(true);
    expect(isRetryableError({ kind: "authentication", message: "", status: 401 })).toBe(false);
    expect(isRetryableError({ kind: "invalid_request", message: "", status: 400 })).toBe(false);
    expect(isRetryableError({ kind: "aborted", message: "" })).toBe(false);
    expect(isRetryableError({ kind: "stream", message: "" })).toBe(false);
    expect(
      isRetryableError({ kind: "rate_limit", message: "", status: 429, code: "insufficient_quota" }),
    ).toBe(false);
  });
});

describe("sending over HTTP", () => {
  let mock: MockProvider;
  let request: HttpRequest;
  beforeEach(async () => {
    mock = await startMockProvider({ writeSize: 16 });
    request = { url: `${mock.url}/v1/messages`, headers: { "x-api-key": "k" }, body: { hello: "world" } };
  });
  afterEach(() => mock.close());

  async function readAll(outcome: AttemptOutcome): Promise<string> {
    if (!outcome.ok) throw outcome.error;
    let text = "";
    for await (const chunk of outcome.response.body) text += Buffer.from(chunk).toString("utf8");
    return text;
  }

  it("posts the JSON body and streams the response in pieces", async () => {
    mock.enqueue({ raw: "x".repeat(100) });
    const outcome = await sendOnce(request);
    expect(outcome.ok && outcome.response.requestId).toBe("req_mock_1");
    let chunks = 0;
    if (outcome.ok) for await (const _ of outcome.response.body) chunks++;
    expect(chunks).toBeGreaterThan(1);
    expect(mock.requests[0]).toMatchObject({
      method: "POST",
      body: { hello: "world" },
      headers: { "x-api-key": "k", "content-type": "application/json" },
    });
  });

  it("reports an error status with the provider's details and wait", async () => {
    mock.enqueue({ fault: "status", status: 429, message: "slow down", headers: { "retry-after": "2" } });
    const outcome = await sendOnce(request);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.retryable).toBe(true);
    expect(outcome.retryAfterMs).toBe(2000);
    expect(outcome.error.toInfo()).toMatchObject({
      kind: "rate_limit",
      message: "slow down",
      code: "rate_limit_error",
      status: 429,
      requestId: "req_mock_1",
    });
  });

  it("lets x-should-retry overrule the status", async () => {
    mock.enqueue(
      { fault: "status", status: 500, headers: { "x-should-retry": "false" } },
      { fault: "status", status: 400, headers: { "x-should-retry": "true" } },
    );
    expect(await sendOnce(request)).toMatchObject({ ok: false, retryable: false });
    expect(await sendOnce(request)).toMatchObject({ ok: false, retryable: true });
  });

  it("reports a refused connection as a retryable network error", async () => {
    const port = await closedPort();
    const outcome = await sendOnce({ ...request, url: `http://127.0.0.1:${port}/v1/messages` });
    expect(outcome).toMatchObject({ ok: false, retryable: true });
    if (!outcome.ok) expect(outcome.error).toMatchObject({ kind: "network", code: "ECONNREFUSED" });
  });

  it("times out waiting for the headers", async () => {
    mock.enqueue({ fault: "stall" });
    const outcome = await sendOnce(request, { headersTimeoutMs: 40 });
    expect(outcome).toMatchObject({ ok: false, retryable: true });
    if (!outcome.ok) expect(outcome.error.kind).toBe("timeout");
  });

  it("fails a stalled body with kind timeout, thrown from the body iterator", async () => {
    mock.enqueue({ fault: "stall", response: "a".repeat(40), afterBytes: 20 });
    const outcome = await sendOnce(request, { idleTimeoutMs: 40 });
    const failure = await readAll(outcome).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(LlmError);
    expect(failure).toMatchObject({ kind: "timeout" });
  });

  it("does not count a slow consumer against the idle timeout", async () => {
    mock.enqueue({ raw: "b".repeat(64) });
    const outcome = await sendOnce(request, { idleTimeoutMs: 30 });
    let text = "";
    if (outcome.ok) {
      for await (const chunk of outcome.response.body) {
        text += Buffer.from(chunk).toString("utf8");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(text).toBe("b".repeat(64));
  });

  it("reports a reset mid-body as a network error", async () => {
    mock.enqueue({ fault: "reset", response: "c".repeat(64), afterBytes: 32 });
    const failure = await readAll(await sendOnce(request)).catch((err: unknown) => err);
    expect(failure).toMatchObject({ kind: "network" });
  });

  it("ends the body at once on abort", async () => {
    mock.enqueue({ fault: "stall", response: "d".repeat(64), afterBytes: 16 });
    const controller = new AbortController();
    const outcome = await sendOnce(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const failure = await readAll(outcome).catch((err: unknown) => err);
    expect(failure).toMatchObject({ kind: "aborted" });
  });

  it("sends nothing when already aborted", async () => {
    const outcome = await sendOnce(request, { signal: AbortSignal.abort() });
    expect(outcome).toMatchObject({ ok: false, retryable: false });
    expect(mock.requests).toHaveLength(0);
  });

  it("retries retryable failures within the budget, with notices", async () => {
    mock.enqueue({ fault: "status", status: 500 }, { fault: "status", status: 503 }, { raw: "ok" });
    const notices: RetryNotice[] = [];
    const retrier = new Retrier(
      { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 },
      { onRetry: (n) => notices.push(n), random: () => 1 },
    );
    expect(await readAll(await sendWithRetries(request, {}, retrier))).toBe("ok");
    expect(mock.requests).toHaveLength(3);
    expect(notices.map((n) => [n.retry, n.delayMs, n.error.status])).toEqual([
      [1, 10, 500],
      [2, 20, 503],
    ]);
  });

  it("gives up when the budget is spent, and never retries a final error", async () => {
    mock.enqueue(
      { fault: "status", status: 529 },
      { fault: "status", status: 529 },
      { fault: "status", status: 401 },
    );
    const retrier = new Retrier({ maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 });
    const outcome = await sendWithRetries(request, {}, retrier);
    expect(outcome).toMatchObject({ ok: false, error: { kind: "overloaded", status: 529 } });
    expect(mock.requests).toHaveLength(2);
    const auth = await sendWithRetries(
      request,
      {},
      new Retrier({ maxRetries: 5, baseDelayMs: 1, maxDelayMs: 1 }),
    );
    expect(auth).toMatchObject({ ok: false, error: { kind: "authentication" } });
    expect(mock.requests).toHaveLength(3);
  });

  it("ends a backoff wait at once on abort", async () => {
    mock.enqueue({ fault: "status", status: 429, headers: { "retry-after": "30" } });
    const controller = new AbortController();
    const retrier = new Retrier(
      { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 60_000 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const outcome = await sendWithRetries(request, { signal: controller.signal }, retrier);
    expect(outcome).toMatchObject({ ok: false, error: { kind: "aborted" } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(mock.requests).toHaveLength(1);
  });
});

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}
