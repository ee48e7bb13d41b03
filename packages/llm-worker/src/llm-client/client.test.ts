import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  collect,
  errorsOf,
  finalOf,
  HELLO,
  mockClient,
  REQUEST,
  textOf,
} from "../../test/support/client-test-kit.js";
import { encodeScripted, type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { type ClientOptions, createClient, type LlmClient } from "./client.js";
import { LlmError } from "./errors.js";
import type { Event } from "./event.js";
import type { SchemeName } from "./item.js";
import type { RetryNotice } from "./retry.js";
import type { Scheme } from "./scheme.js";
import { schemes } from "./schemes/index.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider({ writeSize: 24 });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await mock.close();
});

function client(scheme: SchemeName, options: Partial<ClientOptions> = {}): LlmClient {
  return mockClient(mock, scheme, options);
}

describe.each(Object.keys(schemes) as SchemeName[])("%s over HTTP", (scheme) => {
  it("streams a scripted response and completes it", async () => {
    mock.enqueue(HELLO, {
      blocks: [
        { type: "text", text: "Let me look." },
        { type: "tool_call", id: "call_1", name: "lookup", arguments: { query: "weather" } },
      ],
      usage: { inputTokens: 20, outputTokens: 7 },
    });
    const events = await collect(client(scheme).stream(REQUEST));
    expect(events[0]).toMatchObject({ type: "status", status: "started" });
    expect(textOf(events)).toBe("Hello there, how are you doing today?");
    expect(finalOf(events)).toMatchObject({ type: "status", status: "completed", stopReason: "end_turn" });

    const response = await client(scheme).complete(REQUEST);
    expect(response).toMatchObject({ status: "completed", stopReason: "tool_use", text: "Let me look." });
    expect(response.toolCalls).toMatchObject([{ name: "lookup", arguments: { query: "weather" } }]);
    expect(response.usage).toMatchObject({ inputTokens: 20, outputTokens: 7 });
    expect(mock.requests.map((r) => r.scheme)).toEqual([scheme, scheme]);
    expect(mock.requests[0]?.model).toBe("test-model");
  });

  it("retries a reset before any event and delivers only the good attempt", async () => {
    mock.enqueue({ fault: "reset", response: HELLO, afterBytes: 5 }, HELLO);
    const events = await collect(client(scheme).stream(REQUEST));
    expect(mock.requests).toHaveLength(2);
    expect(events.filter((e) => e.type === "status" && e.status === "started")).toHaveLength(1);
    expect(errorsOf(events)).toEqual([]);
    expect(textOf(events)).toBe("Hello there, how are you doing today?");
  });

  it("reports a reset after events were delivered, without retrying", async () => {
    const length = Buffer.byteLength(encodeScripted(scheme, HELLO));
    mock.enqueue({ fault: "reset", response: HELLO, afterBytes: Math.floor(length * 0.7) }, HELLO);
    const events = await collect(client(scheme).stream(REQUEST));
    expect(mock.requests).toHaveLength(1);
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(errorsOf(events)).toMatchObject([{ kind: "network" }]);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "failed", stopReason: "error" });
  });

  it("reports garbage as a stream error", async () => {
    mock.enqueue({ fault: "garbage" });
    const events = await collect(client(scheme).stream(REQUEST));
    expect(errorsOf(events)).toMatchObject([{ kind: "stream" }]);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "failed" });
    expect(mock.requests).toHaveLength(1);
  });
});

describe("retries and failures", () => {
  it("waits as retry-after-ms asks after a 429, then succeeds", async () => {
    mock.enqueue({ fault: "status", status: 429, headers: { "retry-after-ms": "120" } }, HELLO);
    const notices: RetryNotice[] = [];
    const events = await collect(
      client("anthropic", {
        retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1000 },
        onRetry: (n) => notices.push(n),
      }).stream(REQUEST),
    );
    expect(finalOf(events)).toMatchObject({ status: "completed" });
    expect(notices).toMatchObject([{ retry: 1, delayMs: 120, error: { kind: "rate_limit", status: 429 } }]);
    const [first, second] = mock.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(110);
  });

  it("waits as retry-after in seconds asks", async () => {
    mock.enqueue({ fault: "status", status: 429, headers: { "retry-after": "0.1" } }, HELLO);
    const notices: RetryNotice[] = [];
    const response = await client("anthropic", {
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1000 },
      onRetry: (n) => notices.push(n),
    }).complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(notices.map((n) => n.delayMs)).toEqual([100]);
    const [first, second] = mock.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(90);
  });

  it("reads an HTTP-date retry-after, capped by the max delay", async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    mock.enqueue({ fault: "status", status: 503, headers: { "retry-after": inAMinute } }, HELLO);
    const notices: RetryNotice[] = [];
    const response = await client("anthropic", {
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 80 },
      onRetry: (n) => notices.push(n),
    }).complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(notices.map((n) => n.delayMs)).toEqual([80]);
  });

  it("retries a 500 and succeeds", async () => {
    mock.enqueue({ fault: "status", status: 500 }, HELLO);
    const response = await client("openai-chat").complete(REQUEST);
    expect(response).toMatchObject({ status: "completed", text: "Hello there, how are you doing today?" });
    expect(mock.requests).toHaveLength(2);
  });

  it("fails overloaded once the retries are spent", async () => {
    mock.enqueue(
      { fault: "status", status: 529, message: "Overloaded" },
      { fault: "status", status: 529, message: "Overloaded" },
      { fault: "status", status: 529, message: "Overloaded" },
      HELLO,
    );
    const events = await collect(client("anthropic").stream(REQUEST));
    expect(mock.requests).toHaveLength(3);
    expect(events.map((e) => e.type)).toEqual(["status", "error", "status"]);
    expect(errorsOf(events)).toMatchObject([
      {
        kind: "overloaded",
        status: 529,
        code: "overloaded_error",
        message: "anthropic: 529 Overloaded",
        requestId: "req_mock_3",
      },
    ]);
    expect(finalOf(events)).toMatchObject({ status: "failed", stopReason: "error" });
  });

  it("does not retry a 401 and keeps the provider's message and request id", async () => {
    mock.enqueue({ fault: "status", status: 401, message: "invalid x-api-key" }, HELLO);
    const response = await client("anthropic").complete(REQUEST);
    expect(mock.requests).toHaveLength(1);
    expect(response.status).toBe("failed");
    expect(response.error).toMatchObject({
      kind: "authentication",
      status: 401,
      message: "anthropic: 401 invalid x-api-key — check ANTHROPIC_API_KEY",
      code: "authentication_error",
      requestId: "req_mock_1",
    });
  });

  it("reports a prompt that is too long", async () => {
    mock.enqueue({
      fault: "status",
      status: 400,
      message: "prompt is too long: 215000 tokens > 200000 maximum",
    });
    const response = await client("anthropic").complete(REQUEST);
    expect(response.error).toMatchObject({ kind: "context_too_long", status: 400 });
    expect(mock.requests).toHaveLength(1);
  });

  it("retries a reset right after the headers", async () => {
    mock.enqueue({ fault: "reset", response: HELLO, afterBytes: 0 }, HELLO);
    const response = await client("anthropic").complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(mock.requests).toHaveLength(2);
  });

  it("retries a connection dropped before the headers, then gives up", async () => {
    mock.enqueue({ fault: "reset" }, { fault: "reset" }, { fault: "reset" });
    const events = await collect(client("anthropic").stream(REQUEST));
    expect(mock.requests).toHaveLength(3);
    expect(errorsOf(events)).toMatchObject([{ kind: "network" }]);
  });

  it("ends a stalled stream with a timeout error and a clean end", async () => {
    const length = Buffer.byteLength(encodeScripted("anthropic", HELLO));
    mock.enqueue({ fault: "stall", response: HELLO, afterBytes: Math.floor(length * 0.7) });
    const events = await collect(client("anthropic", { idleTimeoutMs: 60 }).stream(REQUEST));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(errorsOf(events)).toMatchObject([{ kind: "timeout", requestId: "req_mock_1" }]);
    expect(events.filter((e) => e.type === "block_abort")).toHaveLength(1);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "failed" });
    expect(mock.requests).toHaveLength(1);
  });

  it("retries a stall before any event", async () => {
    mock.enqueue({ fault: "stall", response: HELLO, afterBytes: 3 }, HELLO);
    // The idle limit only has to be shorter than the stall; a tight one fails the healthy retry on a loaded machine.
    const response = await client("anthropic", { idleTimeoutMs: 500 }).complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(mock.requests).toHaveLength(2);
  });

  it("reports an error the scheme cannot even build a request for", async () => {
    const broken: Scheme = {
      ...schemes.anthropic,
      buildHttpRequest: () => {
        throw new Error("tool name missing");
      },
    };
    const events = await collect(client("anthropic", { scheme: broken }).stream(REQUEST));
    expect(events.map((e) => e.type)).toEqual(["status", "error", "status"]);
    expect(errorsOf(events)[0]?.message).toContain("tool name missing");
    expect(mock.requests).toHaveLength(0);
  });
});

describe("cancellation", () => {
  it("cancels during a backoff wait at once", async () => {
    mock.enqueue({ fault: "status", status: 429, headers: { "retry-after": "30" } }, HELLO);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 40);
    const events = await collect(
      client("anthropic", { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 60_000 } }).stream(REQUEST, {
        signal: controller.signal,
      }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(errorsOf(events)).toMatchObject([{ kind: "aborted" }]);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "cancelled" });
    expect(mock.requests).toHaveLength(1);
  });

  it("cancels during the stream, aborting the open block", async () => {
    const length = Buffer.byteLength(encodeScripted("anthropic", HELLO));
    mock.enqueue({ fault: "stall", response: HELLO, afterBytes: Math.floor(length * 0.7) });
    const controller = new AbortController();
    const events: Event[] = [];
    for await (const event of client("anthropic").stream(REQUEST, { signal: controller.signal })) {
      events.push(event);
      if (event.type === "block_delta") controller.abort();
    }
    expect(events.filter((e) => e.type === "block_abort")).toHaveLength(1);
    expect(errorsOf(events)).toMatchObject([{ kind: "aborted" }]);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "cancelled", stopReason: "error" });
  });

  it("sends nothing when the signal is already aborted", async () => {
    const response = await client("anthropic").complete(REQUEST, { signal: AbortSignal.abort() });
    expect(response).toMatchObject({ status: "cancelled", error: { kind: "aborted" } });
    expect(mock.requests).toHaveLength(0);
  });

  it("cancels the response body when the consumer stops early", async () => {
    const length = Buffer.byteLength(encodeScripted("anthropic", HELLO));
    mock.enqueue({ fault: "stall", response: HELLO, afterBytes: Math.floor(length * 0.7) });
    let cancelled = false;
    // Watches the body fetch hands over; undici itself only closes the socket seconds later.
    const watchingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const reader = response.body?.getReader();
      const body = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const next = await reader?.read();
          if (!next || next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: async (reason) => {
          cancelled = true;
          await reader?.cancel(reason);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    for await (const event of client("anthropic", { fetch: watchingFetch }).stream(REQUEST)) {
      if (event.type === "block_delta") break;
    }
    await vi.waitFor(() => expect(cancelled).toBe(true), { timeout: 1000 });
  });
});

describe("configuration", () => {
  it("takes the key and base URL from the scheme's environment variables", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "env-key");
    vi.stubEnv("ANTHROPIC_BASE_URL", `${mock.baseURLFor("anthropic")}/`);
    mock.enqueue(HELLO);
    const response = await createClient({ scheme: "anthropic", model: "claude-test" }).complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(mock.requests[0]).toMatchObject({ path: "/v1/messages", headers: { "x-api-key": "env-key" } });
  });

  it("lets explicit options win over the environment", async () => {
    vi.stubEnv("OPENAI_API_KEY", "env-key");
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1");
    mock.enqueue(HELLO);
    const openai = createClient({
      scheme: "openai-chat",
      model: "gpt-test",
      apiKey: "option-key",
      baseURL: mock.baseURLFor("openai-chat"),
      headers: { "x-team": "yoake" },
    });
    expect(openai).toMatchObject({ scheme: "openai-chat", model: "gpt-test" });
    await openai.complete({ ...REQUEST, model: "gpt-other" });
    expect(mock.requests[0]).toMatchObject({
      model: "gpt-other",
      headers: { authorization: "Bearer option-key", "x-team": "yoake" },
    });
  });

  it("accepts a bare host:port in OLLAMA_HOST and needs no key", async () => {
    vi.stubEnv("OLLAMA_HOST", mock.url.replace("http://", ""));
    vi.stubEnv("OLLAMA_API_KEY", "");
    mock.enqueue(HELLO);
    const response = await createClient({ scheme: "ollama", model: "llama-test" }).complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(mock.requests[0]).toMatchObject({ path: "/api/chat", model: "llama-test" });
  });

  it.each([
    ["anthropic", "ANTHROPIC_API_KEY"],
    ["openai-chat", "OPENAI_API_KEY"],
    ["openai-responses", "OPENAI_API_KEY"],
    ["gemini", "GEMINI_API_KEY"],
  ] as const)("refuses to make a %s client without a key, naming %s", (scheme, variable) => {
    vi.stubEnv(variable, "");
    const make = () => createClient({ scheme, model: "m" });
    expect(make).toThrow(LlmError);
    expect(make).toThrow(variable);
  });
});
