import { describe, expect, it } from "vitest";
import { type Item, systemMessage, userMessage } from "../../item.js";
import type { Request, ToolDefinition } from "../../request.js";
import { ollamaBaseURL, ollamaScheme } from "../index.js";
import { buildOllamaBody } from "./request.js";

const weatherTool: ToolDefinition = {
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: {
      city: { type: "string", description: "City name" },
      unit: { type: ["string", "null"], enum: ["c", "f", null] },
      days: { type: "integer", minimum: 1 },
    },
    required: ["city"],
    additionalProperties: false,
  },
};
const timeTool: ToolDefinition = {
  name: "get_time",
  description: "The time",
  inputSchema: { type: "object", properties: {} },
};

function body(request: Partial<Request>) {
  return buildOllamaBody({ items: [userMessage("hi")], ...request }, "qwen3:8b");
}

describe("buildOllamaBody", () => {
  it("builds a minimal streaming body with nothing unasked for", () => {
    expect(body({})).toEqual({
      model: "qwen3:8b",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
  });

  it("puts the system prompt first and keeps system items where they are", () => {
    const items: Item[] = [userMessage("a"), systemMessage("[File: x]\nbody"), userMessage("b")];
    expect(body({ system: "Be brief.", items }).messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "a" },
      { role: "system", content: "[File: x]\nbody" },
      { role: "user", content: "b" },
    ]);
  });

  it("makes one assistant turn of consecutive assistant-side items and one tool message per result", () => {
    const items: Item[] = [
      userMessage("weather and time?"),
      { type: "reasoning", text: "Two tools. ", origin: "ollama" },
      { type: "reasoning", text: "Both now.", origin: "ollama" },
      { type: "message", role: "assistant", text: "Checking.", origin: "ollama" },
      {
        type: "tool_call",
        callId: "call_1",
        name: "get_weather",
        arguments: '{"city":"Tokyo","days":2}',
        origin: "ollama",
      },
      {
        type: "tool_call",
        callId: "synth_1",
        name: "get_time",
        arguments: "",
        synthesizedId: true,
        origin: "ollama",
      },
      {
        type: "tool_result",
        callId: "call_1",
        name: "get_weather",
        summary: "1 lines | sunny",
        content: "sunny",
      },
      { type: "tool_result", callId: "synth_1", name: "get_time", summary: "12:00", isError: true },
      userMessage("thanks"),
    ];
    expect(body({ items }).messages).toEqual([
      { role: "user", content: "weather and time?" },
      {
        role: "assistant",
        content: "Checking.",
        thinking: "Two tools. Both now.",
        tool_calls: [
          { id: "call_1", function: { name: "get_weather", arguments: { city: "Tokyo", days: 2 } } },
          { function: { name: "get_time", arguments: {} } },
        ],
      },
      { role: "tool", tool_name: "get_weather", content: "sunny", tool_call_id: "call_1" },
      // Content pruned: the summary is sent. A made-up id is never sent back.
      { role: "tool", tool_name: "get_time", content: "12:00" },
      { role: "user", content: "thanks" },
    ]);
  });

  it("keeps the arguments' key order", () => {
    const items: Item[] = [
      { type: "tool_call", callId: "c", name: "f", arguments: '{"z":1,"a":{"y":2,"b":3}}', origin: "ollama" },
    ];
    const message = body({ items }).messages[0];
    expect(JSON.stringify(message?.tool_calls?.[0]?.function.arguments)).toBe('{"z":1,"a":{"y":2,"b":3}}');
  });

  it("sends arguments that are not a JSON object as an empty object", () => {
    const call = (args: string): Item => ({ type: "tool_call", callId: "c", name: "f", arguments: args });
    for (const args of ["{not json", "[1,2]", '"text"', "null"]) {
      expect(body({ items: [call(args)] }).messages[0]?.tool_calls?.[0]?.function.arguments).toEqual({});
    }
  });

  it("leaves out what other providers produced that only they understand", () => {
    const items: Item[] = [
      userMessage("q"),
      { type: "reasoning", text: "anthropic thoughts", signature: "sig", origin: "anthropic" },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
      {
        type: "server_tool",
        role: "call",
        id: "srv_1",
        name: "web_search",
        payload: {},
        origin: "anthropic",
      },
      { type: "message", role: "assistant", text: "Answer.", signature: "gsig", origin: "gemini" },
      { type: "tool_call", callId: "toolu_1", name: "f", arguments: '{"a":1}', origin: "anthropic" },
      { type: "tool_result", callId: "toolu_1", name: "f", summary: "ok" },
    ];
    expect(body({ items }).messages).toEqual([
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "Answer.",
        tool_calls: [{ id: "toolu_1", function: { name: "f", arguments: { a: 1 } } }],
      },
      { role: "tool", tool_name: "f", content: "ok", tool_call_id: "toolu_1" },
    ]);
  });

  it("sends no empty assistant message for a turn made only of another provider's reasoning", () => {
    const items: Item[] = [
      userMessage("a"),
      { type: "reasoning", text: "elsewhere", origin: "openai-responses", encryptedContent: "enc" },
      userMessage("b"),
    ];
    expect(body({ items }).messages).toEqual([
      { role: "user", content: "a" },
      { role: "user", content: "b" },
    ]);
  });

  it("keeps reasoning with no recorded origin", () => {
    const items: Item[] = [userMessage("a"), { type: "reasoning", text: "mine" }];
    expect(body({ items }).messages[1]).toEqual({ role: "assistant", content: "", thinking: "mine" });
  });

  it("maps tools with their JSON Schema unchanged", () => {
    const tools = body({ tools: [weatherTool] }).tools;
    expect(tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city",
          parameters: weatherTool.inputSchema,
        },
      },
    ]);
    expect(JSON.stringify(tools?.[0]?.function.parameters)).toBe(JSON.stringify(weatherTool.inputSchema));
  });

  it("turns a boolean property schema into its object form", () => {
    const tool: ToolDefinition = {
      name: "f",
      description: "",
      inputSchema: { type: "object", properties: { anything: true } },
    };
    expect(body({ tools: [tool] }).tools?.[0]?.function.parameters).toEqual({
      type: "object",
      properties: { anything: {} },
    });
  });

  it.each([
    ["auto", ["get_weather", "get_time"]],
    ["required", ["get_weather", "get_time"]],
    [{ name: "get_time" }, ["get_time"]],
    [{ name: "missing" }, ["get_weather", "get_time"]],
  ] as const)("with tool choice %j sends the tools %j", (toolChoice, names) => {
    const tools = body({ tools: [weatherTool, timeTool], toolChoice }).tools;
    expect(tools?.map((tool) => tool.function.name)).toEqual(names);
  });

  it("sends no tools for tool choice none", () => {
    expect(body({ tools: [weatherTool], toolChoice: "none" })).not.toHaveProperty("tools");
  });

  it.each([
    [{ effort: "minimal" }, "low"],
    [{ effort: "low" }, "low"],
    [{ effort: "medium" }, "medium"],
    [{ effort: "high" }, "high"],
    [{ budgetTokens: 2048 }, true],
    [{ budgetTokens: 0 }, false],
  ] as const)("maps reasoning %j to think %j", (reasoning, think) => {
    expect(body({ reasoning }).think).toBe(think);
  });

  it("leaves think out when no reasoning is asked for", () => {
    expect(body({ reasoning: {} })).not.toHaveProperty("think");
  });

  it("maps generation settings to options", () => {
    const result = body({ maxOutputTokens: 256, temperature: 0.2, topP: 0.9, stopSequences: ["END", "###"] });
    expect(result.options).toEqual({ num_predict: 256, temperature: 0.2, top_p: 0.9, stop: ["END", "###"] });
    expect(body({ temperature: 0 }).options).toEqual({ temperature: 0 });
    expect(body({ stopSequences: [] })).not.toHaveProperty("options");
  });
});

describe("ollama HTTP request", () => {
  const request: Request = { items: [userMessage("hi")] };

  it("posts to /api/chat of the default base URL with a JSON content type and no auth", () => {
    const http = ollamaScheme.buildHttpRequest(request, { model: "llama3.2", baseURL: "" });
    expect(http.url).toBe("http://127.0.0.1:11434/api/chat");
    expect(http.headers).toEqual({ "content-type": "application/json" });
    expect(http.body).toEqual({
      model: "llama3.2",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
  });

  it.each([
    [undefined, "http://127.0.0.1:11434"],
    ["", "http://127.0.0.1:11434"],
    ["0.0.0.0:11434", "http://0.0.0.0:11434"],
    ["gpu-box", "http://gpu-box:11434"],
    ["gpu-box:8080", "http://gpu-box:8080"],
    [":9999", "http://127.0.0.1:9999"],
    ["[::1]", "http://[::1]:11434"],
    ["[::1]:8080", "http://[::1]:8080"],
    ["::1", "http://[::1]:11434"],
    ["example.com/ollama/", "http://example.com:11434/ollama"],
    ["ollama.com", "https://ollama.com"],
    ["https://ollama.com/", "https://ollama.com"],
    ["http://localhost:11434", "http://localhost:11434"],
    ["  http://10.0.0.2:11434  ", "http://10.0.0.2:11434"],
  ])("reads base URL %j as %s", (configured, expected) => {
    expect(ollamaBaseURL(configured)).toBe(expected);
  });
});
