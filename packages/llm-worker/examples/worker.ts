/**
 * A Worker with a tool, a hook and events streamed to the console — runnable offline:
 * `npx tsx packages/llm-worker/examples/worker.ts`. The model is the package's mock provider
 * (Anthropic's wire format) with a scripted conversation; with a real key, drop the mock and
 * write `createClient({ scheme: "anthropic", model: "claude-sonnet-4-5" })`.
 */
import { createClient, type Hook, tool, Worker } from "@yoake/llm-worker";
import { startMockProvider } from "@yoake/llm-worker/testing";
import { z } from "zod";

const provider = await startMockProvider();
provider.enqueue({
  blocks: [
    { type: "text", text: "Let me look both up." },
    { type: "tool_call", name: "get_weather", arguments: { city: "Kyoto" } },
    { type: "tool_call", name: "get_weather", arguments: { city: "Oslo" } },
  ],
});
provider.enqueue({ blocks: [{ type: "text", text: "Kyoto is sunny at 24°C; Oslo is at 3°C." }] });
const client = createClient({
  scheme: "anthropic",
  model: "claude-sonnet-4-5",
  baseURL: provider.baseURLFor("anthropic"),
  apiKey: "mock",
});

// A tool: the JSON Schema sent to the model comes from the zod schema; arguments are validated.
const getWeather = tool({
  name: "get_weather",
  description: "Current weather for a city",
  input: z.object({ city: z.string().describe("City name") }),
  execute: async ({ city }, { signal }) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    signal.throwIfAborted();
    return city === "Kyoto" ? "sunny, 24°C" : "cloudy, 3°C";
  },
});

// A hook: sees a read-only summary of each call and returns an action.
const audit: Hook = {
  name: "audit",
  beforeToolCall: (call) => {
    console.log(`\n[hook] ${call.name}(${JSON.stringify(call.arguments)}) → continue`);
    return { action: "continue" };
  },
};

const worker = new Worker({
  client,
  system: "You are a weather assistant.",
  tools: [getWeather],
  hooks: [audit],
});

for await (const event of worker.stream("What's the weather in Kyoto and Oslo?")) {
  if (event.type === "text_delta") process.stdout.write(event.text);
  if (event.type === "tool_end") console.log(`[tool] ${event.call.name} → ${event.result.content}`);
  if (event.type === "run_end")
    console.log(`\n[${event.result.status}] history: ${worker.history.length} items`);
}
await provider.close();
