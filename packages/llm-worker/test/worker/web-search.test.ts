/**
 * The provider's own web search (`Request.webSearch`): the server tool in the request body, and its
 * calls and results carried back verbatim in the next turn's history, over the mock provider.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { RawReply } from "../../src/testing/index.js";
import { bodyOf, useMockProvider, workerOn } from "./tools-harness.js";

const provider = useMockProvider();

const fixtureRoot =
  process.env.YOAKE_FIXTURES ?? resolve(import.meta.dirname, "../../../../../shared/fixtures/providers");

/** The recorded Anthropic web search (JSON lines, one event each) as the SSE stream the API sends. */
function anthropicWebSearchReply(): RawReply {
  const lines = readFileSync(join(fixtureRoot, "anthropic", "web-search-citations.chunks.txt"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
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
