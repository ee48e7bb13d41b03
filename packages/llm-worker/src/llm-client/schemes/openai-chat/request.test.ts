import { describe, expect, it } from "vitest";
import { assistantMessage, type Item, systemMessage, userMessage } from "../../item.js";
import type { Request } from "../../request.js";
import { buildOpenaiChatBody, effortForBudget } from "./request.js";

const weatherTool = {
  name: "get_weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

function body(request: Partial<Request>) {
  return buildOpenaiChatBody({ items: [], ...request }, "gpt-4o");
}

describe("buildOpenaiChatBody", () => {
  it("builds a minimal streaming body that asks for usage", () => {
    expect(body({ items: [userMessage("Hi")] })).toEqual({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("maps the generation settings", () => {
    const b = body({
      system: "Be brief.",
      items: [userMessage("Hi")],
      tools: [weatherTool],
      toolChoice: { name: "get_weather" },
      maxOutputTokens: 512,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ["END"],
      reasoning: { effort: "high" },
    });
    expect(b).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather for a city",
            parameters: weatherTool.inputSchema,
          },
        },
      ],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      max_completion_tokens: 512,
      temperature: 0.2,
      top_p: 0.9,
      stop: ["END"],
      reasoning_effort: "high",
    });
  });

  it.each(["auto", "none", "required"] as const)("passes tool choice %s through", (choice) => {
    expect(body({ tools: [weatherTool], toolChoice: choice }).tool_choice).toBe(choice);
  });

  it("sends no tool_choice without tools, no empty stop list and no empty description", () => {
    const b = body({ toolChoice: "required", stopSequences: [] });
    expect(b).not.toHaveProperty("tool_choice");
    expect(b).not.toHaveProperty("stop");
    const withBareTool = body({ tools: [{ ...weatherTool, description: "" }] });
    expect(withBareTool.tools?.[0]?.function).not.toHaveProperty("description");
  });

  it("maps a thinking budget to the nearest effort when no effort is given", () => {
    expect(body({ reasoning: { budgetTokens: 1024 } }).reasoning_effort).toBe("low");
    expect(body({ reasoning: { budgetTokens: 8000 } }).reasoning_effort).toBe("medium");
    expect(body({ reasoning: { budgetTokens: 32000 } }).reasoning_effort).toBe("high");
    expect(body({ reasoning: { effort: "minimal", budgetTokens: 32000 } }).reasoning_effort).toBe("minimal");
    expect([effortForBudget(4095), effortForBudget(4096), effortForBudget(16384)]).toEqual([
      "low",
      "medium",
      "high",
    ]);
  });

  it("merges providerOptions over the body last, so a server's own max_tokens can replace ours", () => {
    const b = body({
      maxOutputTokens: 100,
      providerOptions: { max_tokens: 100, max_completion_tokens: undefined, seed: 7, stream_options: null },
    });
    const sent = JSON.parse(JSON.stringify(b));
    expect(sent).toMatchObject({ max_tokens: 100, seed: 7, stream_options: null });
    expect(sent).not.toHaveProperty("max_completion_tokens");
  });
});

describe("buildOpenaiChatBody: history", () => {
  it("gathers assistant-side items into one turn and answers its calls with tool messages", () => {
    const items: Item[] = [
      userMessage("Weather in Tokyo and Osaka?"),
      { type: "reasoning", text: "Two calls.", origin: "openai-chat" },
      { type: "message", role: "assistant", text: "Checking ", origin: "openai-chat" },
      {
        type: "tool_call",
        callId: "call_1",
        name: "get_weather",
        arguments: '{"city":"Tokyo"}',
        origin: "openai-chat",
      },
      { type: "message", role: "assistant", text: "both.", origin: "openai-chat" },
      { type: "tool_call", callId: "call_2", name: "get_weather", arguments: "", origin: "openai-chat" },
      { type: "tool_result", callId: "call_1", name: "get_weather", summary: "1 line", content: "Sunny" },
      { type: "tool_result", callId: "call_2", name: "get_weather", summary: "[blob:x] text", isError: true },
      assistantMessage("Sunny and unknown."),
    ];
    expect(body({ items }).messages).toEqual([
      { role: "user", content: "Weather in Tokyo and Osaka?" },
      {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Tokyo"}' },
          },
          { id: "call_2", type: "function", function: { name: "get_weather", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "Sunny" },
      { role: "tool", tool_call_id: "call_2", content: "[blob:x] text" },
      { role: "assistant", content: "Sunny and unknown." },
    ]);
  });

  it("sends content null for a turn that only called tools, and the synthesized id of a call", () => {
    const items: Item[] = [
      userMessage("go"),
      {
        type: "tool_call",
        callId: "call_0",
        name: "f",
        arguments: "{}",
        synthesizedId: true,
        origin: "ollama",
      },
      { type: "tool_result", callId: "call_0", name: "f", summary: "ok" },
    ];
    expect(body({ items }).messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_0", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_0", content: "ok" },
    ]);
  });

  it("leaves out reasoning, redacted reasoning and server tools of any origin, keeping the turn whole", () => {
    const items: Item[] = [
      userMessage("q"),
      { type: "reasoning", text: "thinking", signature: "sig", origin: "anthropic" },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
      {
        type: "server_tool",
        role: "call",
        id: "srv_1",
        name: "web_search",
        payload: {},
        origin: "anthropic",
      },
      { type: "message", role: "assistant", text: "A", signature: "gem", origin: "gemini" },
      {
        type: "server_tool",
        role: "result",
        id: "srv_1",
        name: "web_search_tool_result",
        payload: {},
        origin: "anthropic",
      },
      { type: "message", role: "assistant", text: "B", origin: "anthropic" },
      { type: "reasoning", text: "only reasoning", origin: "openai-chat" },
    ];
    expect(body({ items }).messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: "AB" },
    ]);
  });

  it("places system items where they stand, but after the results of pending tool calls", () => {
    const items: Item[] = [
      systemMessage("Project rules."),
      userMessage("Read @a.ts"),
      systemMessage("[File: a.ts]\nexport {}"),
      { type: "tool_call", callId: "c1", name: "read", arguments: "{}" },
      systemMessage("Reminder: be careful."),
      { type: "tool_result", callId: "c1", name: "read", summary: "ok" },
      assistantMessage("Done."),
    ];
    expect(body({ system: "You are helpful.", items }).messages).toEqual([
      { role: "system", content: "You are helpful." },
      { role: "system", content: "Project rules." },
      { role: "user", content: "Read @a.ts" },
      { role: "system", content: "[File: a.ts]\nexport {}" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "system", content: "Reminder: be careful." },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("releases a held system message at the end of the history", () => {
    const items: Item[] = [
      { type: "tool_call", callId: "c1", name: "f", arguments: "{}" },
      systemMessage("late"),
    ];
    expect(body({ items }).messages.map((m) => m.role)).toEqual(["assistant", "system"]);
  });
});
