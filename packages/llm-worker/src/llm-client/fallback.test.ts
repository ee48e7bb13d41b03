import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, HELLO, mockClient, textOf } from "../../test/support/client-test-kit.js";
import { limitFault } from "../testing/limit-faults.js";
import {
  encodeScripted,
  type MockProvider,
  type MockReply,
  startMockProvider,
} from "../testing/mock-provider.js";
import { carryHistory } from "./carry-history.js";
import { createFallbackClient, type FallbackNotice } from "./fallback.js";
import type { Item, SchemeName } from "./item.js";
import { userMessage } from "./item.js";
import type { Request } from "./request.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider();
});
afterEach(async () => {
  await mock.close();
});

/** Replies by scheme, each scheme's own queue (first in first out), HELLO once it runs dry. */
function replies(byScheme: Partial<Record<SchemeName, MockReply[]>>): void {
  mock.setHandler((request) => byScheme[request.scheme as SchemeName]?.shift() ?? HELLO);
}

const OVERLOADED: MockReply = {
  fault: "status",
  status: 529,
  message: "Overloaded",
  code: "overloaded_error",
};
const NO_MODEL: MockReply = { fault: "status", status: 404, message: "model: nope", code: "not_found_error" };

function chain(now: () => number = Date.now) {
  const notices: FallbackNotice[] = [];
  const client = createFallbackClient({
    clients: [
      mockClient(mock, "anthropic", { model: "claude-test", retry: { maxRetries: 1, baseDelayMs: 1 } }),
      mockClient(mock, "openai-chat", { model: "gpt-test" }),
      mockClient(mock, "ollama", { model: "llama-test" }),
    ],
    coolDownMs: 1000,
    now,
    onFallback: (notice) => notices.push(notice),
  });
  return { client, notices };
}

const schemesAsked = (): Array<SchemeName | undefined> => mock.requests.map((r) => r.scheme);

describe("a chain of models over HTTP", () => {
  it("moves to the next model at once when the first one's quota is spent (no retry can fix it)", async () => {
    replies({ anthropic: [limitFault("anthropic", "quota", 3_600_000)] });
    const { client, notices } = chain();
    const events = await collect(client.stream({ items: [userMessage("Say hello")] }));
    expect(textOf(events)).toBe("Hello there, how are you doing today?");
    expect(schemesAsked()).toEqual(["anthropic", "openai-chat"]);
    expect(notices[0]?.error).toMatchObject({ kind: "quota_exhausted" });
  });

  it("moves to the next model when the first is still overloaded after its retries", async () => {
    replies({ anthropic: [OVERLOADED, OVERLOADED] });
    const { client, notices } = chain();
    const events = await collect(client.stream({ items: [userMessage("Say hello")] }));
    expect(textOf(events)).toBe("Hello there, how are you doing today?");
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(events.filter((e) => e.type === "status" && e.status === "started")).toHaveLength(1);
    expect(schemesAsked()).toEqual(["anthropic", "anthropic", "openai-chat"]);
    expect(notices).toEqual([
      {
        from: { scheme: "anthropic", model: "claude-test" },
        to: { scheme: "openai-chat", model: "gpt-test" },
        reason: "error",
        error: expect.objectContaining({ kind: "overloaded", status: 529 }),
      },
    ]);
    expect(client.scheme).toBe("openai-chat");
    expect(mock.requests[2]?.model).toBe("gpt-test");
  });

  it("goes down the chain past a model that does not exist", async () => {
    replies({ anthropic: [NO_MODEL], "openai-chat": [NO_MODEL] });
    const { client, notices } = chain();
    const response = await client.complete({ items: [userMessage("Say hello")] });
    expect(response.status).toBe("completed");
    expect(response.items[0]).toMatchObject({ type: "message", origin: "ollama" });
    expect(schemesAsked()).toEqual(["anthropic", "openai-chat", "ollama"]);
    expect(notices.map((n) => `${n.from.scheme}>${n.to.scheme}`)).toEqual([
      "anthropic>openai-chat",
      "openai-chat>ollama",
    ]);
  });

  it("reports an error retrying could fix, or a bad request, without moving", async () => {
    replies({ anthropic: [{ fault: "status", status: 400, message: "bad", code: "invalid_request_error" }] });
    const { client, notices } = chain();
    const response = await client.complete({ items: [userMessage("Say hello")] });
    expect(response.status).toBe("failed");
    expect(response.error?.kind).toBe("invalid_request");
    expect(schemesAsked()).toEqual(["anthropic"]);
    expect(notices).toEqual([]);
  });

  it("never moves once part of the answer was delivered", async () => {
    const length = Buffer.byteLength(encodeScripted("anthropic", HELLO));
    replies({ anthropic: [{ fault: "reset", response: HELLO, afterBytes: Math.floor(length * 0.8) }] });
    const { client, notices } = chain();
    const events = await collect(client.stream({ items: [userMessage("Say hello")] }));
    expect(textOf(events)).not.toBe("");
    expect(events.at(-1)).toMatchObject({ type: "status", status: "failed" });
    expect(schemesAsked()).toEqual(["anthropic"]);
    expect(notices).toEqual([]);
  });

  it("stays on the fallback within a turn and probes the first model on a new turn after the cool-down", async () => {
    let clock = 0;
    replies({ anthropic: [NO_MODEL] });
    const { client, notices } = chain(() => clock);
    const turn: Item[] = [userMessage("Say hello")];
    await client.complete({ items: turn });
    clock = 5000;
    // The same turn (no new user message): the fallback's warm cache is worth more than a probe.
    await client.complete({ items: [...turn, { type: "message", role: "assistant", text: "Hi" }] });
    expect(schemesAsked()).toEqual(["anthropic", "openai-chat", "openai-chat"]);

    await client.complete({ items: [...turn, userMessage("Again")] });
    expect(schemesAsked().at(-1)).toBe("anthropic");
    expect(notices.at(-1)).toEqual({
      from: { scheme: "openai-chat", model: "gpt-test" },
      to: { scheme: "anthropic", model: "claude-test" },
      reason: "primary_probe",
    });
  });

  it("keeps the first model passed over until its cool-down is over", async () => {
    let clock = 0;
    replies({ anthropic: [NO_MODEL] });
    const { client } = chain(() => clock);
    await client.complete({ items: [userMessage("one")] });
    clock = 999;
    await client.complete({ items: [userMessage("one"), userMessage("two")] });
    expect(schemesAsked()).toEqual(["anthropic", "openai-chat", "openai-chat"]);
  });

  it("carries a history across schemes: foreign reasoning left out, ids every scheme takes", async () => {
    replies({ anthropic: [NO_MODEL] });
    const longId = `call|${"x".repeat(60)}`;
    const request: Request = {
      items: [
        userMessage("List the files"),
        { type: "reasoning", text: "I should call ls", signature: "sig", origin: "anthropic" },
        { type: "tool_call", callId: longId, name: "ls", arguments: "{}", origin: "anthropic" },
        { type: "tool_result", callId: longId, name: "ls", summary: "a b", content: "a b" },
      ],
    };
    const { client } = chain();
    await client.complete(request);
    const body = mock.requests[1]?.body as { messages: Array<Record<string, unknown>> };
    const assistant = body.messages[1] as { tool_calls: Array<{ id: string }> };
    const tool = body.messages[2] as { tool_call_id: string };
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(assistant.tool_calls[0]?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(tool.tool_call_id).toBe(assistant.tool_calls[0]?.id);
    expect(JSON.stringify(body)).not.toContain("I should call ls");
  });
});

describe("carryHistory", () => {
  it("answers a call left open, after its turn's results and before the next message", () => {
    const items: Item[] = [
      userMessage("go"),
      { type: "tool_call", callId: "a", name: "ls", arguments: "{}" },
      { type: "tool_call", callId: "b", name: "cat", arguments: "{}" },
      { type: "tool_result", callId: "a", name: "ls", summary: "x", content: "x" },
      { type: "message", role: "assistant", text: "done" },
    ];
    const carried = carryHistory(items);
    expect(
      carried.map((item) => (item.type === "tool_result" ? `result:${item.callId}` : item.type)),
    ).toEqual(["message", "tool_call", "tool_call", "result:a", "result:b", "message"]);
    expect(carried[4]).toMatchObject({ isError: true, name: "cat" });
  });

  it("returns the same history when it needs nothing", () => {
    const items: Item[] = [
      userMessage("go"),
      { type: "tool_call", callId: "toolu_01", name: "ls", arguments: "{}" },
      { type: "tool_result", callId: "toolu_01", name: "ls", summary: "x", content: "x" },
    ];
    expect(carryHistory(items)).toBe(items);
  });
});
