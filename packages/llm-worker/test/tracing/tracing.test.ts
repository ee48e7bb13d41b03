/**
 * OpenTelemetry spans of a run, recorded by the SDK's in-memory exporter: a two-round tool loop
 * against the mock provider over real HTTP, for every scheme.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createClient, type SchemeName, tool, Worker } from "../../src/index.js";
import { limitFault, type MockProvider, startMockProvider } from "../../src/testing/index.js";

const SCHEMES: readonly SchemeName[] = ["anthropic", "openai-chat", "openai-responses", "gemini", "ollama"];
const PROVIDER_NAMES: Record<SchemeName, string> = {
  anthropic: "anthropic",
  "openai-chat": "openai",
  "openai-responses": "openai",
  gemini: "gcp.gemini",
  ollama: "ollama",
};

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});

let mock: MockProvider;
beforeEach(async () => {
  exporter.reset();
  mock = await startMockProvider();
});
afterEach(() => mock.close());

const weather = tool({
  name: "weather",
  description: "The weather in a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
});

function worker(scheme: SchemeName, options: { tracing?: boolean } = {}): Worker {
  const client = createClient({
    scheme,
    model: "test-model",
    apiKey: "k",
    baseURL: mock.baseURLFor(scheme),
    retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 },
  });
  return new Worker({ client, tools: [weather], ...options });
}

function twoRounds(): void {
  mock.enqueue(
    {
      blocks: [{ type: "tool_call", id: "call_1", name: "weather", arguments: { city: "Kyoto" } }],
      usage: { inputTokens: 120, outputTokens: 15, cacheReadInputTokens: 100 },
    },
    { blocks: [{ type: "text", text: "Sunny." }], usage: { inputTokens: 150, outputTokens: 4 } },
  );
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan | undefined) => span?.spanContext().spanId;

describe.each(SCHEMES)("%s", (scheme) => {
  it("a two-round tool loop: run → turns → chat and execute_tool, with GenAI attributes", async () => {
    twoRounds();
    const result = await worker(scheme).run("Weather in Kyoto?");
    expect(result.status).toBe("finished");
    const spans = exporter.getFinishedSpans();
    const [run] = byName(spans, "invoke_agent");
    const turns = [...byName(spans, "turn 1"), ...byName(spans, "turn 2")];
    const chats = byName(spans, "chat test-model");
    const [toolSpan] = byName(spans, "execute_tool weather");
    expect(spans).toHaveLength(6);
    expect(parentOf(run)).toBeUndefined();
    expect(turns.map(parentOf)).toEqual([idOf(run), idOf(run)]);
    expect(chats.map(parentOf)).toEqual(turns.map(idOf));
    expect(parentOf(toolSpan)).toBe(idOf(turns[0]));
    // One trace.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);

    expect(chats[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": PROVIDER_NAMES[scheme],
      "gen_ai.system": PROVIDER_NAMES[scheme],
      "gen_ai.request.model": "test-model",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 15,
    });
    expect(chats[0]?.attributes["gen_ai.response.finish_reasons"]).toHaveLength(1);
    expect(chats[1]?.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 150,
      "gen_ai.usage.output_tokens": 4,
    });
    expect(toolSpan?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "weather",
      "gen_ai.tool.call.id": expect.any(String),
    });
    expect(run?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.usage.input_tokens": 270,
      "gen_ai.usage.output_tokens": 19,
      "yoake.turns": 2,
      "yoake.status": "finished",
    });
  });
});

describe("tracing details", () => {
  it("anthropic: the provider's finish reasons and cache tokens", async () => {
    twoRounds();
    await worker("anthropic").run("Weather in Kyoto?");
    const chats = byName(exporter.getFinishedSpans(), "chat test-model");
    expect(chats.map((c) => c.attributes["gen_ai.response.finish_reasons"])).toEqual([
      ["tool_use"],
      ["end_turn"],
    ]);
    expect(chats[0]?.attributes["gen_ai.usage.cache_read.input_tokens"]).toBe(100);
    expect(
      byName(exporter.getFinishedSpans(), "execute_tool weather")[0]?.attributes["gen_ai.tool.call.id"],
    ).toBe("call_1");
  });

  it("a traceparent is continued: the run's span is its child, in its trace", async () => {
    twoRounds();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await worker("openai-chat").run("Weather?", { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    const spans = exporter.getFinishedSpans();
    expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
    expect(parentOf(byName(spans, "invoke_agent")[0])).toBe("00f067aa0ba902b7");
  });

  it("a malformed traceparent is ignored: a new trace, no error", async () => {
    twoRounds();
    const result = await worker("gemini").run("Weather?", { traceparent: "00-not-a-trace-01" });
    expect(result.status).toBe("finished");
    expect(parentOf(byName(exporter.getFinishedSpans(), "invoke_agent")[0])).toBeUndefined();
  });

  it("a retry is an event on the request's span; a failed request and run are errors", async () => {
    mock.enqueue(limitFault("anthropic", "rate_limit", 5), limitFault("anthropic", "quota", 0));
    const result = await worker("anthropic").run("Weather?");
    expect(result.status).toBe("failed");
    // The rate limit was retried; the spent quota was not.
    expect(mock.requests).toHaveLength(2);
    const spans = exporter.getFinishedSpans();
    const [chat] = byName(spans, "chat test-model");
    expect(chat?.events.map((e) => [e.name, e.attributes?.["error.type"]])).toEqual([
      ["retry", "rate_limit"],
    ]);
    expect(chat?.status.code).toBe(2);
    expect(chat?.attributes["error.type"]).toBe("quota_exhausted");
    expect(byName(spans, "invoke_agent")[0]?.status.code).toBe(2);
  });

  it("tracing: false records nothing", async () => {
    twoRounds();
    await worker("ollama", { tracing: false }).run("Weather?");
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe("without the optional peer", () => {
  it("a run works and loads nothing when @opentelemetry/api cannot be resolved", async () => {
    const dir = fileURLToPath(new URL("./without-otel/", import.meta.url));
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      ["--require", `${dir}hide-otel.cjs`, "--import", "tsx", `${dir}run-worker.ts`],
      { timeout: 60_000 },
    );
    expect(JSON.parse(stdout.trim())).toEqual({ status: "finished", turns: 2, otel: false });
  });
});
