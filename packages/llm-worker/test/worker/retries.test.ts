/** Every retry of a request is told through the event API, with the attempt, the wait and the reason. */
import { describe, expect, it } from "vitest";
import { createClient, Worker } from "../../src/index.js";
import type { WorkerEventOf } from "../../src/internal.js";
import { useMockProvider } from "./tools-harness.js";

const mock = useMockProvider();

describe("retries in the event API", () => {
  it("emits a retry event per retry, then the answer", async () => {
    mock().enqueue(
      { fault: "status", status: 529, message: "Overloaded" },
      { fault: "status", status: 503, message: "busy", headers: { "retry-after-ms": "20" } },
      { blocks: [{ type: "text", text: "Hello" }] },
    );
    const client = createClient({
      scheme: "anthropic",
      model: "mock-model",
      baseURL: mock().baseURLFor("anthropic"),
      apiKey: "test-key",
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 50 },
    });
    const worker = new Worker({ client });
    const retries: WorkerEventOf<"retry">[] = [];
    worker.on("retry", (event) => retries.push(event));
    const result = await worker.run("hi");
    expect(result).toMatchObject({ status: "finished", text: "Hello" });
    expect(retries).toMatchObject([
      {
        type: "retry",
        turn: 1,
        attempt: 2,
        maxAttempts: 3,
        error: { kind: "overloaded", status: 529, message: "anthropic: 529 Overloaded" },
      },
      { turn: 1, attempt: 3, maxAttempts: 3, delayMs: 20, error: { status: 503 } },
    ]);
  });
});
