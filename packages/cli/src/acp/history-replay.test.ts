import path from "node:path";
import type { Item } from "@yoake/llm-worker";
import { describe, expect, it } from "vitest";
import { replayUpdates } from "./history-replay.js";
import { NOT_RUN_TEXT } from "./turn-reporter.js";

const ROOT = path.resolve("/home/ada/repo");

describe("replayUpdates", () => {
  it("replays the conversation: messages, reasoning and tool calls in their final state", () => {
    const history: Item[] = [
      { type: "message", role: "user", text: "Fix [unresolved file ref: a.ts]" },
      { type: "message", role: "system", text: "[File: a.ts]\nhelo" },
      { type: "reasoning", text: "A typo.", signature: "sig" },
      { type: "redacted_reasoning", data: "opaque" },
      { type: "message", role: "assistant", text: "Reading it." },
      { type: "tool_call", callId: "c1", name: "read_file", arguments: '{"path":"a.ts"}' },
      { type: "tool_call", callId: "c2", name: "edit_file", arguments: '{"path":"a.ts"' },
      { type: "tool_result", callId: "c1", name: "read_file", summary: "1 lines", content: "     1\thelo" },
      { type: "tool_result", callId: "c2", name: "edit_file", summary: "bad arguments", isError: true },
      { type: "tool_call", callId: "c3", name: "grep", arguments: '{"pattern":"x"}' },
      { type: "message", role: "assistant", text: "" },
    ];
    expect(replayUpdates(history, ROOT)).toEqual([
      {
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: "Fix [unresolved file ref: a.ts]" },
      },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "A typo." } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Reading it." } },
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "read_file a.ts",
        kind: "read",
        status: "completed",
        rawInput: { path: "a.ts" },
        content: [{ type: "content", content: { type: "text", text: "     1\thelo" } }],
        locations: [{ path: path.join(ROOT, "a.ts") }],
      },
      {
        sessionUpdate: "tool_call",
        toolCallId: "c2",
        title: "edit_file",
        kind: "edit",
        status: "failed",
        // Arguments that are not JSON are shown as the model wrote them.
        rawInput: '{"path":"a.ts"',
        content: [{ type: "content", content: { type: "text", text: "bad arguments" } }],
      },
      {
        sessionUpdate: "tool_call",
        toolCallId: "c3",
        title: 'grep "x"',
        kind: "search",
        status: "failed",
        rawInput: { pattern: "x" },
        content: [{ type: "content", content: { type: "text", text: NOT_RUN_TEXT } }],
      },
    ]);
  });
});
