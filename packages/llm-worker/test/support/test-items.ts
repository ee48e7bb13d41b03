import type { ContextPruner } from "../../src/context/context-pruner.js";
import type { PruneReason } from "../../src/context/prune-plan.js";
import { sharedPrefixLength, type TokenAccountant } from "../../src/context/token-accounting.js";
import { sumItemTokens } from "../../src/context/tokens.js";
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

/** What a simulated session sent and paid. */
export interface SimulatedRun {
  reasons: PruneReason[];
  /** Per request, the call ids it pruned. */
  pruned: string[][];
  sent: (readonly Item[])[];
  /** Total prompt cost in uncached-input-token units, Anthropic prices. */
  cost: number;
}

/**
 * A session against a fake Anthropic-like provider: `turns` user messages of `userTokens`, each
 * followed by `requestsPerTurn` requests that add 100 tokens of assistant text, a tool call and a
 * result of `resultTokens` with a `summaryTokens` summary. The provider caches the last prompt
 * (after a 1,000-token system prompt); a prompt pays 0.1 per token of the prefix it shares with
 * the last one and 1.25 per token after that.
 */
export function simulateSession(
  pruner: ContextPruner,
  accountant: TokenAccountant,
  shape: {
    turns: number;
    requestsPerTurn: number;
    userTokens: number;
    resultTokens: number;
    summaryTokens: number;
  },
): SimulatedRun {
  const systemTokens = 1_000;
  const history: Item[] = [];
  const log: SimulatedRun = { reasons: [], pruned: [], sent: [], cost: 0 };
  let previous: readonly Item[] | undefined;
  let n = 0;
  for (let turn = 0; turn < shape.turns; turn++) {
    history.push(user(shape.userTokens));
    for (let r = 0; r < shape.requestsPerTurn; r++) {
      n++;
      history.push(assistant(100), call(`c${n}`), result(`c${n}`, shape.resultTokens, shape.summaryTokens));
      const projection = pruner.project(history, accountant);
      const sent = projection.items;
      const inputTokens = systemTokens + sumItemTokens(sent, charTokens);
      const cached =
        previous === undefined
          ? 0
          : systemTokens + sumItemTokens(sent, charTokens, 0, sharedPrefixLength(previous, sent));
      log.cost += cached * 0.1 + (inputTokens - cached) * 1.25;
      accountant.record(sent, {
        inputTokens,
        cacheReadInputTokens: cached,
        cacheCreationInputTokens: inputTokens - cached,
      });
      log.reasons.push(projection.decision.reason);
      log.pruned.push([...projection.newlyPrunedCallIds]);
      log.sent.push(sent);
      previous = sent;
    }
  }
  return log;
}
