import { describe, expect, it } from "vitest";
import {
  blockStop,
  events,
  messageDelta,
  messageStop,
  response,
  sse,
  start,
  textDelta,
} from "../../../../test/support/anthropic-decoder-streams.js";

describe("anthropic decoder: blocks", () => {
  it("turns citations_delta into citation deltas of the text block", async () => {
    const citation = {
      type: "web_search_result_location",
      cited_text: "c",
      url: "u",
      title: "t",
      encrypted_index: "e",
    };
    const r = await response(
      sse(
        start(),
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "", citations: [] } },
        { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation } },
        textDelta(0, "cited"),
        blockStop(0),
        messageDelta("end_turn"),
        messageStop,
      ),
    );
    expect(r.items).toEqual([
      { type: "message", role: "assistant", text: "cited", citations: [citation], origin: "anthropic" },
    ]);
  });

  it("keeps thinking with its signature and redacted thinking", async () => {
    const r = await response(
      sse(
        start(),
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "thinking", thinking: "", signature: "" },
        },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me" } },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "c2ln" } },
        blockStop(0),
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "redacted_thinking", data: "opaque" },
        },
        blockStop(1),
        messageDelta("end_turn"),
        messageStop,
      ),
    );
    expect(r.items).toEqual([
      { type: "reasoning", text: "Let me", signature: "c2ln", origin: "anthropic" },
      { type: "redacted_reasoning", data: "opaque", origin: "anthropic" },
    ]);
  });

  it("keeps server and MCP tool calls as whole blocks with their input, and results as received", async () => {
    const mcpStart = {
      type: "mcp_tool_use",
      id: "mcptoolu_1",
      name: "lookup",
      server_name: "docs",
      input: {},
    };
    const result = {
      type: "mcp_tool_result",
      tool_use_id: "mcptoolu_1",
      is_error: false,
      content: [{ type: "text", text: "r" }],
    };
    const all = await events(
      sse(
        start(),
        { type: "content_block_start", index: 0, content_block: mcpStart },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"q":' } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"x"}' } },
        blockStop(0),
        { type: "content_block_start", index: 1, content_block: result },
        blockStop(1),
        messageDelta("end_turn"),
        messageStop,
      ),
    );
    expect(all).toContainEqual({
      type: "block_stop",
      index: 0,
      blockType: "server_tool_use",
      providerData: { raw: { ...mcpStart, input: { q: "x" } } },
    });
    expect(all).toContainEqual({
      type: "block_start",
      index: 1,
      blockType: "server_tool_result",
      toolUseId: "mcptoolu_1",
      resultType: "mcp_tool_result",
      providerData: { raw: result },
    });
  });

  it("keeps a block type it does not know, whole, and ignores its deltas", async () => {
    const block = { type: "container_upload", file_id: "file_1" };
    const r = await response(
      sse(
        start(),
        { type: "content_block_start", index: 0, content_block: block },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "?" } },
        blockStop(0),
        messageDelta("end_turn"),
        messageStop,
      ),
    );
    expect(r.status).toBe("completed");
    expect(r.items).toEqual([
      {
        type: "server_tool",
        role: "result",
        id: "",
        name: "container_upload",
        payload: block,
        origin: "anthropic",
      },
    ]);
  });

  it("takes a tool call's input from its start when no input_json_delta comes", async () => {
    const r = await response(
      sse(
        start(),
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "t", name: "f", input: { a: 1 } },
        },
        blockStop(0),
        messageDelta("tool_use"),
        messageStop,
      ),
    );
    expect(r.toolCalls[0]?.arguments).toEqual({ a: 1 });
  });
});
