/**
 * The provider's own web search (`Request.webSearch`): the server tool in the request body, and its
 * calls and results carried back verbatim in the next turn's history, over the mock provider.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RawReply } from "../../src/testing/index.js";
import { MAX_PAUSED_CONTINUATIONS } from "../../src/worker/run-loop.js";
import { PROVIDER_FIXTURES } from "../support/provider-fixtures.js";
import { bodyOf, useMockProvider, workerOn } from "./tools-harness.js";

const provider = useMockProvider();

const fixtureRoot = PROVIDER_FIXTURES;

/**
 * The recorded Anthropic web search (JSON lines, one event each) as the SSE stream the API sends;
 * with `stopReason`, the message ends with that `stop_reason` instead of the recorded one.
 */
function anthropicWebSearchReply(stopReason?: string): RawReply {
  const lines = readFileSync(join(fixtureRoot, "anthropic", "web-search-citations.chunks.txt"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) =>
      stopReason === undefined
        ? line
        : line.replace('"stop_reason":"end_turn"', `"stop_reason":"${stopReason}"`),
    );
  const sse = lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
  return { raw: sse.join(""), contentType: "text/event-stream" };
}

const webSearchCall = {
  type: "web_search_call",
  id: "ws_1",
  status: "completed",
  action: { type: "search", query: "weather Rome" },
};

/** A Responses stream with one finished `web_search_call` item and an answer after it. */
function responsesWebSearchReply(): RawReply {
  const response = { id: "resp_1", object: "response", model: "gpt-test" };
  const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
  const message = { type: "message", id: "msg_1", role: "assistant", status: "completed" };
  const events = [
    { type: "response.created", response: { ...response, status: "in_progress", usage: null } },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { type: "web_search_call", id: "ws_1", status: "in_progress" },
    },
    { type: "response.web_search_call.searching", item_id: "ws_1", output_index: 0 },
    { type: "response.output_item.done", output_index: 0, item: webSearchCall },
    { type: "response.output_item.added", output_index: 1, item: { ...message, content: [] } },
    {
      type: "response.content_part.added",
      item_id: "msg_1",
      output_index: 1,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    },
    {
      type: "response.output_text.delta",
      item_id: "msg_1",
      output_index: 1,
      content_index: 0,
      delta: "It is sunny.",
    },
    {
      type: "response.output_item.done",
      output_index: 1,
      item: { ...message, content: [{ type: "output_text", text: "It is sunny.", annotations: [] }] },
    },
    {
      type: "response.completed",
      response: { ...response, status: "completed", incomplete_details: null, usage },
    },
  ];
  const sse = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  return { raw: sse.join(""), contentType: "text/event-stream" };
}

describe("provider web search", () => {
  it("Anthropic: sends the web_search server tool and carries its call and result into the next turn", async () => {
    const mock = provider();
    mock.enqueue(anthropicWebSearchReply(), { blocks: [{ type: "text", text: "Noted." }] });
    const worker = workerOn(mock, "anthropic", {
      generation: { webSearch: { maxUses: 3, allowedDomains: ["example.com"] } },
    });

    const first = await worker.run("What is in the tech news today?");
    expect(first.status).toBe("finished");
    expect(bodyOf(mock, 0).tools).toEqual([
      {
        type: "web_search_20250305",
        name: "web_search",
        max_uses: 3,
        allowed_domains: ["example.com"],
        cache_control: { type: "ephemeral" },
      },
    ]);

    await worker.run("Thanks.");
    const messages = bodyOf(mock, 1).messages as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    const assistant = messages.find((message) => message.role === "assistant");
    const [call, result] = assistant?.content ?? [];
    expect(call).toEqual({
      type: "server_tool_use",
      id: "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k",
      name: "web_search",
      input: { query: "tech news today September 26 2025" },
    });
    expect(result?.type).toBe("web_search_tool_result");
    expect(result?.tool_use_id).toBe("srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k");
    // The encrypted page contents go back exactly as the API sent them.
    const recorded = readFileSync(join(fixtureRoot, "anthropic", "web-search-citations.chunks.txt"), "utf8");
    const sentResult = JSON.stringify(result?.content);
    expect(sentResult.length).toBeGreaterThan(1000);
    expect(recorded).toContain(sentResult);
    expect(assistant?.content.slice(2).every((block) => block.type === "text")).toBe(true);
  });

  it("OpenAI Responses: sends the web_search tool and the web_search_call item back verbatim", async () => {
    const mock = provider();
    mock.enqueue(responsesWebSearchReply(), { blocks: [{ type: "text", text: "Noted." }] });
    const worker = workerOn(mock, "openai-responses", {
      generation: { webSearch: { maxUses: 3, allowedDomains: ["example.com"] } },
    });

    expect((await worker.run("Weather in Rome?")).status).toBe("finished");
    // `maxUses` has no counterpart in this API.
    expect(bodyOf(mock, 0).tools).toEqual([
      { type: "web_search", filters: { allowed_domains: ["example.com"] } },
    ]);

    await worker.run("Thanks.");
    const input = bodyOf(mock, 1).input as Array<Record<string, unknown>>;
    expect(input.map((item) => item.type)).toEqual(["message", "web_search_call", "message", "message"]);
    expect(input[1]).toEqual(webSearchCall);
  });

  it("sends the bare tool without settings, and no tool without webSearch", async () => {
    const mock = provider();
    mock.enqueue({ blocks: [{ type: "text", text: "a" }] }, { blocks: [{ type: "text", text: "b" }] });
    await workerOn(mock, "openai-responses", { generation: { webSearch: {} } }).run("hi");
    await workerOn(mock, "anthropic", { generation: { cache: false } }).run("hi");
    expect(bodyOf(mock, 0).tools).toEqual([{ type: "web_search" }]);
    expect(bodyOf(mock, 1).tools).toBeUndefined();
  });
});

/** Anthropic's `pause_turn`: a long server-tool turn the API paused, which the Worker continues. */
describe("a paused server-tool turn", () => {
  type Message = { role: string; content: Array<Record<string, unknown>> };

  it("is continued by a request that ends with the paused content, in the same run", async () => {
    const mock = provider();
    mock.enqueue(anthropicWebSearchReply("pause_turn"), {
      blocks: [{ type: "text", text: " And that is all." }],
    });
    const worker = workerOn(mock, "anthropic", { generation: { webSearch: {} } });

    const result = await worker.run("What is in the tech news today?");
    expect(result.status).toBe("finished");
    expect(result.turns).toBe(2);
    expect(mock.requests).toHaveLength(2);
    if (result.status !== "finished") return;
    expect(result.response.stopReason).toBe("end_turn");
    // Both parts of the turn are the answer: the paused one first.
    expect(result.text.endsWith(" And that is all.")).toBe(true);
    expect(result.text.length).toBeGreaterThan(" And that is all.".length);

    const messages = bodyOf(mock, 1).messages as Message[];
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    const paused = messages[1]?.content ?? [];
    expect(paused[0]).toEqual({
      type: "server_tool_use",
      id: "srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k",
      name: "web_search",
      input: { query: "tech news today September 26 2025" },
    });
    expect(paused[1]?.type).toBe("web_search_tool_result");
    const recorded = readFileSync(join(fixtureRoot, "anthropic", "web-search-citations.chunks.txt"), "utf8");
    expect(recorded).toContain(JSON.stringify(paused[1]?.content));
    expect(bodyOf(mock, 1).tools).toEqual(bodyOf(mock, 0).tools);
    // No user message was added: history holds the question, then the one turn in two parts.
    expect(worker.history.filter((item) => item.type === "message" && item.role === "user")).toHaveLength(1);
  });

  it(`is continued at most ${MAX_PAUSED_CONTINUATIONS} times in a row, then taken as the answer`, async () => {
    const mock = provider();
    const pausedParts = Array.from({ length: MAX_PAUSED_CONTINUATIONS + 3 }, (_, i) => ({
      blocks: [{ type: "text" as const, text: `part ${i}.` }],
      stopReason: "pause_turn" as const,
    }));
    mock.enqueue(...pausedParts);
    const worker = workerOn(mock, "anthropic", { generation: { webSearch: {} } });

    const result = await worker.run("Search a lot.");
    const requests = MAX_PAUSED_CONTINUATIONS + 1;
    expect(mock.requests).toHaveLength(requests);
    expect(result).toMatchObject({ status: "finished", turns: requests });
    if (result.status !== "finished") return;
    expect(result.response.stopReason).toBe("pause_turn");
    expect(result.text).toBe(
      pausedParts
        .slice(0, requests)
        .map((part) => part.blocks[0]?.text)
        .join(""),
    );
    // Each continuation sent the history so far and nothing else: the last message is the model's.
    const last = (bodyOf(mock, requests - 1).messages as Message[]).at(-1);
    expect(last?.role).toBe("assistant");
    expect(last?.content.map((block) => block.text)).toEqual(
      pausedParts.slice(0, requests - 1).map((part) => part.blocks[0]?.text),
    );
  });
});
