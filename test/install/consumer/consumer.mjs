// A user's plain Node ESM script against the installed @yoake/llm-worker: stream one response
// from the mock provider, then run a Worker with one zod tool. Prints one JSON line of results.
import { createClient, tool, Worker } from "@yoake/llm-worker";
import { startMockProvider } from "@yoake/llm-worker/testing";
import { z } from "zod";

const provider = await startMockProvider();
try {
  const client = createClient({
    scheme: "anthropic",
    model: "claude-sonnet-4-5",
    baseURL: provider.baseURLFor("anthropic"),
    apiKey: "mock",
  });

  provider.enqueue({ blocks: [{ type: "text", text: "Streamed from the mock." }] });
  let streamed = "";
  for await (const event of client.stream({ items: [{ type: "message", role: "user", text: "Hello" }] })) {
    if (event.type === "block_delta" && event.delta.kind === "text") streamed += event.delta.text;
  }

  const add = tool({
    name: "add",
    description: "Adds two numbers",
    input: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b),
  });
  provider.enqueue(
    { blocks: [{ type: "tool_call", name: "add", arguments: { a: 2, b: 3 } }] },
    { blocks: [{ type: "text", text: "2 + 3 = 5" }] },
  );
  const worker = new Worker({ client, tools: [add] });
  const result = await worker.run("What is 2 + 3?");
  const toolResult = worker.history.find((item) => item.type === "tool_result");
  console.log(
    JSON.stringify({
      streamed,
      status: result.status,
      text: result.status === "finished" ? result.text : undefined,
      toolResult: toolResult?.content,
      requests: provider.requests.length,
    }),
  );
} finally {
  await provider.close();
}
