/** `yoake -p` continues the trace of a `TRACEPARENT` in its environment (the real CLI, in-process). */
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { headlessFixture, runYoake } from "./cli-test-kit.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});

type Fixture = Awaited<ReturnType<typeof headlessFixture>>;
let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  exporter.reset();
});

describe("TRACEPARENT", () => {
  it("the run's spans join the caller's trace, the run a child of its span", async () => {
    fixture = await headlessFixture({ "a.txt": "alpha\n" });
    fixture.provider.enqueue(
      { blocks: [{ type: "tool_call", id: "toolu_1", name: "read_file", arguments: { path: "a.txt" } }] },
      { blocks: [{ type: "text", text: "alpha" }] },
    );
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const env = { ...fixture.env, TRACEPARENT: `00-${traceId}-b7ad6b7169203331-01` };
    const out = await runYoake(["-p", "read a.txt"], { cwd: fixture.project.dir, env });
    expect(out.exitCode).toBe(0);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining(["invoke_agent", "turn 1", "turn 2", "execute_tool read_file"]),
    );
    expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
    const run = spans.find((s) => s.name === "invoke_agent");
    expect(run?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
  });

  it("without it, a run starts a trace of its own", async () => {
    fixture = await headlessFixture();
    fixture.provider.enqueue({ blocks: [{ type: "text", text: "hi" }] });
    const out = await fixture.run(["-p", "hello"]);
    expect(out.exitCode).toBe(0);
    const run = exporter.getFinishedSpans().find((s) => s.name === "invoke_agent");
    expect(run?.parentSpanContext).toBeUndefined();
  });
});
