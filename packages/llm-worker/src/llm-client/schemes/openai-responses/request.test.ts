import { describe, expect, it } from "vitest";
import type { Item } from "../../item.js";
import type { Request } from "../../request.js";
import { buildOpenaiResponsesBody, effortForBudget } from "./request.js";

const user = (text: string): Item => ({ type: "message", role: "user", text });

describe("buildOpenaiResponsesBody", () => {
  it("maps the request fields and defaults to a stateless streaming request", () => {
    const request: Request = {
      system: "Be brief.",
      items: [user("Hi")],
      tools: [
        {
          name: "weather",
          description: "Weather for a city",
          inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      ],
      toolChoice: { name: "weather" },
      maxOutputTokens: 500,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ["STOP"],
    };
    expect(buildOpenaiResponsesBody(request, "gpt-4o")).toEqual({
      model: "gpt-4o",
      instructions: "Be brief.",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] }],
      tools: [
        {
          type: "function",
          name: "weather",
          description: "Weather for a city",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          strict: false,
        },
      ],
      tool_choice: { type: "function", name: "weather" },
      max_output_tokens: 500,
      temperature: 0.2,
      top_p: 0.9,
      store: false,
      stream: true,
    });
  });

  it("passes the string tool choices through", () => {
    for (const choice of ["auto", "none", "required"] as const) {
      expect(buildOpenaiResponsesBody({ items: [], toolChoice: choice }, "m").tool_choice).toBe(choice);
    }
  });

  it("asks for summaries and encrypted reasoning when reasoning is requested", () => {
    const body = buildOpenaiResponsesBody({ items: [], reasoning: { effort: "high" } }, "gpt-5");
    expect(body.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    expect(buildOpenaiResponsesBody({ items: [] }, "gpt-5")).not.toHaveProperty("include");
  });

  it("turns a token budget into an effort level", () => {
    expect(buildOpenaiResponsesBody({ items: [], reasoning: { budgetTokens: 2000 } }, "m").reasoning).toEqual(
      {
        effort: "low",
        summary: "auto",
      },
    );
    expect([500, 1024, 4096, 16384].map(effortForBudget)).toEqual(["minimal", "low", "medium", "high"]);
  });

  it("delivers system items in the middle of the conversation as developer messages in place", () => {
    const body = buildOpenaiResponsesBody(
      { items: [user("Read @a.txt"), { type: "message", role: "system", text: "[File: a.txt]\nhello" }] },
      "m",
    );
    expect(body.input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Read @a.txt" }] },
      { type: "message", role: "developer", content: [{ type: "input_text", text: "[File: a.txt]\nhello" }] },
    ]);
  });

  it("sends an assistant turn of this scheme back in order, byte-exact, with its item ids", () => {
    const items: Item[] = [
      user("Weather in Rome?"),
      {
        type: "reasoning",
        text: "AB",
        itemId: "rs_1",
        summary: ["A", "B"],
        encryptedContent: "gAAAA==",
        origin: "openai-responses",
      },
      { type: "message", role: "assistant", text: "Checking.", itemId: "msg_1", origin: "openai-responses" },
      {
        type: "tool_call",
        callId: "call_1",
        name: "weather",
        arguments: '{"city":"Rome"}',
        itemId: "fc_1",
        origin: "openai-responses",
      },
      {
        type: "tool_result",
        callId: "call_1",
        name: "weather",
        summary: "1 line | sunny",
        content: "sunny, 24°C",
      },
      { type: "tool_result", callId: "call_2", name: "weather", summary: "pruned summary", isError: true },
    ];
    expect(buildOpenaiResponsesBody({ items }, "gpt-5").input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Rome?" }] },
      {
        type: "reasoning",
        id: "rs_1",
        summary: [
          { type: "summary_text", text: "A" },
          { type: "summary_text", text: "B" },
        ],
        encrypted_content: "gAAAA==",
      },
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Checking.", annotations: [] }],
      },
      { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Rome"}', id: "fc_1" },
      { type: "function_call_output", call_id: "call_1", output: "sunny, 24°C" },
      { type: "function_call_output", call_id: "call_2", output: "pruned summary" },
    ]);
  });

  it("leaves out reasoning, redacted reasoning and server tools from other schemes", () => {
    const items: Item[] = [
      user("q"),
      { type: "reasoning", text: "thinking", signature: "sig", origin: "anthropic" },
      { type: "reasoning", text: "visible only", origin: "openai-chat" },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
      {
        type: "server_tool",
        role: "call",
        id: "srvtoolu_1",
        name: "web_search",
        payload: {},
        origin: "anthropic",
      },
      { type: "message", role: "assistant", text: "Answer", signature: "s", origin: "gemini" },
      { type: "tool_call", callId: "toolu_1", name: "f", arguments: "", origin: "anthropic" },
      {
        type: "tool_call",
        callId: "synth_1",
        name: "g",
        arguments: "{}",
        synthesizedId: true,
        origin: "ollama",
      },
    ];
    expect(buildOpenaiResponsesBody({ items }, "m").input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "q" }] },
      { type: "message", role: "assistant", content: "Answer" },
      { type: "function_call", call_id: "toolu_1", name: "f", arguments: "{}" },
      { type: "function_call", call_id: "synth_1", name: "g", arguments: "{}" },
    ]);
  });

  it("sends built-in tool items of this scheme back verbatim and drops unknown ones", () => {
    const payload = {
      type: "web_search_call",
      id: "ws_1",
      status: "completed",
      action: { type: "search", query: "q" },
    };
    const items: Item[] = [
      {
        type: "server_tool",
        role: "call",
        id: "ws_1",
        name: "web_search_call",
        payload,
        origin: "openai-responses",
      },
      {
        type: "server_tool",
        role: "call",
        id: "x_1",
        name: "future_call",
        payload: { type: "future_call", id: "x_1" },
        origin: "openai-responses",
      },
    ];
    const input = buildOpenaiResponsesBody({ items }, "m").input;
    expect(input).toEqual([payload]);
    expect(input[0]).toBe(payload);
  });

  it("leaves out reasoning that only server state could resolve, and the ids of its turn", () => {
    const items: Item[] = [
      user("q"),
      {
        type: "reasoning",
        text: "",
        itemId: "rs_1",
        summary: [],
        encryptedContent: null,
        origin: "openai-responses",
      },
      {
        type: "tool_call",
        callId: "call_1",
        name: "f",
        arguments: "{}",
        itemId: "fc_1",
        origin: "openai-responses",
      },
      { type: "tool_result", callId: "call_1", name: "f", summary: "ok" },
      { type: "message", role: "assistant", text: "Done.", itemId: "msg_2", origin: "openai-responses" },
    ];
    expect(buildOpenaiResponsesBody({ items }, "m").input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "q" }] },
      { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "ok" },
      {
        type: "message",
        id: "msg_2",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Done.", annotations: [] }],
      },
    ]);
    // With server state the reference resolves, so it is sent.
    const stateful = buildOpenaiResponsesBody({ items, providerOptions: { store: true } }, "m").input;
    expect(stateful[1]).toEqual({ type: "reasoning", id: "rs_1", summary: [] });
    expect(stateful[2]).toMatchObject({ id: "fc_1" });
  });
});
