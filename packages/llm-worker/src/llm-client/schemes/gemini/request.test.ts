import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PROVIDER_FIXTURES } from "../../../../test/support/provider-fixtures.js";
import { collectResponse } from "../../../timeline/collect-response.js";
import { decodeStream } from "../../decode.js";
import { assistantMessage, type Item, systemMessage, userMessage } from "../../item.js";
import type { Request } from "../../request.js";
import { geminiScheme } from "../index.js";
import { buildGeminiBody } from "./request.js";

const body = (request: Partial<Request>, model = "gemini-2.5-flash") =>
  buildGeminiBody({ items: [], ...request }, model);

describe("buildGeminiBody: conversation", () => {
  it("maps system, user and assistant text to systemInstruction and user/model turns", () => {
    expect(
      body({
        system: "Be brief.",
        items: [userMessage("Hi"), assistantMessage("Hello!"), userMessage("Bye")],
      }),
    ).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Hi" }] },
        { role: "model", parts: [{ text: "Hello!" }] },
        { role: "user", parts: [{ text: "Bye" }] },
      ],
    });
  });

  it("puts leading system items in systemInstruction and later ones in place, as user text", () => {
    const b = body({
      system: "S0",
      items: [
        systemMessage("S1"),
        userMessage("look at @a.ts"),
        systemMessage("[File: a.ts]\nexport {}"),
        assistantMessage("ok"),
        systemMessage("reminder"),
      ],
    });
    expect(b.systemInstruction).toEqual({ parts: [{ text: "S0" }, { text: "S1" }] });
    expect(b.contents).toEqual([
      { role: "user", parts: [{ text: "look at @a.ts" }, { text: "[File: a.ts]\nexport {}" }] },
      { role: "model", parts: [{ text: "ok" }] },
      { role: "user", parts: [{ text: "reminder" }] },
    ]);
  });

  it("forms one model turn from assistant-side items in order, and one user turn from their results", () => {
    const items: Item[] = [
      userMessage("weather?"),
      { type: "reasoning", text: "thinking…", signature: "R_SIG", origin: "gemini" },
      { type: "message", role: "assistant", text: "Checking.", signature: "T_SIG", origin: "gemini" },
      {
        type: "tool_call",
        callId: "fc_1",
        name: "weather",
        arguments: '{"city":"Rome"}',
        signature: "C_SIG",
        origin: "gemini",
      },
      {
        type: "tool_call",
        callId: "call_x_1",
        name: "clock",
        arguments: "",
        synthesizedId: true,
        origin: "gemini",
      },
      { type: "tool_result", callId: "fc_1", name: "weather", summary: "sunny", content: "sunny, 24°C" },
      { type: "tool_result", callId: "call_x_1", name: "clock", summary: "timeout", isError: true },
      userMessage("thanks"),
    ];
    expect(body({ items }).contents).toEqual([
      { role: "user", parts: [{ text: "weather?" }] },
      {
        role: "model",
        parts: [
          { text: "thinking…", thought: true, thoughtSignature: "R_SIG" },
          { text: "Checking.", thoughtSignature: "T_SIG" },
          {
            functionCall: { id: "fc_1", name: "weather", args: { city: "Rome" } },
            thoughtSignature: "C_SIG",
          },
          { functionCall: { name: "clock", args: {} } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { id: "fc_1", name: "weather", response: { output: "sunny, 24°C" } } },
          { functionResponse: { name: "clock", response: { error: "timeout" } } },
          { text: "thanks" },
        ],
      },
    ]);
  });

  it("leaves out what another provider produced: reasoning, signatures, ids, redacted and server tool payloads", () => {
    const items: Item[] = [
      userMessage("q"),
      { type: "reasoning", text: "claude thinks", signature: "A_SIG", origin: "anthropic" },
      {
        type: "reasoning",
        text: "summary",
        itemId: "rs_1",
        encryptedContent: "enc",
        origin: "openai-responses",
      },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
      {
        type: "server_tool",
        role: "call",
        id: "srv_1",
        name: "web_search",
        payload: { type: "x" },
        origin: "anthropic",
      },
      { type: "message", role: "assistant", text: "answer", signature: "A_TEXT", origin: "anthropic" },
      { type: "tool_call", callId: "toolu_1", name: "f", arguments: '{"a":1}', origin: "anthropic" },
      { type: "tool_result", callId: "toolu_1", name: "f", summary: "done" },
    ];
    expect(body({ items }).contents).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      { role: "model", parts: [{ text: "answer" }, { functionCall: { name: "f", args: { a: 1 } } }] },
      { role: "user", parts: [{ functionResponse: { name: "f", response: { output: "done" } } }] },
    ]);
  });

  it("sends Gemini's own code execution parts back as they came", () => {
    const code = { executableCode: { language: "PYTHON", code: "print(2)" }, thoughtSignature: "X" };
    const result = { codeExecutionResult: { outcome: "OUTCOME_OK", output: "2\n" } };
    const b = body({
      items: [
        userMessage("run"),
        {
          type: "server_tool",
          role: "call",
          id: "c",
          name: "code_execution",
          payload: code,
          origin: "gemini",
        },
        {
          type: "server_tool",
          role: "result",
          id: "c",
          name: "code_execution_result",
          payload: result,
          origin: "gemini",
        },
      ],
    });
    expect(b.contents[1]).toEqual({ role: "model", parts: [code, result] });
    expect(b.contents[1]?.parts[0]).toBe(code);
  });

  it("skips empty text but keeps an empty assistant part that carries a signature", () => {
    const b = body({
      items: [
        userMessage(""),
        userMessage("x"),
        { type: "message", role: "assistant", text: "", signature: "SIG", origin: "gemini" },
        assistantMessage(""),
        { type: "reasoning", text: "", origin: "gemini" },
      ],
    });
    expect(b.contents).toEqual([
      { role: "user", parts: [{ text: "x" }] },
      { role: "model", parts: [{ text: "", thoughtSignature: "SIG" }] },
    ]);
  });

  it("sends arguments that are not a JSON object as {}", () => {
    const call = (args: string): Item => ({ type: "tool_call", callId: "c", name: "f", arguments: args });
    for (const args of ["", "  ", "{not json", "[1,2]", "42"]) {
      expect(body({ items: [call(args)] }).contents[0]?.parts[0]).toEqual({
        functionCall: { name: "f", args: {} },
      });
    }
  });

  it("sends back what a recorded response held, signatures byte-exact", async () => {
    const fixtures = PROVIDER_FIXTURES;
    const file = resolve(fixtures, "gemini/thought-summary-tool-call.sse");
    async function* bytes() {
      yield readFileSync(file);
    }
    const r = await collectResponse(decodeStream("gemini", bytes()), "gemini");
    const call = r.items[1];
    if (call?.type !== "tool_call") throw new Error("expected a tool call");
    const b = body({
      items: [
        userMessage("weather in Florence?"),
        ...r.items,
        { type: "tool_result", callId: call.callId, name: "weather", summary: "40 C" },
      ],
    });
    expect(b.contents[1]?.parts).toEqual([
      { text: r.reasoning, thought: true },
      {
        functionCall: { name: "weather", args: { location: "Florence, Italy" } },
        thoughtSignature: call.signature,
      },
    ]);
    expect(call.signature?.startsWith("CiQBvj72+y6VX8BA4jMLQJOJvw")).toBe(true);
    expect(b.contents[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "weather", response: { output: "40 C" } } }],
    });
  });
});

describe("buildGeminiBody: tools and settings", () => {
  const tools = [
    { name: "weather", description: "Get the weather", inputSchema: { type: "object", properties: {} } },
  ];

  it("declares tools with their JSON Schema", () => {
    expect(body({ tools }).tools).toEqual([
      {
        functionDeclarations: [
          {
            name: "weather",
            description: "Get the weather",
            parametersJsonSchema: { type: "object", properties: {} },
          },
        ],
      },
    ]);
    expect(body({ tools: [] })).not.toHaveProperty("tools");
  });

  it("maps the tool choice to a function calling mode", () => {
    expect(body({ tools, toolChoice: "auto" }).toolConfig).toEqual({
      functionCallingConfig: { mode: "AUTO" },
    });
    expect(body({ tools, toolChoice: "none" }).toolConfig).toEqual({
      functionCallingConfig: { mode: "NONE" },
    });
    expect(body({ tools, toolChoice: "required" }).toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY" },
    });
    expect(body({ tools, toolChoice: { name: "weather" } }).toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["weather"] },
    });
    expect(body({ tools })).not.toHaveProperty("toolConfig");
    expect(body({ toolChoice: "required" })).not.toHaveProperty("toolConfig");
  });

  it("puts sampling settings in generationConfig, and leaves it out when none is set", () => {
    expect(
      body({ maxOutputTokens: 100, temperature: 0.2, topP: 0.9, stopSequences: ["END"] }).generationConfig,
    ).toEqual({
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ["END"],
    });
    expect(body({ stopSequences: [] })).not.toHaveProperty("generationConfig");
  });

  it("asks for thoughts with a budget, or a level on Gemini 3", () => {
    const thinking = (reasoning: Request["reasoning"], model: string) =>
      body({ reasoning }, model).generationConfig?.thinkingConfig;
    expect(thinking({ budgetTokens: 2048 }, "gemini-2.5-pro")).toEqual({
      includeThoughts: true,
      thinkingBudget: 2048,
    });
    expect(thinking({ budgetTokens: 0 }, "gemini-2.5-flash")).toEqual({ thinkingBudget: 0 });
    expect(thinking({ effort: "high" }, "gemini-3-pro-preview")).toEqual({
      includeThoughts: true,
      thinkingLevel: "HIGH",
    });
    expect(thinking({ effort: "low" }, "models/gemini-2.5-flash")).toEqual({
      includeThoughts: true,
      thinkingBudget: 2048,
    });
    expect(thinking({ effort: "minimal", budgetTokens: 300 }, "gemini-3-flash")).toEqual({
      includeThoughts: true,
      thinkingBudget: 300,
    });
    expect(thinking({}, "gemini-3-pro")).toBeUndefined();
  });
});

describe("geminiScheme.buildHttpRequest", () => {
  const request: Request = { items: [userMessage("hi")] };

  it("uses the request's model, a custom base, a base that names the version, and resource paths", () => {
    const url = (baseURL: string, model: string, override?: string) =>
      geminiScheme.buildHttpRequest({ ...request, ...(override && { model: override }) }, { model, baseURL })
        .url;
    expect(url("http://127.0.0.1:9000/", "a", "gemini-3-pro-preview")).toBe(
      "http://127.0.0.1:9000/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    );
    expect(url("https://proxy.example/gemini/v1beta", "m")).toBe(
      "https://proxy.example/gemini/v1beta/models/m:streamGenerateContent?alt=sse",
    );
    expect(url("", "tunedModels/my-model")).toBe(
      "https://generativelanguage.googleapis.com/v1beta/tunedModels/my-model:streamGenerateContent?alt=sse",
    );
    expect(geminiScheme.buildHttpRequest(request, { model: "m", baseURL: "http://x" }).headers).toEqual({
      "content-type": "application/json",
    });
  });
});

describe("buildGeminiBody: structured output", () => {
  const responseFormat = {
    type: "json_schema" as const,
    name: "answer",
    schema: { type: "object", properties: { a: { type: "string" } } },
  };
  const tools = [{ name: "t", description: "", inputSchema: { type: "object" } }];

  it("asks for JSON of the schema with responseJsonSchema", () => {
    expect(body({ responseFormat }).generationConfig).toEqual({
      responseMimeType: "application/json",
      responseJsonSchema: responseFormat.schema,
    });
    expect(body({ responseFormat, tools }, "gemini-3-pro-preview").generationConfig).toMatchObject({
      responseMimeType: "application/json",
    });
  });

  it("leaves the JSON mode out on Gemini 2.x when tools are sent: those models reject the pair", () => {
    expect(body({ responseFormat, tools }, "gemini-2.5-flash").generationConfig).toBeUndefined();
    expect(body({ responseFormat }, "gemini-2.5-flash").generationConfig).toMatchObject({
      responseMimeType: "application/json",
    });
  });
});
