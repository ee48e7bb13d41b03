/**
 * Every way a tool call can fail becomes an error result the model can read and correct, and the
 * run goes on to the model's next answer: unknown names, arguments that are not JSON or do not
 * match the schema, a throw, a tool's own timeout and the worker's default one.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type SchemeName, type ToolResultItem, tool, Worker } from "../../src/index.js";
import { encodeScripted } from "../../src/testing/index.js";
import {
  bodyOf,
  clientFor,
  expectEveryCallAnswered,
  outline,
  SCHEMES,
  sentResults,
  sleep,
  useMockProvider,
} from "./tools-harness.js";

const mock = useMockProvider();

const getWeather = tool({
  name: "get_weather",
  description: "Current weather of a city",
  input: z.object({ city: z.string(), units: z.enum(["metric", "imperial"]).default("metric") }),
  execute: ({ city, units }) => `sunny in ${city} (${units})`,
});
const lookup = tool({
  name: "lookup",
  description: "Looks a record up",
  input: z.object({ id: z.string() }),
  execute: () => {
    throw new Error("database is down");
  },
});

function results(history: readonly { type: string }[]): ToolResultItem[] {
  return history.filter((i): i is ToolResultItem => i.type === "tool_result");
}

describe("a response whose calls all go wrong in a different way (openai-chat)", () => {
  const seen = { timedOutSignal: undefined as AbortSignal | undefined };
  const ownTimeout = tool({
    name: "own_timeout",
    description: "Slow, with a 50 ms limit of its own",
    input: z.object({}),
    timeoutMs: 50,
    execute: async (_args, { signal }) => {
      seen.timedOutSignal = signal;
      await sleep(5_000, signal);
      return "never";
    },
  });
  const ignoresSignal = tool({
    name: "ignores_signal",
    description: "Never ends and ignores its signal; the worker's default limit applies",
    input: z.object({}),
    execute: () => new Promise<string>(() => {}),
  });
  const tools = [getWeather, lookup, ownTimeout, ignoresSignal];

  async function run() {
    const provider = mock();
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "c_unknown", name: "search_web", arguments: { q: "Kyoto" } },
          // A string is sent as raw argument text: here JSON cut off in the middle.
          { type: "tool_call", id: "c_json", name: "get_weather", arguments: '{"city": "Kyo' },
          {
            type: "tool_call",
            id: "c_schema",
            name: "get_weather",
            arguments: { town: "Kyoto", units: "kelvin" },
          },
          { type: "tool_call", id: "c_throw", name: "lookup", arguments: { id: "42" } },
          { type: "tool_call", id: "c_own", name: "own_timeout", arguments: {} },
          { type: "tool_call", id: "c_default", name: "ignores_signal", arguments: {} },
          { type: "tool_call", id: "c_ok", name: "get_weather", arguments: { city: "Osaka" } },
        ],
      },
      { blocks: [{ type: "text", text: "Sorry, several tools failed; Osaka is sunny." }] },
    );
    const worker = new Worker({ client: clientFor(provider, "openai-chat"), tools, toolTimeoutMs: 80 });
    const started = performance.now();
    const result = await worker.run("weather?");
    return { provider, worker, result, elapsed: performance.now() - started };
  }

  it("answers every call, marks the failures as errors and carries on to the model's answer", async () => {
    const { worker, result, provider } = await run();
    expect(result).toMatchObject({
      status: "finished",
      text: "Sorry, several tools failed; Osaka is sunny.",
      turns: 2,
    });
    expectEveryCallAnswered(worker.history);
    expect(results(worker.history).map((r) => [r.callId, r.isError === true])).toEqual([
      ["c_unknown", true],
      ["c_json", true],
      ["c_schema", true],
      ["c_throw", true],
      ["c_own", true],
      ["c_default", true],
      ["c_ok", false],
    ]);
    expect(outline(worker.history).at(-1)).toBe("assistant:Sorry, several tools failed; Osaka is sunny.");
    // The model reads every error in the next request, in call order.
    const sent = sentResults("openai-chat", bodyOf(provider, 1)).map(([text]) => text);
    expect(sent).toEqual(results(worker.history).map((r) => r.content));
  });

  it("says what went wrong in words the model can act on", async () => {
    const { worker } = await run();
    const byId = new Map(results(worker.history).map((r) => [r.callId, r.content ?? ""]));
    expect(byId.get("c_unknown")).toBe(
      'unknown tool "search_web"; the tools you can call are: get_weather, lookup, own_timeout, ignores_signal',
    );
    expect(byId.get("c_json")).toMatch(
      /^invalid JSON arguments: .+\. Call get_weather again with a JSON object/,
    );
    const schema = byId.get("c_schema") as string;
    expect(schema).toMatch(/^invalid arguments — /);
    expect(schema).toContain("city: ");
    expect(schema).toContain("units: ");
    expect(schema).toMatch(/Call get_weather again with corrected arguments\.$/);
    expect(byId.get("c_throw")).toBe("lookup failed: database is down");
    expect(byId.get("c_own")).toBe("own_timeout timed out after 50 ms");
    expect(byId.get("c_default")).toBe("ignores_signal timed out after 80 ms");
    expect(byId.get("c_ok")).toBe("sunny in Osaka (metric)");
  });

  it("aborts a timed-out tool's signal and does not wait for a tool that ignores it", async () => {
    const { elapsed } = await run();
    expect(seen.timedOutSignal?.aborted).toBe(true);
    // The slowest call is bounded by the 80 ms default, not by the 5 s sleep or by forever.
    expect(elapsed).toBeLessThan(1_500);
  });
});

describe.each(SCHEMES)("error results over %s", (scheme) => {
  it("are sent back marked as errors where the provider has a flag for it", async () => {
    const provider = mock();
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", name: "no_such_tool", arguments: {} },
          { type: "tool_call", name: "lookup", arguments: { id: "42" } },
          { type: "tool_call", name: "get_weather", arguments: { town: "Kyoto" } },
          { type: "tool_call", name: "get_weather", arguments: { city: "Kyoto" } },
        ],
      },
      { blocks: [{ type: "text", text: "Kyoto is sunny." }] },
    );
    const worker = new Worker({ client: clientFor(provider, scheme), tools: [getWeather, lookup] });
    const result = await worker.run("weather?");
    expect(result).toMatchObject({ status: "finished", text: "Kyoto is sunny." });
    expectEveryCallAnswered(worker.history);

    // Anthropic has `is_error`, Gemini an `error` response; the others only have the text.
    const flagged = scheme === "anthropic" || scheme === "gemini";
    const sent = sentResults(scheme, bodyOf(provider, 1));
    expect(sent.map(([, isError]) => isError)).toEqual([flagged, flagged, flagged, false]);
    expect(sent[0]?.[0]).toContain('unknown tool "no_such_tool"');
    expect(sent[1]?.[0]).toBe("lookup failed: database is down");
    expect(sent[2]?.[0]).toContain("city: ");
    expect(sent[3]?.[0]).toBe("sunny in Kyoto (metric)");
  });
});

describe("arguments that are not JSON, over Anthropic", () => {
  it("sends the broken call back with an empty input beside its error result", async () => {
    const provider = mock();
    // Anthropic streams tool input as JSON text; this response's text is cut off mid-string.
    const whole = encodeScripted("anthropic", {
      blocks: [
        { type: "tool_call", id: "toolu_bad", name: "get_weather", arguments: { city: "PLACEHOLDER" } },
      ],
      pieceSize: 1_000,
    });
    const broken = whole.replace(String.raw`{\"city\":\"PLACEHOLDER\"}`, String.raw`{\"city\": \"Kyo`);
    expect(broken).not.toBe(whole);
    provider.enqueue({ raw: broken }, { blocks: [{ type: "text", text: "Let me try again." }] });
    const worker = new Worker({ client: clientFor(provider, "anthropic"), tools: [getWeather] });

    const result = await worker.run("weather?");

    expect(result).toMatchObject({ status: "finished", text: "Let me try again." });
    const messages = bodyOf(provider, 1).messages as Array<{ role: string; content: unknown[] }>;
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_bad", name: "get_weather", input: {} }],
    });
    expect(messages[2]?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_bad",
      is_error: true,
      content: expect.stringMatching(/^invalid JSON arguments: /),
    });
  });
});

describe("time limits", () => {
  function slowTool(ms: number, timeoutMs?: number) {
    return tool({
      name: "slow",
      description: "",
      input: z.object({}),
      ...(timeoutMs !== undefined && { timeoutMs }),
      execute: async (_args, { signal }) => {
        await sleep(ms, signal);
        return `slept ${ms} ms`;
      },
    });
  }

  async function runWith(options: { tool: ReturnType<typeof slowTool>; toolTimeoutMs?: number }) {
    const provider = mock();
    provider.enqueue(
      { blocks: [{ type: "tool_call", id: "c1", name: "slow", arguments: {} }] },
      { blocks: [{ type: "text", text: "ok" }] },
    );
    const worker = new Worker({
      client: clientFor(provider, "openai-chat" satisfies SchemeName),
      tools: [options.tool],
      ...(options.toolTimeoutMs !== undefined && { toolTimeoutMs: options.toolTimeoutMs }),
    });
    await worker.run("go");
    return results(worker.history)[0];
  }

  it("a tool's own limit wins over the worker's default", async () => {
    expect(await runWith({ tool: slowTool(200, 30), toolTimeoutMs: 5_000 })).toMatchObject({
      isError: true,
      content: "slow timed out after 30 ms",
    });
    expect(await runWith({ tool: slowTool(60, 5_000), toolTimeoutMs: 20 })).toMatchObject({
      content: "slept 60 ms",
    });
  });

  it("a limit too long for a timer (Infinity) means no limit, not an instant timeout", async () => {
    const result = await runWith({ tool: slowTool(30), toolTimeoutMs: Number.POSITIVE_INFINITY });
    expect(result).toMatchObject({ content: "slept 30 ms" });
    expect(result?.isError).toBeUndefined();
  });
});
