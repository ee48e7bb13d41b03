import { describe, expect, it } from "vitest";
import type { Item } from "../../item.js";
import { assistantMessage, systemMessage, userMessage } from "../../item.js";
import type { Request } from "../../request.js";
import { buildAnthropicBody } from "./request.js";

const weather = {
  name: "weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const clock = { name: "clock", description: "The time", inputSchema: { type: "object", properties: {} } };

function body(request: Partial<Request>) {
  return buildAnthropicBody({ items: [userMessage("hi")], ...request }, "claude-test");
}

describe("buildAnthropicBody: basics", () => {
  it("builds a streaming body with the default max_tokens and cache breakpoints", () => {
    expect(body({ system: "Be brief." })).toEqual({
      model: "claude-test",
      max_tokens: 8192,
      stream: true,
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
      ],
    });
  });

  it("maps tools, the tool choice, sampling and stop sequences", () => {
    const b = body({
      tools: [weather, clock],
      toolChoice: { name: "weather" },
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.5,
      stopSequences: ["END"],
      cache: false,
    });
    expect(b).toMatchObject({
      max_tokens: 100,
      temperature: 0.2,
      top_p: 0.5,
      stop_sequences: ["END"],
      tool_choice: { type: "tool", name: "weather" },
      tools: [
        { name: "weather", description: "Weather for a city", input_schema: weather.inputSchema },
        { name: "clock", description: "The time", input_schema: clock.inputSchema },
      ],
    });
  });

  it.each([
    ["auto", { type: "auto" }],
    ["none", { type: "none" }],
    ["required", { type: "any" }],
  ] as const)("maps tool choice %s", (choice, wire) => {
    expect(body({ tools: [weather], toolChoice: choice }).tool_choice).toEqual(wire);
  });

  it("sends no tool_choice without tools", () => {
    expect(body({ toolChoice: "auto" })).not.toHaveProperty("tool_choice");
  });

  it("puts breakpoints on the last tool, the last system block and the latest user message only", () => {
    const b = body({
      system: "S",
      tools: [weather, clock],
      items: [systemMessage("Project rules"), userMessage("a"), assistantMessage("b"), userMessage("c")],
    });
    expect(b.tools?.map((t) => t.cache_control)).toEqual([undefined, { type: "ephemeral" }]);
    expect(b.system).toEqual([
      { type: "text", text: "S" },
      { type: "text", text: "Project rules", cache_control: { type: "ephemeral" } },
    ]);
    expect(b.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "a" }] },
      { role: "assistant", content: [{ type: "text", text: "b" }] },
      { role: "user", content: [{ type: "text", text: "c", cache_control: { type: "ephemeral" } }] },
    ]);
  });

  it("sets no breakpoint when cache is false", () => {
    const b = body({ system: "S", tools: [weather], cache: false });
    expect(JSON.stringify(b)).not.toContain("cache_control");
  });
});

describe("buildAnthropicBody: thinking", () => {
  it("takes the budget from budgetTokens and leaves the answer 8192 tokens by default", () => {
    expect(body({ reasoning: { budgetTokens: 4000 } })).toMatchObject({
      max_tokens: 12192,
      thinking: { type: "enabled", budget_tokens: 4000 },
    });
  });

  it.each([
    ["minimal", 1024],
    ["low", 2048],
    ["medium", 8192],
    ["high", 16384],
  ] as const)("maps effort %s to a budget of %i", (effort, budget) => {
    expect(body({ reasoning: { effort } }).thinking).toEqual({ type: "enabled", budget_tokens: budget });
  });

  it("raises a budget below 1024 and keeps it below an explicit max_tokens", () => {
    expect(body({ reasoning: { budgetTokens: 10 } }).thinking?.budget_tokens).toBe(1024);
    expect(body({ reasoning: { budgetTokens: 5000 }, maxOutputTokens: 3000 })).toMatchObject({
      max_tokens: 3000,
      thinking: { budget_tokens: 2999 },
    });
    expect(body({ reasoning: { budgetTokens: 5000 }, maxOutputTokens: 1000 })).not.toHaveProperty("thinking");
  });

  it("drops temperature unless it is 1 and raises top_p to 0.95 while thinking", () => {
    const b = body({ reasoning: { effort: "low" }, temperature: 0.3, topP: 0.5 });
    expect(b).not.toHaveProperty("temperature");
    expect(b.top_p).toBe(0.95);
    expect(body({ reasoning: { effort: "low" }, temperature: 1, topP: 0.99 })).toMatchObject({
      temperature: 1,
      top_p: 0.99,
    });
  });

  it("leaves thinking off when a tool is forced", () => {
    expect(
      body({ reasoning: { effort: "low" }, tools: [weather], toolChoice: "required" }),
    ).not.toHaveProperty("thinking");
  });

  it("leaves thinking off when the last tool turn has no thinking block to send back", () => {
    const items: Item[] = [
      userMessage("weather?"),
      { type: "tool_call", callId: "call_1", name: "weather", arguments: "{}", origin: "openai-chat" },
      { type: "tool_result", callId: "call_1", name: "weather", summary: "sunny" },
    ];
    expect(body({ items, reasoning: { effort: "low" } })).not.toHaveProperty("thinking");
    const withThinking: Item[] = [
      userMessage("weather?"),
      { type: "reasoning", text: "hm", signature: "sig", origin: "anthropic" },
      ...items.slice(1),
    ];
    expect(body({ items: withThinking, reasoning: { effort: "low" } })).toHaveProperty("thinking");
  });
});

describe("buildAnthropicBody: history", () => {
  it("groups assistant-side items into one turn in order and answers the calls in the next", () => {
    const items: Item[] = [
      userMessage("go"),
      { type: "reasoning", text: "plan", signature: "sig1", origin: "anthropic" },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
      assistantMessage("Calling."),
      {
        type: "tool_call",
        callId: "toolu_1",
        name: "weather",
        arguments: '{"city":"Rome"}',
        origin: "anthropic",
      },
      { type: "tool_call", callId: "toolu_2", name: "clock", arguments: "", origin: "anthropic" },
      { type: "tool_result", callId: "toolu_1", name: "weather", summary: "short", content: "sunny, 25C" },
      { type: "tool_result", callId: "toolu_2", name: "clock", summary: "failed", isError: true },
    ];
    expect(body({ items, cache: false }).messages).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "plan", signature: "sig1" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "Calling." },
          { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Rome" } },
          { type: "tool_use", id: "toolu_2", name: "clock", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "sunny, 25C" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "failed", is_error: true },
        ],
      },
    ]);
  });

  it("leaves out another provider's reasoning, unsigned thinking and foreign server tool blocks", () => {
    const items: Item[] = [
      userMessage("q"),
      {
        type: "reasoning",
        text: "visible",
        origin: "openai-responses",
        itemId: "rs_1",
        encryptedContent: "enc",
      },
      { type: "reasoning", text: "gemini thought", signature: "g", origin: "gemini" },
      { type: "reasoning", text: "cut off before its signature", origin: "anthropic" },
      { type: "redacted_reasoning", data: "x", origin: "gemini" },
      {
        type: "server_tool",
        role: "call",
        id: "ws_1",
        name: "web_search_call",
        payload: { type: "web_search_call" },
        origin: "openai-responses",
      },
      assistantMessage("answer"),
    ];
    expect(body({ items, cache: false }).messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "answer" }],
    });
  });

  it("sends this scheme's server tool blocks back verbatim, in order", () => {
    const call = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } };
    const result = {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [{ type: "web_search_result" }],
    };
    const items: Item[] = [
      userMessage("search"),
      {
        type: "server_tool",
        role: "call",
        id: "srvtoolu_1",
        name: "web_search",
        arguments: '{"query":"q"}',
        payload: call,
        origin: "anthropic",
      },
      {
        type: "server_tool",
        role: "result",
        id: "srvtoolu_1",
        name: "web_search_tool_result",
        payload: result,
        origin: "anthropic",
      },
      {
        ...assistantMessage("found"),
        origin: "anthropic",
        citations: [{ type: "web_search_result_location", file_id: null }],
      },
    ];
    expect(body({ items, cache: false }).messages[1]).toEqual({
      role: "assistant",
      content: [call, result, { type: "text", text: "found" }],
    });
  });

  it("delivers a system item in mid-conversation as wrapped user text, merged into the user turn", () => {
    const items: Item[] = [userMessage("read @a.ts"), systemMessage("[File: a.ts]\nx")];
    expect(body({ items, cache: false }).messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "read @a.ts" },
          { type: "text", text: "<system>\n[File: a.ts]\nx\n</system>" },
        ],
      },
    ]);
  });

  it("puts tool results before user text in the turn that answers the calls", () => {
    const items: Item[] = [
      userMessage("go"),
      { type: "tool_call", callId: "toolu_1", name: "clock", arguments: "{}" },
      userMessage("also this"),
      { type: "tool_result", callId: "toolu_1", name: "clock", summary: "12:00" },
    ];
    expect(body({ items, cache: false }).messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "12:00" },
        { type: "text", text: "also this" },
      ],
    });
  });

  it("makes foreign and synthesized call ids valid and keeps call and result paired", () => {
    const items: Item[] = [
      userMessage("go"),
      {
        type: "tool_call",
        callId: "call:1/a",
        name: "clock",
        arguments: "not json",
        synthesizedId: true,
        origin: "gemini",
      },
      { type: "tool_result", callId: "call:1/a", name: "clock", summary: "bad arguments", isError: true },
    ];
    const [, assistant, results] = body({ items, cache: false }).messages;
    expect(assistant?.content).toEqual([{ type: "tool_use", id: "call_1_a", name: "clock", input: {} }]);
    expect(results?.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call_1_a" });
  });

  it("drops empty text and sends an empty tool result without content", () => {
    const items: Item[] = [
      userMessage("go"),
      assistantMessage(""),
      { type: "tool_call", callId: "t", name: "clock", arguments: "{}" },
      { type: "tool_result", callId: "t", name: "clock", summary: "" },
    ];
    const messages = body({ items, cache: false }).messages;
    expect(messages[1]?.content).toEqual([{ type: "tool_use", id: "t", name: "clock", input: {} }]);
    expect(messages[2]?.content).toEqual([{ type: "tool_result", tool_use_id: "t" }]);
  });

  it("trims the whitespace that ends a final assistant turn (a paused turn sent back), only there", () => {
    const paused = (text: string): Item[] => [
      userMessage("go "),
      assistantMessage("Searching. "),
      assistantMessage(text),
    ];
    expect(body({ items: paused("Next: \n") }).messages.at(-1)?.content).toEqual([
      { type: "text", text: "Searching. " },
      { type: "text", text: "Next:" },
    ]);
    expect(body({ items: paused(" \n") }).messages.at(-1)?.content).toEqual([
      { type: "text", text: "Searching. " },
    ]);
    const user = body({ items: [userMessage("hi "), assistantMessage("a "), userMessage("b ")] }).messages;
    expect(user.map((message) => message.content[0])).toMatchObject([
      { text: "hi " },
      { text: "a " },
      { text: "b " },
    ]);
  });
});
