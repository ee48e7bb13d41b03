/**
 * Reasoning the model did before calling a tool goes back with the next request in the form its
 * provider verifies: Anthropic's signed thinking block before the tool_use, OpenAI Responses'
 * reasoning item (id and encrypted content) before the function_call, Gemini's thought signature
 * on the functionCall part. Scripted responses, and real recordings played back by the mock.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool, Worker } from "../../src/index.js";
import { PROVIDER_FIXTURES } from "../support/provider-fixtures.js";
import {
  bodyOf,
  clientFor,
  expectEveryCallAnswered,
  outline,
  recordedReply,
  useMockProvider,
} from "./tools-harness.js";

const mock = useMockProvider();

const getWeather = tool({
  name: "get_weather",
  description: "Current weather of a city",
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny, 21°C in ${city}`,
});
const toFahrenheit = tool({
  name: "to_fahrenheit",
  description: "Celsius to Fahrenheit",
  input: z.object({ celsius: z.number() }),
  execute: ({ celsius }) => `${(celsius * 9) / 5 + 32}°F`,
});
/** The tool the recorded conversations call. */
const weather = tool({
  name: "weather",
  description: "Weather of a location",
  input: z.object({ location: z.string() }),
  execute: ({ location }) => `40°C and sunny in ${location}`,
});

const fixtureRoot = PROVIDER_FIXTURES;

/** The blocks a recording is known to contain, from the `*.expected.json` beside it. */
function expectedBlocks(path: string): Array<Record<string, unknown>> {
  const expected = JSON.parse(readFileSync(resolve(fixtureRoot, path), "utf8")) as {
    expected: { blocks: Array<Record<string, unknown>> };
  };
  return expected.expected.blocks;
}

describe("Anthropic: signed thinking goes back before the tool_use", () => {
  it("replays every thinking block with its signature, in its own assistant turn", async () => {
    const provider = mock();
    provider.enqueue(
      {
        blocks: [
          { type: "thinking", text: "The user wants the weather; ask the tool.", signature: "sig-one" },
          { type: "tool_call", id: "toolu_1", name: "get_weather", arguments: { city: "Kyoto" } },
        ],
      },
      {
        blocks: [
          { type: "thinking", text: "Convert to Fahrenheit too.", signature: "sig-two" },
          { type: "tool_call", id: "toolu_2", name: "to_fahrenheit", arguments: { celsius: 21 } },
        ],
      },
      { blocks: [{ type: "text", text: "21°C (69.8°F), sunny." }] },
    );
    const worker = new Worker({
      client: clientFor(provider, "anthropic"),
      tools: [getWeather, toFahrenheit],
      generation: { reasoning: { budgetTokens: 2048 } },
    });

    const result = await worker.run("Weather in Kyoto?");

    expect(result).toMatchObject({ status: "finished", turns: 3 });
    expect(outline(worker.history)).toEqual([
      "user:Weather in Kyoto?",
      "reasoning:The user wants the weather; ask the tool.",
      "call:get_weather",
      "result:get_weather",
      "reasoning:Convert to Fahrenheit too.",
      "call:to_fahrenheit",
      "result:to_fahrenheit",
      "assistant:21°C (69.8°F), sunny.",
    ]);
    const thinking1 = {
      type: "thinking",
      thinking: "The user wants the weather; ask the tool.",
      signature: "sig-one",
    };
    const thinking2 = { type: "thinking", thinking: "Convert to Fahrenheit too.", signature: "sig-two" };
    const messages = bodyOf(provider, 2).messages as Array<{ role: string; content: unknown[] }>;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(messages[1]?.content).toEqual([
      thinking1,
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Kyoto" } },
    ]);
    expect(messages[3]?.content).toEqual([
      thinking2,
      { type: "tool_use", id: "toolu_2", name: "to_fahrenheit", input: { celsius: 21 } },
    ]);
    expect(messages[4]?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_2",
      content: "69.8°F",
    });
    // Thinking stays on while the tool loop runs: the last tool turn starts with a thinking block.
    for (const n of [0, 1, 2])
      expect(bodyOf(provider, n).thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
  });
});

describe("OpenAI Responses: the reasoning item goes back before the function_call", () => {
  it("replays a scripted reasoning item with its id and encrypted content, in order", async () => {
    const provider = mock();
    provider.enqueue(
      {
        responseId: "resp_r1",
        blocks: [
          { type: "thinking", text: "Need the weather first.", signature: "enc-opaque-1" },
          { type: "tool_call", id: "call_w", name: "get_weather", arguments: { city: "Kyoto" } },
        ],
      },
      { responseId: "resp_r2", blocks: [{ type: "text", text: "Sunny." }] },
    );
    const worker = new Worker({
      client: clientFor(provider, "openai-responses"),
      tools: [getWeather],
      generation: { reasoning: { effort: "low" } },
    });

    await worker.run("Weather in Kyoto?");

    const body = bodyOf(provider, 1);
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    expect(body.store).toBe(false);
    expect(body.input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Kyoto?" }] },
      {
        type: "reasoning",
        id: "rs_r10000",
        summary: [{ type: "summary_text", text: "Need the weather first." }],
        encrypted_content: "enc-opaque-1",
      },
      {
        type: "function_call",
        id: "fc_r10001",
        call_id: "call_w",
        name: "get_weather",
        arguments: '{"city":"Kyoto"}',
      },
      { type: "function_call_output", call_id: "call_w", output: "sunny, 21°C in Kyoto" },
    ]);
  });

  it("replays a recorded gpt-5 reasoning item exactly as it arrived", async () => {
    const provider = mock();
    provider.enqueue(recordedReply("openai-responses", "reasoning-summary-encrypted-tool-call.sse"), {
      blocks: [{ type: "text", text: "It is hot in Florence." }],
    });
    const [reasoning = {}, call = {}] = expectedBlocks(
      "openai-responses/reasoning-summary-encrypted-tool-call.expected.json",
    );
    const worker = new Worker({
      client: clientFor(provider, "openai-responses"),
      tools: [weather],
      generation: { reasoning: { effort: "medium" } },
    });

    const result = await worker.run("What's the weather in Florence, Italy?");

    expect(result).toMatchObject({ status: "finished", text: "It is hot in Florence." });
    expectEveryCallAnswered(worker.history);
    const input = bodyOf(provider, 1).input as unknown[];
    expect(input.slice(1)).toEqual([
      {
        type: "reasoning",
        id: reasoning.item_id,
        summary: (reasoning.summary as string[]).map((text) => ({ type: "summary_text", text })),
        encrypted_content: reasoning.encrypted_content,
      },
      {
        type: "function_call",
        id: call.item_id,
        call_id: call.id,
        name: "weather",
        arguments: JSON.stringify(call.arguments),
      },
      { type: "function_call_output", call_id: call.id, output: "40°C and sunny in Florence, Italy" },
    ]);
  });
});

describe("Gemini: the thought signature goes back on the functionCall part", () => {
  it("replays a recorded thought and the signed call", async () => {
    const provider = mock();
    provider.enqueue(recordedReply("gemini", "thought-summary-tool-call.sse"), {
      blocks: [{ type: "text", text: "Hot in Florence." }],
    });
    const [thought = {}, call = {}] = expectedBlocks("gemini/thought-summary-tool-call.expected.json");
    const worker = new Worker({ client: clientFor(provider, "gemini"), tools: [weather] });

    await worker.run("What's the weather in Florence, Italy?");

    const contents = bodyOf(provider, 1).contents as unknown[];
    expect(contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          { text: thought.text, thought: true },
          {
            functionCall: { name: "weather", args: { location: "Florence, Italy" } },
            thoughtSignature: call.signature,
          },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: { name: "weather", response: { output: "40°C and sunny in Florence, Italy" } },
          },
        ],
      },
    ]);
  });

  it("keeps the signature on the call that had it when two calls come together", async () => {
    const provider = mock();
    const add = tool({
      name: "add",
      description: "",
      input: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => String(a + b),
    });
    const multiply = tool({
      name: "multiply",
      description: "",
      input: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => String(a * b),
    });
    provider.enqueue(recordedReply("gemini", "tool-calls-parallel.sse"), {
      blocks: [{ type: "text", text: "5 and 6." }],
    });
    const [first = {}] = expectedBlocks("gemini/tool-calls-parallel.expected.json");
    const worker = new Worker({ client: clientFor(provider, "gemini"), tools: [add, multiply] });

    await worker.run("Add and multiply 2 and 3.");

    const contents = bodyOf(provider, 1).contents as unknown[];
    expect(contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          { functionCall: { name: "add", args: { a: 2, b: 3 } }, thoughtSignature: first.signature },
          { functionCall: { name: "multiply", args: { a: 2, b: 3 } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "add", response: { output: "5" } } },
          { functionResponse: { name: "multiply", response: { output: "6" } } },
        ],
      },
    ]);
  });
});

describe("schemes without reasoning replay", () => {
  it("openai-chat leaves reasoning out, ollama sends its own back as `thinking`", async () => {
    const provider = mock();
    const thenCall = {
      blocks: [
        { type: "thinking" as const, text: "Ask the tool." },
        { type: "tool_call" as const, id: "call_1", name: "get_weather", arguments: { city: "Kyoto" } },
      ],
    };
    const answer = { blocks: [{ type: "text" as const, text: "Sunny." }] };
    provider.enqueue(thenCall, answer, thenCall, answer);

    await new Worker({ client: clientFor(provider, "openai-chat"), tools: [getWeather] }).run("Kyoto?");
    await new Worker({ client: clientFor(provider, "ollama"), tools: [getWeather] }).run("Kyoto?");

    const chat = bodyOf(provider, 1).messages as Array<Record<string, unknown>>;
    expect(chat[1]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Kyoto"}' } },
      ],
    });
    const ollama = bodyOf(provider, 3).messages as Array<Record<string, unknown>>;
    expect(ollama[1]).toEqual({
      role: "assistant",
      content: "",
      thinking: "Ask the tool.",
      tool_calls: [{ id: "call_1", function: { name: "get_weather", arguments: { city: "Kyoto" } } }],
    });
  });
});
