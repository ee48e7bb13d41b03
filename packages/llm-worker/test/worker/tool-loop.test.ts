/**
 * A multi-round tool loop over real HTTP for each of the five schemes: the model calls two tools,
 * then one more, then answers. Pins the history the Worker keeps, the requests the provider gets
 * (tool calls and results sent back in that provider's own form, in call order) and summed usage.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type SchemeName, tool, Worker } from "../../src/index.js";
import type { ScriptedResponse } from "../../src/testing/index.js";
import {
  bodyOf,
  clientFor,
  expectEveryCallAnswered,
  outline,
  SCHEMES,
  useMockProvider,
} from "./tools-harness.js";

const mock = useMockProvider();

const QUESTION = "What's the weather in Kyoto, and the time there?";
const SYSTEM = "Be brief.";
const FINAL = "Kyoto: sunny, 21°C (69.8°F) at 14:05.";

const getWeather = tool({
  name: "get_weather",
  description: "Current weather of a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny, 21°C in ${city}`,
});
const getTime = tool({
  name: "get_time",
  description: "Local time in a time zone",
  input: z.object({ zone: z.string() }),
  execute: ({ zone }) => `14:05 in ${zone}`,
});
const toFahrenheit = tool({
  name: "to_fahrenheit",
  description: "Celsius to Fahrenheit",
  input: z.object({ celsius: z.number() }),
  execute: ({ celsius }) => `${(celsius * 9) / 5 + 32}°F`,
});
const TOOLS = [getWeather, getTime, toFahrenheit];

/** Gemini before v3 and Ollama send no call ids: there the Worker makes them up. */
const CALL_IDS: Record<SchemeName, [string, string, string] | undefined> = {
  anthropic: ["toolu_weather", "toolu_time", "toolu_fahrenheit"],
  "openai-chat": ["call_weather", "call_time", "call_fahrenheit"],
  "openai-responses": ["call_weather", "call_time", "call_fahrenheit"],
  gemini: undefined,
  ollama: undefined,
};

function script(scheme: SchemeName): ScriptedResponse[] {
  const ids = CALL_IDS[scheme];
  const id = (n: 0 | 1 | 2) => (ids ? { id: ids[n] } : {});
  return [
    {
      responseId: "resp_r1",
      blocks: [
        { type: "text", text: "Let me look that up." },
        { type: "tool_call", ...id(0), name: "get_weather", arguments: { city: "Kyoto" } },
        { type: "tool_call", ...id(1), name: "get_time", arguments: { zone: "Asia/Tokyo" } },
      ],
      usage: { inputTokens: 100, outputTokens: 20 },
    },
    {
      responseId: "resp_r2",
      blocks: [{ type: "tool_call", ...id(2), name: "to_fahrenheit", arguments: { celsius: 21 } }],
      usage: { inputTokens: 160, outputTokens: 12 },
    },
    {
      responseId: "resp_r3",
      blocks: [{ type: "text", text: FINAL }],
      usage: { inputTokens: 200, outputTokens: 25 },
    },
  ];
}

const RESULTS = ["sunny, 21°C in Kyoto", "14:05 in Asia/Tokyo", "69.8°F"];

/**
 * The whole conversation of the third request in the provider's own form, and how much of it each
 * request carried (the first only the question, the second up to the first results).
 */
const WIRE: Record<SchemeName, { field: string; conversation: unknown[]; cuts: [number, number, number] }> = {
  anthropic: {
    field: "messages",
    cuts: [1, 3, 5],
    conversation: [
      { role: "user", content: [{ type: "text", text: QUESTION }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look that up." },
          { type: "tool_use", id: "toolu_weather", name: "get_weather", input: { city: "Kyoto" } },
          { type: "tool_use", id: "toolu_time", name: "get_time", input: { zone: "Asia/Tokyo" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_weather", content: RESULTS[0] },
          { type: "tool_result", tool_use_id: "toolu_time", content: RESULTS[1] },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_fahrenheit", name: "to_fahrenheit", input: { celsius: 21 } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_fahrenheit", content: RESULTS[2] }],
      },
    ],
  },
  "openai-chat": {
    field: "messages",
    cuts: [2, 5, 7],
    conversation: [
      { role: "system", content: SYSTEM },
      { role: "user", content: QUESTION },
      {
        role: "assistant",
        content: "Let me look that up.",
        tool_calls: [
          {
            id: "call_weather",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Kyoto"}' },
          },
          {
            id: "call_time",
            type: "function",
            function: { name: "get_time", arguments: '{"zone":"Asia/Tokyo"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_weather", content: RESULTS[0] },
      { role: "tool", tool_call_id: "call_time", content: RESULTS[1] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_fahrenheit",
            type: "function",
            function: { name: "to_fahrenheit", arguments: '{"celsius":21}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_fahrenheit", content: RESULTS[2] },
    ],
  },
  "openai-responses": {
    field: "input",
    cuts: [1, 6, 8],
    conversation: [
      { type: "message", role: "user", content: [{ type: "input_text", text: QUESTION }] },
      {
        type: "message",
        id: "msg_r10000",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Let me look that up.", annotations: [] }],
      },
      {
        type: "function_call",
        id: "fc_r10001",
        call_id: "call_weather",
        name: "get_weather",
        arguments: '{"city":"Kyoto"}',
      },
      {
        type: "function_call",
        id: "fc_r10002",
        call_id: "call_time",
        name: "get_time",
        arguments: '{"zone":"Asia/Tokyo"}',
      },
      { type: "function_call_output", call_id: "call_weather", output: RESULTS[0] },
      { type: "function_call_output", call_id: "call_time", output: RESULTS[1] },
      {
        type: "function_call",
        id: "fc_r20000",
        call_id: "call_fahrenheit",
        name: "to_fahrenheit",
        arguments: '{"celsius":21}',
      },
      { type: "function_call_output", call_id: "call_fahrenheit", output: RESULTS[2] },
    ],
  },
  gemini: {
    field: "contents",
    cuts: [1, 3, 5],
    conversation: [
      { role: "user", parts: [{ text: QUESTION }] },
      {
        role: "model",
        parts: [
          { text: "Let me look that up." },
          { functionCall: { name: "get_weather", args: { city: "Kyoto" } } },
          { functionCall: { name: "get_time", args: { zone: "Asia/Tokyo" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "get_weather", response: { output: RESULTS[0] } } },
          { functionResponse: { name: "get_time", response: { output: RESULTS[1] } } },
        ],
      },
      { role: "model", parts: [{ functionCall: { name: "to_fahrenheit", args: { celsius: 21 } } }] },
      {
        role: "user",
        parts: [{ functionResponse: { name: "to_fahrenheit", response: { output: RESULTS[2] } } }],
      },
    ],
  },
  ollama: {
    field: "messages",
    cuts: [2, 5, 7],
    conversation: [
      { role: "system", content: SYSTEM },
      { role: "user", content: QUESTION },
      {
        role: "assistant",
        content: "Let me look that up.",
        tool_calls: [
          { function: { name: "get_weather", arguments: { city: "Kyoto" } } },
          { function: { name: "get_time", arguments: { zone: "Asia/Tokyo" } } },
        ],
      },
      { role: "tool", tool_name: "get_weather", content: RESULTS[0] },
      { role: "tool", tool_name: "get_time", content: RESULTS[1] },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "to_fahrenheit", arguments: { celsius: 21 } } }],
      },
      { role: "tool", tool_name: "to_fahrenheit", content: RESULTS[2] },
    ],
  },
};

/** The names of the tools a request offered, wherever the scheme puts them. */
function offeredTools(scheme: SchemeName, body: Record<string, unknown>): string[] {
  const tools = body.tools as Array<Record<string, unknown>>;
  switch (scheme) {
    case "anthropic":
    case "openai-responses":
      return tools.map((t) => t.name as string);
    case "openai-chat":
    case "ollama":
      return tools.map((t) => (t.function as { name: string }).name);
    case "gemini":
      return ((tools[0]?.functionDeclarations ?? []) as Array<{ name: string }>).map((t) => t.name);
  }
}

/** Anthropic's prompt-cache breakpoints move to the newest user message; they are not the conversation. */
function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "cache_control")
      .map(([key, inner]) => [key, withoutCacheControl(inner)]),
  );
}

describe.each(SCHEMES)("tool loop over %s", (scheme) => {
  it("calls tools over three requests and ends with the model's answer", async () => {
    const provider = mock();
    provider.enqueue(...script(scheme));
    const worker = new Worker({ client: clientFor(provider, scheme), tools: TOOLS });
    const ran: string[] = [];
    worker.on("tool_end", (e) => ran.push(`${e.call.name}=${e.result.content}`));

    const result = await worker.run(QUESTION);

    expect(result).toMatchObject({ status: "finished", text: FINAL, turns: 3 });
    expect(ran.sort()).toEqual(
      [`get_weather=${RESULTS[0]}`, `get_time=${RESULTS[1]}`, `to_fahrenheit=${RESULTS[2]}`].sort(),
    );
    expect(outline(worker.history)).toEqual([
      `user:${QUESTION}`,
      "assistant:Let me look that up.",
      "call:get_weather",
      "call:get_time",
      "result:get_weather",
      "result:get_time",
      "call:to_fahrenheit",
      "result:to_fahrenheit",
      `assistant:${FINAL}`,
    ]);
    expectEveryCallAnswered(worker.history);
  });

  it("pairs each result with its call by id and keeps the results' text", async () => {
    const provider = mock();
    provider.enqueue(...script(scheme));
    const worker = new Worker({ client: clientFor(provider, scheme), tools: TOOLS });
    await worker.run(QUESTION);

    const calls = worker.history.flatMap((i) => (i.type === "tool_call" ? [i] : []));
    const results = worker.history.flatMap((i) => (i.type === "tool_result" ? [i] : []));
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.callId));
    expect(results.map((r) => [r.name, r.content, r.isError])).toEqual([
      ["get_weather", RESULTS[0], undefined],
      ["get_time", RESULTS[1], undefined],
      ["to_fahrenheit", RESULTS[2], undefined],
    ]);
    const ids = CALL_IDS[scheme];
    if (ids) expect(calls.map((c) => c.callId)).toEqual(ids);
    else {
      // Made-up ids must still tell the calls apart, and are never sent to the provider.
      expect(new Set(calls.map((c) => c.callId)).size).toBe(3);
      expect(calls.every((c) => c.synthesizedId === true)).toBe(true);
    }
  });

  it("sends each request the conversation so far, results in the provider's form and in call order", async () => {
    const provider = mock();
    provider.enqueue(...script(scheme));
    const worker = new Worker({ client: clientFor(provider, scheme), tools: TOOLS, system: SYSTEM });
    await worker.run(QUESTION);

    expect(provider.requests.length).toBe(3);
    const { field, conversation, cuts } = WIRE[scheme];
    cuts.forEach((cut, n) => {
      const body = bodyOf(provider, n);
      expect(withoutCacheControl(body[field]), `request ${n + 1}`).toEqual(conversation.slice(0, cut));
      expect(offeredTools(scheme, body)).toEqual(["get_weather", "get_time", "to_fahrenheit"]);
    });
  });

  it("sums the usage of every request of the run", async () => {
    const provider = mock();
    provider.enqueue(...script(scheme));
    const worker = new Worker({ client: clientFor(provider, scheme), tools: TOOLS });
    const result = await worker.run(QUESTION);
    expect(result.usage).toMatchObject({ inputTokens: 460, outputTokens: 57 });
    // The next run starts its own count.
    provider.enqueue({
      blocks: [{ type: "text", text: "You're welcome." }],
      usage: { inputTokens: 300, outputTokens: 4 },
    });
    const next = await worker.run("Thanks!");
    expect(next).toMatchObject({
      status: "finished",
      turns: 1,
      usage: { inputTokens: 300, outputTokens: 4 },
    });
  });
});

describe("tool output without a BlobStore", () => {
  it("keeps a large result inline, whole, in history and in the next request", async () => {
    const provider = mock();
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}: ${"x".repeat(40)}`).join("\n");
    const dump = tool({ name: "dump", description: "", input: z.object({}), execute: () => big });
    provider.enqueue(
      { blocks: [{ type: "tool_call", id: "call_dump", name: "dump", arguments: {} }] },
      { blocks: [{ type: "text", text: "Done." }] },
    );
    const worker = new Worker({ client: clientFor(provider, "openai-chat"), tools: [dump] });
    await worker.run("dump it");
    const result = worker.history.find((i) => i.type === "tool_result");
    expect(result).toMatchObject({ content: big });
    expect(big.length).toBeGreaterThan(800);
    const messages = bodyOf(provider, 1).messages as Array<Record<string, unknown>>;
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_dump", content: big });
  });
});
