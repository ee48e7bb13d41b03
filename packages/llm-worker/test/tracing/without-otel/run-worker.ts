// A tool loop with the peer hidden: tracing must stay out of the way and the run finish.
import { z } from "zod";
import { createClient, tool, Worker } from "../../../src/index.js";
import { startMockProvider } from "../../../src/testing/index.js";
import { openTelemetry } from "../../../src/tracing/otel.js";

const mock = await startMockProvider();
mock.enqueue(
  { blocks: [{ type: "tool_call", id: "c1", name: "echo", arguments: { text: "hi" } }] },
  { blocks: [{ type: "text", text: "done" }] },
);
const client = createClient({
  scheme: "anthropic",
  model: "m",
  apiKey: "k",
  baseURL: mock.baseURLFor("anthropic"),
});
const echo = tool({
  name: "echo",
  description: "Echo",
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const result = await new Worker({ client, tools: [echo] }).run("go", {
  traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
});
console.log(
  JSON.stringify({ status: result.status, turns: result.turns, otel: openTelemetry() !== undefined }),
);
await mock.close();
