import type { Item, MessageItem, ToolCallItem, ToolResultItem } from "../../src/llm-client/item.js";

/**
 * Test helpers: items whose size in tokens is set by hand. With `charTokens` one character is one
 * token, so the worked examples in the tests and the README can use round numbers.
 */

/** One token per character of the text the item shows the model; no framing overhead. */
export function charTokens(item: Item): number {
  switch (item.type) {
    case "message":
    case "reasoning":
      return item.text.length;
    case "tool_call":
      return item.arguments.length;
    case "tool_result":
      return (item.content ?? item.summary).length;
    case "redacted_reasoning":
      return item.data.length;
    case "server_tool":
      return item.arguments?.length ?? 0;
  }
}

export function user(tokens: number): MessageItem {
  return { type: "message", role: "user", text: "u".repeat(tokens) };
}

export function assistant(tokens: number): MessageItem {
  return { type: "message", role: "assistant", text: "a".repeat(tokens) };
}

/** A tool call of 0 tokens. */
export function call(callId: string): ToolCallItem {
  return { type: "tool_call", callId, name: "tool", arguments: "" };
}

/** A tool result of `contentTokens`, whose summary is `summaryTokens` long. */
export function result(callId: string, contentTokens: number, summaryTokens = 0): ToolResultItem {
  return {
    type: "tool_result",
    callId,
    name: "tool",
    summary: "s".repeat(summaryTokens),
    content: "c".repeat(contentTokens),
  };
}
