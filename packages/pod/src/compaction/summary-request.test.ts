import { createClient, type Item, type LlmClient, userMessage } from "@yoake/llm-worker";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMPACTION_INSTRUCTION, frameSummary, SUMMARY_HEADING } from "./summary-prompt.js";
import { type RequestShape, requestSummary } from "./summary-request.js";

let mock: MockProvider;
let client: LlmClient;
beforeEach(async () => {
  mock = await startMockProvider();
  client = createClient({
    scheme: "openai-chat",
    model: "mock-model",
    baseURL: mock.baseURLFor("openai-chat"),
    apiKey: "k",
    retry: { maxRetries: 0 },
  });
});
afterEach(() => mock.close());

const ask = () =>
  requestSummary({
    client,
    shape: {
      system: "You are Yoake.",
      tools: [{ name: "read_file", description: "Reads", inputSchema: { type: "object" } }],
      temperature: 0.2,
      reasoning: { effort: "high" },
    },
    items: [userMessage("fix the bug")],
    summaryTokens: 1234,
  });

describe("requestSummary", () => {
  it("sends the history, then the instruction, with the Worker's tools, tool choice and reasoning, and the summary's limit", async () => {
    mock.enqueue({
      blocks: [{ type: "text", text: "  ## Goal\nFix the bug.\n" }],
      usage: { inputTokens: 50, outputTokens: 9 },
    });
    expect(await ask()).toEqual({
      ok: true,
      summary: "## Goal\nFix the bug.",
      truncated: false,
      usage: expect.objectContaining({ inputTokens: 50, outputTokens: 9 }),
    });
    const body = mock.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      max_completion_tokens: 1234,
      temperature: 0.2,
      reasoning_effort: "high",
      messages: [
        { role: "system", content: "You are Yoake." },
        { role: "user", content: "fix the bug" },
        { role: "user", content: COMPACTION_INSTRUCTION },
      ],
    });
    expect(body.tools).toHaveLength(1);
    expect(body.tool_choice).toBeUndefined();
  });

  it("asks once more with tools off when the model answers the instruction with a tool call, and counts both", async () => {
    mock.enqueue(
      {
        blocks: [{ type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "a.ts" } }],
        usage: { inputTokens: 50, outputTokens: 5 },
      },
      { blocks: [{ type: "text", text: "## Goal\nFix." }], usage: { inputTokens: 50, outputTokens: 4 } },
    );
    expect(await ask()).toMatchObject({
      ok: true,
      summary: "## Goal\nFix.",
      usage: { inputTokens: 100, outputTokens: 9 },
    });
    const [first, second] = mock.requests.map((request) => request.body as Record<string, unknown>);
    expect(first?.tool_choice).toBeUndefined();
    expect(second?.tool_choice).toBe("none");
    expect(second?.messages).toEqual(first?.messages);
  });

  it("repeats the prefix of the Worker's requests byte for byte (provider web search included), so it reads from the cache", async () => {
    const anthropic = createClient({
      scheme: "anthropic",
      model: "mock-model",
      baseURL: mock.baseURLFor("anthropic"),
      apiKey: "k",
      retry: { maxRetries: 0 },
    });
    const shape: RequestShape = {
      system: "You are Yoake.",
      tools: [{ name: "read_file", description: "Reads", inputSchema: { type: "object" } }],
      webSearch: { maxUses: 3, allowedDomains: ["nodejs.org"] },
      temperature: 0.3,
      stopSequences: ["<stop>"],
      reasoning: { budgetTokens: 4096 },
      maxOutputTokens: 16_000,
    };
    const items: Item[] = [
      userMessage("fix the bug"),
      { type: "message", role: "assistant", text: "Looking." },
      userMessage("and the test"),
    ];
    mock.enqueue({ blocks: [{ type: "text", text: "ok" }] }, { blocks: [{ type: "text", text: "## Goal" }] });
    await anthropic.complete({ ...shape, items });
    expect(await requestSummary({ client: anthropic, shape, items, summaryTokens: 1000 })).toMatchObject({
      ok: true,
    });

    // Cache breakpoints mark where to write, not what is cached: the latest user message differs.
    const [normal, summary] = mock.requests.map((request) => withoutBreakpoints(request.body)) as [
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(summary.tools).toEqual(normal.tools);
    expect(JSON.stringify(summary.tools)).toContain("web_search");
    expect(summary.system).toEqual(normal.system);
    // The instruction joins the last user message: the prefix is the history's content blocks.
    const history = contentBlocks(normal);
    expect(JSON.stringify(contentBlocks(summary).slice(0, history.length))).toBe(JSON.stringify(history));
    // The same tool choice and thinking: a change drops the cached conversation. The limit has
    // room for the thinking budget (Anthropic counts it in max_tokens) and the summary's 1000.
    expect(summary).toMatchObject({ stop_sequences: ["<stop>"], max_tokens: 5096 });
    expect(summary.temperature).toEqual(normal.temperature);
    expect(summary.tool_choice).toEqual(normal.tool_choice);
    expect(summary.thinking).toEqual(normal.thinking);
    expect(summary.thinking).toMatchObject({ budget_tokens: 4096 });
  });

  it("marks a summary cut at the limit, and fails on an empty answer or a failed request", async () => {
    mock.enqueue({ blocks: [{ type: "text", text: "## Goal\nFix" }], stopReason: "max_tokens" });
    expect(await ask()).toMatchObject({ ok: true, truncated: true });
    mock.enqueue({ blocks: [{ type: "text", text: "   " }] });
    expect(await ask()).toMatchObject({ ok: false, message: "the model answered with an empty summary" });
    mock.enqueue({ fault: "status", status: 503, message: "overloaded" });
    expect(await ask()).toMatchObject({ ok: false, message: expect.stringContaining("overloaded") });
  });
});

describe("frameSummary", () => {
  it("opens with the heading, and repeats the request in progress verbatim when there is one", () => {
    expect(frameSummary(" S \n", undefined)).toBe(`${SUMMARY_HEADING}\n\nS`);
    const framed = frameSummary("S", "double <a>");
    expect(framed.startsWith(`${SUMMARY_HEADING}\n\nS\n`)).toBe(true);
    expect(framed).toContain("<request>\ndouble <a>\n</request>");
  });
});

/** A request body without Anthropic's `cache_control` marks, which say where to cache, not what. */
function withoutBreakpoints(body: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body), (key, value) => (key === "cache_control" ? undefined : value));
}

/** The messages' content blocks in order, each with its role: what Anthropic's cache prefix is made of. */
function contentBlocks(body: Record<string, unknown>): unknown[] {
  const messages = body.messages as { role: string; content: unknown[] }[];
  return messages.flatMap((message) => message.content.map((block) => ({ role: message.role, block })));
}
