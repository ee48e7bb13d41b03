/**
 * Shared pieces of the Worker tool tests: a fresh mock provider per test, a client of any scheme
 * pointed at it, recorded fixtures as raw replies, and the history invariants every run must keep.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import {
  createClient,
  type Item,
  type LlmClient,
  type SchemeName,
  Worker,
  type WorkerOptions,
} from "../../src/index.js";
import {
  type MockProvider,
  type RawReply,
  type RecordedRequest,
  startMockProvider,
} from "../../src/testing/index.js";
import { PROVIDER_FIXTURES } from "../support/provider-fixtures.js";

export const SCHEMES: readonly SchemeName[] = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "gemini",
  "ollama",
];

/**
 * Starts a mock provider before each test of the file and closes it after, so that no script or
 * recorded request leaks from one test into the next. Call at the top level of a test file.
 */
export function useMockProvider(): () => MockProvider {
  let provider: MockProvider | undefined;
  beforeEach(async () => {
    provider = await startMockProvider();
  });
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });
  return () => {
    if (!provider) throw new Error("the mock provider runs only inside a test");
    return provider;
  };
}

/** A client of `scheme` talking to the mock; no retries, so a scripted failure is seen as it is. */
export function clientFor(provider: MockProvider, scheme: SchemeName): LlmClient {
  return createClient({
    scheme,
    model: scheme === "gemini" ? "gemini-2.5-flash" : "mock-model",
    baseURL: provider.baseURLFor(scheme),
    apiKey: "test-key",
    retry: { maxRetries: 0 },
  });
}

/** A Worker whose client talks to the mock (see `clientFor`). */
export function workerOn(
  provider: MockProvider,
  scheme: SchemeName,
  options: Omit<WorkerOptions, "client"> = {},
): Worker {
  return new Worker({ client: clientFor(provider, scheme), ...options });
}

/** The JSON body of the `n`th request the mock received (0-based). */
export function bodyOf(provider: MockProvider, n: number): Record<string, unknown> {
  const request: RecordedRequest | undefined = provider.requests[n];
  if (request === undefined)
    throw new Error(`the mock received ${provider.requests.length} requests, not ${n + 1}`);
  expect(typeof request.body).toBe("object");
  return request.body as Record<string, unknown>;
}

const fixtureRoot = PROVIDER_FIXTURES;

/** A recorded provider stream (see the fixtures README), played back byte for byte by the mock. */
export function recordedReply(scheme: SchemeName, file: string): RawReply {
  return { raw: readFileSync(join(fixtureRoot, scheme, file)) };
}

/**
 * The invariant of every finished run: each tool call is followed by exactly one result with its
 * id, and no result answers a call that is not in history.
 */
export function expectEveryCallAnswered(history: readonly Item[]): void {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const item of history) {
    if (item.type === "tool_call") {
      expect(open.has(item.callId) || answered.has(item.callId), `call id ${item.callId} reused`).toBe(false);
      open.add(item.callId);
    } else if (item.type === "tool_result") {
      expect(open.has(item.callId), `result for ${item.callId} without an open call`).toBe(true);
      open.delete(item.callId);
      answered.add(item.callId);
    }
  }
  expect([...open], "calls left without a result").toEqual([]);
}

/** History as short readable lines, for order assertions: `user:…`, `call:name`, `result:name`. */
export function outline(history: readonly Item[]): string[] {
  return history.map((item) => {
    switch (item.type) {
      case "message":
        return `${item.role}:${item.text}`;
      case "reasoning":
        return `reasoning:${item.text}`;
      case "tool_call":
        return `call:${item.name}`;
      case "tool_result":
        return `result:${item.name}${item.isError ? "!" : ""}`;
      default:
        return item.type;
    }
  });
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts (as a well-behaved tool does). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The tool results a request sent back, in wire order, as `[text, markedAsError]`. */
export function sentResults(scheme: SchemeName, body: Record<string, unknown>): Array<[string, boolean]> {
  type Loose = Record<string, unknown>;
  switch (scheme) {
    case "anthropic":
      return (body.messages as Array<{ content: Loose[] }>).flatMap((m) =>
        m.content.flatMap((b) =>
          b.type === "tool_result" ? [[b.content as string, b.is_error === true]] : [],
        ),
      ) as Array<[string, boolean]>;
    case "openai-chat":
    case "ollama":
      return (body.messages as Loose[]).flatMap((m) =>
        m.role === "tool" ? [[m.content as string, false]] : [],
      ) as Array<[string, boolean]>;
    case "openai-responses":
      return (body.input as Loose[]).flatMap((i) =>
        i.type === "function_call_output" ? [[i.output as string, false]] : [],
      ) as Array<[string, boolean]>;
    case "gemini":
      return (body.contents as Array<{ parts: Loose[] }>).flatMap((c) =>
        c.parts.flatMap((p) => {
          const response = (
            p.functionResponse as { response: { output?: string; error?: string } } | undefined
          )?.response;
          if (!response) return [];
          return [[response.error ?? response.output ?? "", response.error !== undefined]];
        }),
      ) as Array<[string, boolean]>;
  }
}
