import { describe, expect, it } from "vitest";
import { assistant, call, charTokens, result, user } from "../../test/support/test-items.js";
import type { Item } from "../llm-client/item.js";
import { pruneItems, withoutContent } from "./prune.js";
import { sharedPrefixLength, TokenAccountant } from "./token-accounting.js";

/** A session of 1,000 + 2,000 + 3,000 + 500 = 6,500 item tokens. */
function session(): Item[] {
  return [user(1_000), call("a"), result("a", 2_000, 20), call("b"), result("b", 3_000, 30), assistant(500)];
}

describe("TokenAccountant.estimate", () => {
  it("estimates every item when nothing has been reported yet", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    expect(accountant.estimate(session())).toBe(6_500);
  });

  it("anchors on the reported prompt and adds only what was added since", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    const sent = session();
    // The provider counted 8,200: its tokenizer, the system prompt and the tools are in there.
    accountant.record(sent, { inputTokens: 8_200 });
    expect(accountant.estimate(sent)).toBe(8_200);
    expect(accountant.estimate([...sent, call("c"), result("c", 700)])).toBe(8_900);
  });

  it("subtracts what a projection removed", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    const sent = session();
    accountant.record(sent, { inputTokens: 8_200 });
    // Pruning result "a" shows its 20-token summary instead of its 2,000 tokens of content.
    const next = [...pruneItems(sent, [2]), user(100)];
    expect(accountant.estimate(next)).toBe(8_200 - 2_000 + 20 + 100);
  });

  it("handles a shorter history (a rewrite) by removing what is gone", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    const sent = session();
    accountant.record(sent, { inputTokens: 8_200 });
    expect(accountant.estimate(sent.slice(0, 3))).toBe(8_200 - 3_500);
    expect(accountant.estimate([])).toBe(8_200 - 6_500);
  });

  it("keeps its own copy of the sent items, so a history that grows later is still diffed", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    const history = session();
    accountant.record(history, { inputTokens: 8_200 });
    history.push(user(300));
    expect(accountant.estimate(history)).toBe(8_500);
  });

  it("learns nothing from a request without reported input tokens", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    const sent = session();
    accountant.record(sent, { inputTokens: 8_200 });
    expect(accountant.record([...sent, user(50)], { outputTokens: 3 })).toBeUndefined();
    expect(accountant.requests).toHaveLength(1);
    expect(accountant.estimate([...sent, user(50)])).toBe(8_250);
  });
});

describe("TokenAccountant records", () => {
  it("records the cache read and creation figures of every request, and its own prior estimate", () => {
    let now = 1_000;
    const accountant = new TokenAccountant({ tokensOf: charTokens, now: () => now });
    const first = session();
    const firstRecord = accountant.record(first, {
      inputTokens: 8_200,
      cacheCreationInputTokens: 8_000,
      outputTokens: 40,
    });
    expect(firstRecord).toEqual({
      inputTokens: 8_200,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 8_000,
      outputTokens: 40,
      itemCount: 6,
      userMessageCount: 1,
      recordedAt: 1_000,
    });
    now = 2_000;
    const second = [...first, call("c"), result("c", 700)];
    accountant.record(second, {
      inputTokens: 8_930,
      cacheReadInputTokens: 8_000,
      cacheCreationInputTokens: 930,
    });
    expect(accountant.requests[1]).toMatchObject({
      inputTokens: 8_930,
      cacheReadInputTokens: 8_000,
      cacheCreationInputTokens: 930,
      estimatedInputTokens: 8_900,
      itemCount: 8,
      recordedAt: 2_000,
    });
  });

  it("knows the prefix is cached only within the cache lifetime", () => {
    let now = 0;
    const accountant = new TokenAccountant({ tokensOf: charTokens, now: () => now, cacheTtlMs: 300_000 });
    expect(accountant.isPrefixCached()).toBe(false);
    accountant.record(session(), { inputTokens: 8_200 });
    now = 299_999;
    expect(accountant.isPrefixCached()).toBe(true);
    now = 300_000;
    expect(accountant.isPrefixCached()).toBe(false);
  });

  it("expects as many more requests as the session has averaged per turn", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    expect(accountant.expectedFutureRequests()).toBe(1);
    const history: Item[] = [user(10)];
    // A headless run: one turn, six requests so far -> expect six more.
    for (let i = 0; i < 6; i++) {
      history.push(call(`c${i}`), result(`c${i}`, 10));
      accountant.record(history, { inputTokens: 100 + i });
    }
    expect(accountant.turns).toBe(1);
    expect(accountant.expectedFutureRequests()).toBe(6);
    // Two more turns of one request each: 8 requests over 3 turns -> 3 (2.67 rounded).
    history.push(user(10));
    accountant.record(history, { inputTokens: 200 });
    history.push(assistant(5), user(10));
    accountant.record(history, { inputTokens: 300 });
    expect(accountant.turns).toBe(3);
    expect(accountant.expectedFutureRequests()).toBe(3);
    accountant.reset();
    expect(accountant.requests).toHaveLength(0);
    expect(accountant.expectedFutureRequests()).toBe(1);
    expect(accountant.cachedPrefixLength(history)).toBe(0);
  });
});

describe("TokenAccountant with futureRequests: session", () => {
  it("expects as many more requests as the whole session has made, however many turns", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens, futureRequests: "session" });
    expect(accountant.expectedFutureRequests()).toBe(1);
    const history: Item[] = [];
    // Ten short turns of three requests: per turn that is 3, over the session 30.
    for (let turn = 0; turn < 10; turn++) {
      history.push(user(10));
      for (let i = 0; i < 3; i++) {
        history.push(call(`c${turn}-${i}`), result(`c${turn}-${i}`, 10));
        accountant.record(history, { inputTokens: 100 });
      }
    }
    expect(accountant.turns).toBe(10);
    expect(accountant.expectedFutureRequests()).toBe(30);
    const perTurn = new TokenAccountant({ tokensOf: charTokens });
    perTurn.record([user(1)], { inputTokens: 1 });
    perTurn.record([user(1), user(1)], { inputTokens: 2 });
    expect(perTurn.expectedFutureRequests()).toBe(1);
  });
});

describe("cached prefix", () => {
  it("is the prefix shared with the last reported request", () => {
    const accountant = new TokenAccountant({ tokensOf: charTokens });
    const sent = session();
    expect(accountant.cachedPrefixLength(sent)).toBe(0);
    accountant.record(sent, { inputTokens: 8_200 });
    expect(accountant.cachedPrefixLength([...sent, user(5)])).toBe(6);
    expect(accountant.cachedPrefixLength(pruneItems(sent, [4]))).toBe(4);
  });

  it("treats two pruned copies of the same result as the same item", () => {
    const items = session();
    const once = pruneItems(items, [2]);
    const again = pruneItems(items, [2]);
    expect(once[2]).not.toBe(again[2]);
    expect(sharedPrefixLength(once, again)).toBe(6);
    // A different summary is a different prompt.
    const changed = [...once];
    changed[2] = withoutContent(result("a", 0, 21));
    expect(sharedPrefixLength(once, changed)).toBe(2);
    // Equal-looking messages that are not the same object are not assumed equal.
    expect(sharedPrefixLength([user(3)], [user(3)])).toBe(0);
  });
});
