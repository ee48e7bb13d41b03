/**
 * `npx tsx packages/llm-worker/examples/quota.ts`: a rate limit is waited out and retried; a spent
 * quota fails at once with kind `quota_exhausted` and the time it resets, so a queued job can be
 * scheduled to run again then. Offline: the mock answers with Gemini's documented 429 bodies.
 */
import { createClient, userMessage, Worker } from "@yoake/llm-worker";
import { limitFault, startMockProvider } from "@yoake/llm-worker/testing";

const provider = await startMockProvider();
const client = createClient({
  scheme: "gemini",
  model: "gemini-2.5-flash",
  baseURL: provider.baseURLFor("gemini"),
  apiKey: "not-needed-for-the-mock",
  retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 },
  onRetry: ({ error, delayMs }) => console.log(`[retry] ${error.kind}, waiting ${delayMs} ms`),
});

// A per-minute limit: retried (the wait the provider asked for, capped by the policy), then the answer.
provider.enqueue(limitFault("gemini", "rate_limit", 30), { blocks: [{ type: "text", text: "Hello!" }] });
const first = await client.complete({ items: [userMessage("Hi")] });
console.log(`[answer] ${first.text}`);

// A per-day quota: no retry; the run fails with the reset time.
provider.enqueue(limitFault("gemini", "quota", 6 * 3_600_000));
const result = await new Worker({ client }).run("Hi again");
if (
  result.status === "failed" &&
  result.error.kind === "llm" &&
  result.error.error.kind === "quota_exhausted"
) {
  const resetAt = new Date(result.error.error.resetAt ?? Date.now());
  const hours = Math.round((resetAt.getTime() - Date.now()) / 3_600_000);
  console.log(`[quota] exhausted; resume the job in about ${hours} h (at ${resetAt.toISOString()})`);
}
console.log(`[requests] ${provider.requests.length}`);
await provider.close();
