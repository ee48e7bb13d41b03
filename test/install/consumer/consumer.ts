// A user's TypeScript against the installed declarations of every package (type-checked, not run).

import type { FleetDatabase } from "@yoake/fleet";
import { createClient, type Event, tool, Worker, type WorkerResult } from "@yoake/llm-worker";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { Pod, type PodOptions } from "@yoake/pod";
import { connectPod, type PodClient } from "@yoake/pod/client";
import { z } from "zod";

const provider: MockProvider = await startMockProvider();
const client = createClient({
  scheme: "anthropic",
  model: "claude-sonnet-4-5",
  baseURL: provider.baseURLFor("anthropic"),
  apiKey: "mock",
});

let streamed = "";
for await (const event of client.stream({ items: [{ type: "message", role: "user", text: "Hello" }] })) {
  const seen: Event = event;
  if (seen.type === "block_delta" && seen.delta.kind === "text") streamed += seen.delta.text;
}

const add = tool({
  name: "add",
  description: "Adds two numbers",
  input: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});
tool({
  name: "shout",
  description: "The arguments are typed from the schema",
  input: z.object({ word: z.string() }),
  // @ts-expect-error -- `word` is a string: the declarations carry the zod types through.
  execute: async ({ word }) => word.toFixed(2),
});

const worker = new Worker({ client, tools: [add] });
const result: WorkerResult = await worker.run("What is 2 + 3?");
const answer: string = result.status === "finished" ? result.text : streamed;

const options: PodOptions = { cwd: process.cwd() };
const pod: Pod = await Pod.create(options);
const remote: PodClient = await connectPod("/tmp/pod.sock");
console.log(answer, pod.sessionId, remote);
await provider.close();

// The fleet's declarations name pg's types: they must resolve in a project that installed only @yoake/fleet.
export type FleetDatabaseOf = FleetDatabase;
