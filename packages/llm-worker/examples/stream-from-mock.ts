/**
 * `npx tsx packages/llm-worker/examples/stream-from-mock.ts`: a client streaming from a provider, offline. The provider is
 * the package's mock server speaking Anthropic's real wire format with a scripted answer (no key,
 * no network); point `createClient` at a real provider and the code stays the same.
 */
import { createClient } from "@yoake/llm-worker";
import { startMockProvider } from "@yoake/llm-worker/testing";

const provider = await startMockProvider({ writeSize: 24, writeDelayMs: 2 });
provider.enqueue({
  blocks: [
    { type: "thinking", text: "The user wants the weather; I should call the tool.", signature: "sig-1" },
    { type: "text", text: "Let me check the weather in Kyoto for you." },
    { type: "tool_call", name: "get_weather", arguments: { city: "Kyoto", unit: "celsius" } },
  ],
  usage: { inputTokens: 1200, outputTokens: 58, cacheReadInputTokens: 1024 },
});

const client = createClient({
  scheme: "anthropic",
  model: "claude-sonnet-4-5",
  baseURL: provider.baseURLFor("anthropic"),
  apiKey: "not-needed-for-the-mock",
});

console.log("(scripted model on a local mock of the Anthropic API)\n");
for await (const event of client.stream({
  system: "You are a helpful assistant.",
  items: [{ type: "message", role: "user", text: "What's the weather in Kyoto?" }],
  tools: [
    {
      name: "get_weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
})) {
  switch (event.type) {
    case "block_start":
      process.stdout.write(
        event.blockType === "tool_use" ? `\n[tool call ${event.name}] ` : `\n[${event.blockType}] `,
      );
      break;
    case "block_delta":
      if (event.delta.kind === "text" || event.delta.kind === "thinking")
        process.stdout.write(event.delta.text);
      if (event.delta.kind === "input_json") process.stdout.write(event.delta.json);
      break;
    case "usage":
      process.stdout.write(
        `\n[usage] input ${event.inputTokens} (cache read ${event.cacheReadInputTokens}), output ${event.outputTokens}`,
      );
      break;
    case "status":
      if (event.status !== "started") process.stdout.write(`\n[${event.status}: ${event.stopReason}]\n`);
      break;
    case "error":
      process.stdout.write(`\n[error ${event.kind}] ${event.message}\n`);
      break;
  }
}
await provider.close();
