import { type ClientOptions, createClient, type LlmClient } from "../../src/llm-client/client.js";
import type { Event } from "../../src/llm-client/event.js";
import type { SchemeName } from "../../src/llm-client/item.js";
import type { Request } from "../../src/llm-client/request.js";
import type { MockProvider } from "../../src/testing/mock-provider.js";
import type { ScriptedResponse } from "../../src/testing/script.js";

/** Shared by the client's tests over real HTTP against the mock provider. */
export const REQUEST: Request = { items: [{ type: "message", role: "user", text: "Say hello" }] };

export const HELLO: ScriptedResponse = {
  blocks: [{ type: "text", text: "Hello there, how are you doing today?" }],
  usage: { inputTokens: 12, outputTokens: 9 },
  pieceSize: 4,
};

export const FAST_RETRY = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 50 };

/** A client of `scheme` against `mock`, with the key `test-key` and fast retries. */
export function mockClient(
  mock: MockProvider,
  scheme: SchemeName,
  options: Partial<ClientOptions> = {},
): LlmClient {
  return createClient({
    scheme,
    model: "test-model",
    apiKey: "test-key",
    baseURL: mock.baseURLFor(scheme),
    retry: FAST_RETRY,
    ...options,
  });
}

export async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const out: Event[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export function textOf(events: Event[]): string {
  return events
    .map((e) => (e.type === "block_delta" && e.delta.kind === "text" ? e.delta.text : ""))
    .join("");
}

export function finalOf(events: Event[]): Event | undefined {
  return events.at(-1);
}

export function errorsOf(events: Event[]): Extract<Event, { type: "error" }>[] {
  return events.filter((e): e is Extract<Event, { type: "error" }> => e.type === "error");
}
