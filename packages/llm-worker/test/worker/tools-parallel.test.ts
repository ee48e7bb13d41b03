/**
 * The calls of one response run in parallel, and their results enter history (and the next
 * request) in the order the model made the calls, whatever order they finish in.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool, Worker } from "../../src/index.js";
import type { ScriptedResponse } from "../../src/testing/index.js";
import {
  bodyOf,
  clientFor,
  expectEveryCallAnswered,
  SCHEMES,
  sentResults,
  sleep,
  useMockProvider,
} from "./tools-harness.js";

const mock = useMockProvider();

function threeCalls(delays: [number, number, number]): ScriptedResponse {
  return {
    blocks: delays.map((ms, i) => ({
      type: "tool_call" as const,
      name: "wait",
      arguments: { n: i + 1, ms },
    })),
  };
}

/** A tool that sleeps as long as asked and records how many of its calls run at once. */
function waitTool() {
  const stats = { running: 0, peak: 0, finished: [] as number[] };
  const wait = tool({
    name: "wait",
    description: "Waits, then reports",
    input: z.object({ n: z.number(), ms: z.number() }),
    execute: async ({ n, ms }, { signal }) => {
      stats.running++;
      stats.peak = Math.max(stats.peak, stats.running);
      try {
        await sleep(ms, signal);
      } finally {
        stats.running--;
      }
      stats.finished.push(n);
      return `call ${n} waited ${ms} ms`;
    },
  });
  return { wait, stats };
}

describe.each(SCHEMES)("parallel tool calls over %s", (scheme) => {
  it("runs the three calls of one response at once", async () => {
    const provider = mock();
    provider.enqueue(threeCalls([200, 200, 200]), { blocks: [{ type: "text", text: "All done." }] });
    const { wait, stats } = waitTool();
    const worker = new Worker({ client: clientFor(provider, scheme), tools: [wait] });

    const result = await worker.run("wait three times");

    expect(result.status).toBe("finished");
    // One at a time, no two calls would ever run together: the peak says they overlapped (a
    // count, not a duration, so a loaded machine cannot fail it).
    expect(stats.peak).toBe(3);
    expect(stats.running).toBe(0);
  });

  it("adds the results in call order although they finish in reverse", async () => {
    const provider = mock();
    provider.enqueue(threeCalls([240, 120, 10]), { blocks: [{ type: "text", text: "All done." }] });
    const { wait, stats } = waitTool();
    const worker = new Worker({ client: clientFor(provider, scheme), tools: [wait] });
    const ended: number[] = [];
    worker.on("tool_end", (e) => ended.push((e.call.arguments as { n: number }).n));

    await worker.run("wait three times");

    expect(stats.finished).toEqual([3, 2, 1]);
    expect(ended).toEqual([3, 2, 1]);
    const calls = worker.history.flatMap((i) => (i.type === "tool_call" ? [i] : []));
    const results = worker.history.flatMap((i) => (i.type === "tool_result" ? [i] : []));
    expect(results.map((r) => r.callId)).toEqual(calls.map((c) => c.callId));
    expect(results.map((r) => r.content)).toEqual([
      "call 1 waited 240 ms",
      "call 2 waited 120 ms",
      "call 3 waited 10 ms",
    ]);
    expectEveryCallAnswered(worker.history);
    expect(sentResults(scheme, bodyOf(provider, 1))).toEqual([
      ["call 1 waited 240 ms", false],
      ["call 2 waited 120 ms", false],
      ["call 3 waited 10 ms", false],
    ]);
  });
});

describe("parallel calls of different tools", () => {
  it("keeps call order across tools, each result with its own call id", async () => {
    const provider = mock();
    const slow = tool({
      name: "slow",
      description: "",
      input: z.object({}),
      execute: async () => {
        await sleep(60);
        return "slow result";
      },
    });
    const fast = tool({ name: "fast", description: "", input: z.object({}), execute: () => "fast result" });
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "toolu_a", name: "slow", arguments: {} },
          { type: "tool_call", id: "toolu_b", name: "fast", arguments: {} },
          { type: "tool_call", id: "toolu_c", name: "slow", arguments: {} },
        ],
      },
      { blocks: [{ type: "text", text: "ok" }] },
    );
    const worker = new Worker({ client: clientFor(provider, "anthropic"), tools: [slow, fast] });
    await worker.run("go");
    const results = worker.history.flatMap((i) => (i.type === "tool_result" ? [[i.callId, i.content]] : []));
    expect(results).toEqual([
      ["toolu_a", "slow result"],
      ["toolu_b", "fast result"],
      ["toolu_c", "slow result"],
    ]);
    const messages = bodyOf(provider, 1).messages as Array<{
      role: string;
      content: Array<{ tool_use_id?: string }>;
    }>;
    expect(messages.at(-1)?.content.map((b) => b.tool_use_id)).toEqual(["toolu_a", "toolu_b", "toolu_c"]);
  });
});
