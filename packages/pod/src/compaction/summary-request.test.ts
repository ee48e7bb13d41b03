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
  it("sends the history, then the instruction, with tools that may not be called and the summary's limit", async () => {
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
      tool_choice: "none",
      max_completion_tokens: 1234,
      temperature: 0.2,
      messages: [
        { role: "system", content: "You are Yoake." },
        { role: "user", content: "fix the bug" },
        { role: "user", content: COMPACTION_INSTRUCTION },
      ],
    });
    expect(body.reasoning_effort).toBeUndefined();
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
    expect(summary).toMatchObject({ temperature: 0.3, stop_sequences: ["<stop>"], max_tokens: 1000 });
    expect(summary.tool_choice).toEqual({ type: "none" });
    expect(summary.thinking).toBeUndefined();
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
