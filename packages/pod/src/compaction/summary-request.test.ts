import { createClient, type LlmClient, userMessage } from "@yoake/llm-worker";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMPACTION_INSTRUCTION, frameSummary, SUMMARY_HEADING } from "./summary-prompt.js";
import { requestSummary } from "./summary-request.js";

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
    system: "You are Yoake.",
    tools: [{ name: "read_file", description: "Reads", inputSchema: { type: "object" } }],
    items: [userMessage("fix the bug")],
    generation: { temperature: 0.2, reasoning: { effort: "high" } },
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
