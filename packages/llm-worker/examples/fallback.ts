/**
 * `npx tsx packages/llm-worker/examples/fallback.ts`: a chain of models. The first (Anthropic) is
 * overloaded however often it is retried, so the request goes to the next (Ollama), before any of
 * an answer was shown; the Worker says so with a `fallback` event. All of it against the
 * package's mock provider (no key, no network).
 */
import { createClient, createFallbackClient, Worker } from "@yoake/llm-worker";
import { startMockProvider } from "@yoake/llm-worker/testing";

const provider = await startMockProvider();
provider.setHandler((request) =>
  request.scheme === "anthropic"
    ? { fault: "status", status: 529, message: "Overloaded", code: "overloaded_error" }
    : { blocks: [{ type: "text", text: "Hello from the fallback model." }] },
);

const client = createFallbackClient({
  clients: [
    createClient({
      scheme: "anthropic",
      model: "claude-sonnet-4-5",
      baseURL: provider.baseURLFor("anthropic"),
      apiKey: "not-needed-for-the-mock",
      retry: { maxRetries: 2, baseDelayMs: 10 },
    }),
    createClient({ scheme: "ollama", model: "qwen3:8b", baseURL: provider.baseURLFor("ollama") }),
  ],
  // The first model is passed over for a minute, then tried again on the next turn.
  coolDownMs: 60_000,
});

const worker = new Worker({ client });
for await (const event of worker.stream("Say hello")) {
  if (event.type === "retry") console.log(`[retry] attempt ${event.attempt} of ${event.maxAttempts}`);
  if (event.type === "fallback")
    console.log(
      `[fallback] ${event.from.scheme}/${event.from.model} → ${event.to.scheme}/${event.to.model}` +
        ` (${event.error?.kind}); ~${event.coldCacheTokens} prompt tokens without a cache`,
    );
  if (event.type === "run_end" && event.result.status === "finished") console.log(event.result.text);
}
await provider.close();
