/**
 * Calls a model should not make, and tools that misbehave in small ways: a repeated call id, a
 * throw of something that is not an Error, and many calls at once.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolResultItem, tool } from "../../src/index.js";
import { bodyOf, expectEveryCallAnswered, sleep, useMockProvider, workerOn } from "./tools-harness.js";

const mock = useMockProvider();

function results(history: readonly { type: string }[]): ToolResultItem[] {
  return history.filter((i): i is ToolResultItem => i.type === "tool_result");
}

describe("a call id repeated within one response", () => {
  it("runs the first call only, answers the repeat with an error, and keeps history valid", async () => {
    const ran: string[] = [];
    const charge = tool({
      name: "charge",
      description: "Charges a card",
      input: z.object({ amount: z.number() }),
      execute: ({ amount }) => {
        ran.push(String(amount));
        return `charged ${amount}`;
      },
    });
    mock().enqueue(
      {
        blocks: [
          { type: "tool_call", id: "call_1", name: "charge", arguments: { amount: 5 } },
          { type: "tool_call", id: "call_1", name: "charge", arguments: { amount: 7 } },
        ],
      },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const worker = workerOn(mock(), "anthropic", { tools: [charge] });
    const idsAtTurnEnd: string[][] = [];
    worker.on("turn_end", (e) =>
      idsAtTurnEnd.push(e.response.items.flatMap((i) => (i.type === "tool_call" ? [i.callId] : []))),
    );
    const result = await worker.run("charge twice");
    expect(result.status).toBe("finished");
    expect(ran).toEqual(["5"]);
    // Listeners see the ids history keeps (a session log writes them at turn end).
    expect(idsAtTurnEnd[0]).toEqual(["call_1", "call_1_dup2"]);
    expectEveryCallAnswered(worker.history);
    expect(results(worker.history)).toMatchObject([
      { callId: "call_1", content: "charged 5" },
      { callId: "call_1_dup2", isError: true },
    ]);
    expect(results(worker.history)[1]?.content).toContain('repeats the id "call_1"');
    // The next request pairs each tool_use with exactly one tool_result.
    const sent = JSON.stringify(bodyOf(mock(), 1).messages);
    expect(sent.match(/"tool_use_id":"call_1"/g)).toHaveLength(1);
    expect(sent.match(/"tool_use_id":"call_1_dup2"/g)).toHaveLength(1);
  });
});

describe("a tool that throws something that is not an Error", () => {
  it("tells the model what was thrown, not [object Object]", async () => {
    const lookup = tool({
      name: "lookup",
      description: "Looks a record up",
      input: z.object({}),
      execute: () => {
        throw { code: "EDB", detail: "database is down" };
      },
    });
    mock().enqueue(
      { blocks: [{ type: "tool_call", id: "c1", name: "lookup", arguments: {} }] },
      { blocks: [{ type: "text", text: "ok" }] },
    );
    const worker = workerOn(mock(), "openai-chat", { tools: [lookup] });
    await worker.run("look");
    const [failed] = results(worker.history);
    expect(failed?.isError).toBe(true);
    expect(failed?.content).toBe('lookup failed: {"code":"EDB","detail":"database is down"}');
  });
});

describe("many calls at once", () => {
  it("runs twelve parallel calls without a listener-leak warning", async () => {
    const wait = tool({
      name: "wait",
      description: "Waits a moment",
      input: z.object({ n: z.number() }),
      execute: async ({ n }, { signal }) => {
        await sleep(20, signal);
        return `waited ${n}`;
      },
    });
    const calls = Array.from({ length: 12 }, (_, n) => ({
      type: "tool_call" as const,
      id: `c${n}`,
      name: "wait",
      arguments: { n },
    }));
    mock().enqueue({ blocks: calls }, { blocks: [{ type: "text", text: "ok" }] });
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const worker = workerOn(mock(), "anthropic", { tools: [wait] });
      const controller = new AbortController();
      const result = await worker.run("wait", { signal: controller.signal });
      expect(result.status).toBe("finished");
      expect(results(worker.history)).toHaveLength(12);
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
  });
});
