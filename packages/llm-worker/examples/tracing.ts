/**
 * `npx tsx packages/llm-worker/examples/tracing.ts`: OpenTelemetry spans of a run. With
 * `@opentelemetry/api` installed and an SDK registered (here the in-memory exporter; in production
 * an OTLP exporter), every run, turn, provider request and tool call is a span with the GenAI
 * semantic-convention attributes. Offline: the provider is the package's mock.
 */
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createClient, tool, Worker } from "@yoake/llm-worker";
import { startMockProvider } from "@yoake/llm-worker/testing";
import { z } from "zod";

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);

const provider = await startMockProvider();
provider.enqueue(
  {
    blocks: [{ type: "tool_call", name: "get_weather", arguments: { city: "Kyoto" } }],
    usage: { inputTokens: 320, outputTokens: 18 },
  },
  {
    blocks: [{ type: "text", text: "Kyoto is sunny." }],
    usage: { inputTokens: 360, outputTokens: 6, cacheReadInputTokens: 320 },
  },
);
const client = createClient({
  scheme: "anthropic",
  model: "claude-sonnet-4-5",
  baseURL: provider.baseURLFor("anthropic"),
  apiKey: "not-needed-for-the-mock",
});
const weather = tool({
  name: "get_weather",
  description: "Current weather for a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

// A TRACEPARENT from the environment (a CI job, a calling service) makes the run part of its trace.
await new Worker({ client, tools: [weather] }).run("Weather in Kyoto?", {
  traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
});

const spans = exporter.getFinishedSpans();
const children = (parent: string | undefined): ReadableSpan[] =>
  spans
    .filter((s) => s.parentSpanContext?.spanId === parent)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
const KEYS = [
  "gen_ai.request.model",
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.usage.cache_read.input_tokens",
  "gen_ai.response.finish_reasons",
  "gen_ai.tool.name",
];
function print(span: ReadableSpan, depth: number): void {
  const attributes = KEYS.filter((k) => span.attributes[k] !== undefined).map(
    (k) => `${k}=${span.attributes[k]}`,
  );
  console.log(`${"  ".repeat(depth)}${span.name}  ${attributes.join(" ")}`.trimEnd());
  for (const child of children(span.spanContext().spanId)) print(child, depth + 1);
}
for (const root of children("00f067aa0ba902b7")) print(root, 0);
await provider.close();
