import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
import type { SchemeName } from "./item.js";
import { schemes } from "./schemes/index.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider({ writeSize: 24 });
});
afterEach(() => mock.close());

const ALL = Object.keys(schemes) as SchemeName[];

/** The bytes of a scripted response's first frame: its start, before any content. */
function firstFrameBytes(scheme: SchemeName): number {
  const body = encodeScripted(scheme, HELLO);
  const end = scheme === "ollama" ? body.indexOf("\n") + 1 : body.indexOf("\n\n") + 2;
  return Buffer.byteLength(body.slice(0, end));
}

describe("keep-alives are not progress", () => {
  it.each(ALL)("%s: a stream that sends only keep-alives after its start times out", async (scheme) => {
    mock.enqueue({ fault: "keepalive", response: HELLO, afterBytes: firstFrameBytes(scheme), everyMs: 5 });
    const events = await collect(
      mockClient(mock, scheme, { idleTimeoutMs: 150, retry: { maxRetries: 0 } }).stream(REQUEST),
    );
    expect(errorsOf(events)).toMatchObject([{ kind: "timeout" }]);
    expect(finalOf(events)).toMatchObject({ type: "status", status: "failed", stopReason: "error" });
  });

  it.each(ALL)("%s: an attempt ends at its deadline even while keep-alives flow", async (scheme) => {
    mock.enqueue({ fault: "keepalive", everyMs: 5 });
    const events = await collect(
      mockClient(mock, scheme, {
        idleTimeoutMs: 0,
        attemptTimeoutMs: 200,
        retry: { maxRetries: 0 },
      }).stream(REQUEST),
    );
    expect(errorsOf(events)).toMatchObject([{ kind: "timeout" }]);
    expect(errorsOf(events)[0]?.message).toContain("deadline");
  });

  it("an attempt ends at its deadline while real content trickles in", async () => {
    const slow = await startMockProvider({ writeSize: 8, writeDelayMs: 25 });
    try {
      slow.enqueue({ blocks: [{ type: "text", text: "word ".repeat(400) }], pieceSize: 4 });
      const events = await collect(
        mockClient(slow, "anthropic", { attemptTimeoutMs: 300, retry: { maxRetries: 0 } }).stream(REQUEST),
      );
      expect(errorsOf(events)).toMatchObject([{ kind: "timeout" }]);
      expect(errorsOf(events)[0]?.message).toContain("deadline");
      expect(finalOf(events)).toMatchObject({ type: "status", status: "failed" });
    } finally {
      await slow.close();
    }
  });
});

describe("failures the caller has not seen are retried", () => {
  const withPreamble: SchemeName[] = ["anthropic", "openai-chat", "openai-responses"];

  it.each(withPreamble)("%s: a reset after the start, before any content", async (scheme) => {
    mock.enqueue({ fault: "reset", response: HELLO, afterBytes: firstFrameBytes(scheme) }, HELLO);
    const events = await collect(mockClient(mock, scheme).stream(REQUEST));
    expect(mock.requests).toHaveLength(2);
    expect(errorsOf(events)).toEqual([]);
    expect(events.filter((e) => e.type === "status" && e.status === "started")).toHaveLength(1);
    expect(textOf(events)).toBe("Hello there, how are you doing today?");
    expect(finalOf(events)).toMatchObject({ status: "completed" });
  });

  it.each(withPreamble)("%s: silence after the start, before any content", async (scheme) => {
    mock.enqueue({ fault: "stall", response: HELLO, afterBytes: firstFrameBytes(scheme) }, HELLO);
    const events = await collect(mockClient(mock, scheme, { idleTimeoutMs: 100 }).stream(REQUEST));
    expect(mock.requests).toHaveLength(2);
    expect(errorsOf(events)).toEqual([]);
    expect(textOf(events)).toBe("Hello there, how are you doing today?");
  });

  it("anthropic: an overloaded error event after message_start, with its usage held back", async () => {
    const start = encodeScripted("anthropic", HELLO).slice(0, firstFrameBytes("anthropic"));
    const overloaded =
      'event: ping\ndata: {"type":"ping"}\n\n' +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    mock.enqueue({ raw: start + overloaded }, HELLO);
    const events = await collect(mockClient(mock, "anthropic").stream(REQUEST));
    expect(mock.requests).toHaveLength(2);
    expect(errorsOf(events)).toEqual([]);
    // One usage report per delivered attempt: the failed attempt's `message_start` usage never reached us.
    expect(events.filter((e) => e.type === "usage")[0]).toMatchObject({ inputTokens: 12 });
    expect(finalOf(events)).toMatchObject({ status: "completed" });
  });

  it("anthropic: a non-retryable error after message_start is reported, not retried", async () => {
    const start = encodeScripted("anthropic", HELLO).slice(0, firstFrameBytes("anthropic"));
    const invalid =
      'event: error\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"bad"}}\n\n';
    mock.enqueue({ raw: start + invalid }, HELLO);
    const events = await collect(mockClient(mock, "anthropic").stream(REQUEST));
    expect(mock.requests).toHaveLength(1);
    expect(errorsOf(events)).toMatchObject([{ kind: "invalid_request" }]);
  });
});

describe("an OpenAI-compatible error beside the final usage", () => {
  const chunk = (fields: object) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "m", ...fields })}\n\n`;

  it("keeps the usage and the real finish reason, and still tells the error", async () => {
    mock.enqueue({
      raw:
        chunk({
          choices: [{ index: 0, delta: { role: "assistant", content: "Once upon" }, finish_reason: null }],
        }) +
        chunk({ choices: [{ index: 0, delta: {}, finish_reason: "length" }] }) +
        chunk({
          choices: [],
          usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 },
          error: { message: "max_tokens reached", type: "invalid_request_error" },
        }) +
        "data: [DONE]\n\n",
    });
    const response = await mockClient(mock, "openai-chat").complete(REQUEST);
    expect(response).toMatchObject({
      status: "completed",
      stopReason: "max_tokens",
      rawStopReason: "length",
      text: "Once upon",
      usage: { inputTokens: 11, outputTokens: 2 },
      error: { message: "openai-chat: max_tokens reached" },
    });
  });
});
