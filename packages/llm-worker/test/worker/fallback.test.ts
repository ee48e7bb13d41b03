/**
 * A Worker on a chain of models: the switch is a `fallback` event that prices the cold cache, the
 * answer is recorded as the new provider's, and a tool loop begun on one scheme ends on another.
 */
import { expect, it } from "vitest";
import { z } from "zod";
import { createClient, createFallbackClient, tool, Worker, type WorkerEvent } from "../../src/index.js";
import { useMockProvider } from "./tools-harness.js";

const mock = useMockProvider();

const ls = tool({
  name: "ls",
  description: "List files",
  input: z.object({}),
  execute: () => "a.txt b.txt",
});

it("moves mid tool loop to the next model, says why, and carries the history over", async () => {
  let anthropicRequests = 0;
  mock().setHandler((request) => {
    if (request.scheme === "anthropic") {
      anthropicRequests++;
      if (anthropicRequests === 1)
        return {
          blocks: [
            { type: "thinking", text: "I will list them", signature: "sig-1" },
            { type: "tool_call", id: "toolu_01", name: "ls", arguments: {} },
          ],
        };
      return { fault: "status", status: 500, message: "Internal server error", code: "api_error" };
    }
    return { blocks: [{ type: "text", text: "Two files." }] };
  });
  const client = createFallbackClient({
    clients: [
      createClient({
        scheme: "anthropic",
        model: "claude-test",
        apiKey: "k",
        baseURL: mock().baseURLFor("anthropic"),
        retry: { maxRetries: 1, baseDelayMs: 1 },
      }),
      createClient({
        scheme: "openai-responses",
        model: "gpt-test",
        apiKey: "k",
        baseURL: mock().baseURLFor("openai-responses"),
      }),
    ],
  });
  const worker = new Worker({ client, tools: [ls] });
  const events: WorkerEvent[] = [];
  for await (const event of worker.stream("Which files are there?")) events.push(event);
  expect(events.at(-1)).toMatchObject({
    type: "run_end",
    result: { status: "finished", text: "Two files." },
  });

  const fallback = events.find((event) => event.type === "fallback");
  expect(fallback).toMatchObject({
    type: "fallback",
    turn: 2,
    from: { scheme: "anthropic", model: "claude-test" },
    to: { scheme: "openai-responses", model: "gpt-test" },
    reason: "error",
    error: { kind: "server", status: 500 },
  });
  expect(fallback?.type === "fallback" && fallback.coldCacheTokens).toBeGreaterThan(0);
  expect(worker.history.at(-1)).toMatchObject({
    type: "message",
    text: "Two files.",
    origin: "openai-responses",
  });

  const last = mock().requests.at(-1);
  expect(last?.scheme).toBe("openai-responses");
  const input = (last?.body as { input: Array<{ type: string; call_id?: string }> } | undefined)?.input ?? [];
  expect(input.map((item) => item.type)).toEqual(["message", "function_call", "function_call_output"]);
  expect(input[1]?.call_id).toBe("toolu_01");
});
