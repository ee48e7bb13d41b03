import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { answerTool, type BenchScheme, callIdOf, cityOf, FINAL_TEXT, TOOL_NAMES } from "./conversation.js";
import { conversationHandler } from "./mock-script.js";

const tools = TOOL_NAMES.map((name) => ({ name }));

/** The tool results of `rounds` finished rounds, in each scheme's own request shape. */
function requestAfter(
  scheme: BenchScheme,
  rounds: number,
  edit?: (texts: string[]) => void,
): RecordedRequest {
  const results: { callId: string; text: string }[] = [];
  for (let round = 0; round < rounds; round++) {
    TOOL_NAMES.forEach((name, index) => {
      results.push({ callId: callIdOf(scheme, round, index), text: answerTool(name, cityOf(round)) });
    });
  }
  const texts = results.map((r) => r.text);
  edit?.(texts);
  const body: Record<string, unknown> = { stream: true, tools };
  if (scheme === "anthropic") {
    body.messages = [
      { role: "user", content: "go" },
      {
        role: "user",
        content: results.map((r, i) => ({
          type: "tool_result",
          tool_use_id: r.callId,
          content: [{ type: "text", text: texts[i] }],
        })),
      },
    ];
  } else if (scheme === "openai-responses") {
    body.input = results.map((r, i) => ({
      type: "function_call_output",
      call_id: r.callId,
      output: texts[i],
    }));
  } else {
    body.tools = TOOL_NAMES.map((name) => ({ type: "function", function: { name } }));
    body.messages = results.map((r, i) => ({ role: "tool", tool_call_id: r.callId, content: texts[i] }));
  }
  const path = {
    anthropic: "/v1/messages",
    "openai-responses": "/v1/responses",
    "openai-chat": "/v1/chat/completions",
  };
  return { scheme, method: "POST", path: path[scheme], query: {}, headers: {}, body, receivedAt: 0 };
}

const reply = (request: RecordedRequest): Promise<MockReply> =>
  Promise.resolve(conversationHandler(2)(request));

describe("the benchmark's mock script", () => {
  it.each(["anthropic", "openai-responses", "openai-chat"] as const)(
    "reads the round from the results sent back over %s",
    async (scheme) => {
      expect(await reply(requestAfter(scheme, 0))).toMatchObject({
        blocks: TOOL_NAMES.map((name, index) => ({
          type: "tool_call",
          name,
          id: callIdOf(scheme, 0, index),
          arguments: { city: cityOf(0) },
        })),
      });
      expect(await reply(requestAfter(scheme, 1))).toMatchObject({
        blocks: [{ arguments: { city: cityOf(1) } }, {}, {}],
      });
      expect(await reply(requestAfter(scheme, 2))).toMatchObject({
        blocks: [{ type: "text", text: FINAL_TEXT }],
      });
    },
  );

  it("fails a request whose tool result is not what the tool returned", async () => {
    const wrong = requestAfter("openai-responses", 2, (texts) => {
      texts[4] = "something else";
    });
    expect(await reply(wrong)).toMatchObject({
      fault: "status",
      status: 400,
      message: expect.stringMatching(/result 4/),
    });
  });

  it("fails results that answer the calls out of order", async () => {
    const request = requestAfter("anthropic", 1);
    const content = (request.body as { messages: { content: unknown[] }[] }).messages[1]?.content ?? [];
    content.reverse();
    expect(await reply(request)).toMatchObject({
      fault: "status",
      message: expect.stringMatching(/answers/),
    });
  });

  it("fails a request that is not streamed, lacks a tool, or goes past the last round", async () => {
    const unstreamed = requestAfter("openai-chat", 0);
    (unstreamed.body as Record<string, unknown>).stream = false;
    expect(await reply(unstreamed)).toMatchObject({ fault: "status" });
    const toolless = requestAfter("anthropic", 0);
    (toolless.body as Record<string, unknown>).tools = tools.slice(1);
    expect(await reply(toolless)).toMatchObject({
      fault: "status",
      message: expect.stringMatching(/tools sent/),
    });
    expect(await reply(requestAfter("anthropic", 3))).toMatchObject({ fault: "status" });
  });
});
