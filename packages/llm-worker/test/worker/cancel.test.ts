/**
 * Cancellation through an AbortSignal at each stage, against the mock provider over real HTTP:
 * during the stream, during tools, while hooks are asked, between rounds. After each the history is
 * consistent and a real second run works.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type Item, type SchemeName, tool, type Worker, type WorkerOptions } from "../../src/index.js";
import {
  encodeScripted,
  type MockProvider,
  type ScriptedResponse,
  startMockProvider,
} from "../../src/testing/index.js";
import { useMockProvider, workerOn } from "./tools-harness.js";

const mock = useMockProvider();

function workerFor(scheme: SchemeName, options: Omit<WorkerOptions, "client"> = {}, on = mock()): Worker {
  return workerOn(on, scheme, options);
}

const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });
const sent = (n: number): string => JSON.stringify(mock().requests[n]?.body);

/** Every tool call answered by exactly one result before the conversation goes on. */
function expectConsistent(history: readonly Item[]): void {
  let open: string[] = [];
  for (const item of history) {
    if (item.type === "tool_call") open.push(item.callId);
    else if (item.type === "tool_result") {
      expect(open).toContain(item.callId);
      open = open.filter((id) => id !== item.callId);
    } else if (item.type === "message") expect(open).toEqual([]);
  }
  expect(open).toEqual([]);
}

/**
 * The server-side sockets of `mock` that carried a request, seen through Node's `net.server.socket`
 * diagnostics channel: proof at the network level that a request was dropped. (The mock's
 * `openConnections` cannot tell, as the client may open a spare idle connection after an abort.)
 */
function watchRequestSockets(mock: MockProvider): { open(): number; stop(): void } {
  const port = Number(new URL(mock.url).port);
  const sockets: Socket[] = [];
  const onSocket = (message: unknown): void => {
    const { socket } = message as { socket: Socket };
    if (socket.localPort === port) sockets.push(socket);
  };
  subscribe("net.server.socket", onSocket);
  return {
    open: () => sockets.filter((socket) => socket.bytesRead > 0 && !socket.destroyed).length,
    stop: () => unsubscribe("net.server.socket", onSocket),
  };
}

/** A real second run on the same worker: it must be accepted and finish. */
async function expectNextRunWorks(worker: Worker): Promise<void> {
  mock().enqueue(answer("back again"));
  const next = await worker.run("are you there?");
  expect(next).toMatchObject({ status: "finished", text: "back again" });
  expectConsistent(worker.history);
}

describe.each(["anthropic", "openai-responses"] as const)("cancel (%s)", (scheme) => {
  it("during the stream: the HTTP request is aborted, the open block aborted, the result cancelled", async () => {
    const scripted: ScriptedResponse = { blocks: [{ type: "text", text: "word ".repeat(200) }] };
    const half = Math.floor(encodeScripted(scheme, scripted).length / 2);
    mock().enqueue({ fault: "stall", response: scripted, afterBytes: half });
    const worker = workerFor(scheme);
    const controller = new AbortController();
    const kinds: string[] = [];
    worker.onTextBlock({ createScope: () => ({}), onEvent: (_scope, event) => kinds.push(event.kind) });
    const sockets = watchRequestSockets(mock());
    let openAtAbort = 0;
    worker.on("text_delta", () => {
      openAtAbort = sockets.open();
      controller.abort();
    });

    const result = await worker.run("talk to me", { signal: controller.signal }).finally(sockets.stop);
    expect(result).toMatchObject({ status: "cancelled", by: "signal", turns: 1 });
    expect(kinds[0]).toBe("start");
    expect(kinds.at(-1)).toBe("abort");
    expect(kinds).not.toContain("stop");
    // The stalled response would hold its connection open forever: only an abort closes it.
    expect(openAtAbort).toBe(1);
    await vi.waitFor(() => expect(sockets.open()).toBe(0));
    // The text that arrived is kept, nothing half-made.
    expect(worker.history.map((i) => i.type)).toEqual(["message", "message"]);
    await expectNextRunWorks(worker);
  });

  it("during a slow stream: the run ends at once instead of after the whole body", async () => {
    const slow = await startMockProvider({ writeSize: 16, writeDelayMs: 10 });
    try {
      slow.enqueue({ blocks: [{ type: "text", text: "slowly ".repeat(400) }] });
      const worker = workerFor(scheme, {}, slow);
      const controller = new AbortController();
      const sockets = watchRequestSockets(slow);
      let openAtAbort = 0;
      let abortedAt = 0;
      // Abort once text is flowing (not after a fixed delay: a loaded machine may not have sent the request yet).
      worker.on("text_delta", () => {
        if (abortedAt !== 0) return;
        openAtAbort = sockets.open();
        abortedAt = Date.now();
        controller.abort();
      });
      const result = await worker.run("go", { signal: controller.signal }).finally(sockets.stop);
      expect(result).toMatchObject({ status: "cancelled", by: "signal" });
      // The whole body takes over 1.7 s to send; the run must end well before that.
      expect(Date.now() - abortedAt).toBeLessThan(1_000);
      expect(openAtAbort).toBe(1);
      await vi.waitFor(() => expect(sockets.open()).toBe(0));
    } finally {
      await slow.close();
    }
  });

  it("during tools: ctx.signal fires, a tool that ignores it is not waited for, every call gets a result", async () => {
    const seen: string[] = [];
    const polite = tool({
      name: "polite",
      description: "stops when asked",
      input: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            seen.push("polite saw abort");
            resolve("stopped early");
          });
        }),
    });
    const stubborn = tool({
      name: "stubborn",
      description: "ignores the signal",
      input: z.object({}),
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("finally"), 5_000)),
    });
    const worker = workerFor(scheme, { tools: [polite, stubborn] });
    const controller = new AbortController();
    let started = 0;
    worker.onToolStart(() => {
      if (++started === 2) setTimeout(() => controller.abort(), 20);
    });
    mock().enqueue({
      blocks: [
        { type: "tool_call", name: "polite", arguments: {} },
        { type: "tool_call", name: "stubborn", arguments: {} },
      ],
    });

    const t0 = Date.now();
    const result = await worker.run("work", { signal: controller.signal });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(result).toMatchObject({ status: "cancelled", by: "signal" });
    expect(seen).toEqual(["polite saw abort"]);
    expect(mock().requests).toHaveLength(1);
    const results = worker.history.filter((i) => i.type === "tool_result");
    expect(results).toHaveLength(2);
    for (const r of results)
      expect(r).toMatchObject({ isError: true, content: expect.stringContaining("cancelled") });
    expectConsistent(worker.history);

    await expectNextRunWorks(worker);
    expect(sent(1)).toContain("cancelled");
  });

  it("while before-tool hooks are asked: the calls never run, each gets a cancelled marker", async () => {
    const ran: string[] = [];
    const echo = tool({
      name: "echo",
      description: "echo",
      input: z.object({ n: z.number() }),
      execute: ({ n }) => {
        ran.push(String(n));
        return String(n);
      },
    });
    const controller = new AbortController();
    let asked = 0;
    const worker = workerFor(scheme, {
      tools: [echo],
      hooks: [
        {
          beforeToolCall: async () => {
            asked++;
            await new Promise((resolve) => setTimeout(resolve, 10));
            controller.abort();
            return undefined;
          },
        },
      ],
    });
    mock().enqueue({
      blocks: [1, 2, 3].map((n) => ({ type: "tool_call" as const, name: "echo", arguments: { n } })),
    });
    const result = await worker.run("count", { signal: controller.signal });
    expect(result).toMatchObject({ status: "cancelled", by: "signal" });
    expect(ran).toEqual([]);
    expect(asked).toBe(1);
    const results = worker.history.filter((i) => i.type === "tool_result");
    expect(results.map((r) => r.content)).toEqual([1, 2, 3].map(() => expect.stringContaining("cancelled")));
    expectConsistent(worker.history);
    await expectNextRunWorks(worker);
  });

  it("between rounds: the tool results are kept and no next request is sent", async () => {
    const weather = tool({
      name: "get_weather",
      description: "weather",
      input: z.object({ city: z.string() }),
      execute: ({ city }) => `sunny in ${city}`,
    });
    const worker = workerFor(scheme, { tools: [weather] });
    const controller = new AbortController();
    worker.onToolEnd(() => controller.abort());
    mock().enqueue({ blocks: [{ type: "tool_call", name: "get_weather", arguments: { city: "Kyoto" } }] });
    const result = await worker.run("weather?", { signal: controller.signal });
    expect(result).toMatchObject({ status: "cancelled", by: "signal", turns: 1 });
    expect(mock().requests).toHaveLength(1);
    expect(worker.history.filter((i) => i.type === "tool_result").map((r) => r.content)).toEqual([
      "sunny in Kyoto",
    ]);
    expectConsistent(worker.history);
    await expectNextRunWorks(worker);
    expect(sent(1)).toContain("sunny in Kyoto");
  });

  it("between a turn-end continuation and its request: nothing more is sent", async () => {
    const controller = new AbortController();
    const worker = workerFor(scheme, {
      hooks: [
        {
          onTurnEnd: () => {
            controller.abort();
            return {
              action: "continue",
              items: [{ type: "message", role: "user", text: "Check your answer." }],
            };
          },
        },
      ],
    });
    mock().enqueue(answer("42"));
    const result = await worker.run("question", { signal: controller.signal });
    expect(result).toMatchObject({ status: "cancelled", by: "signal", turns: 1 });
    expect(mock().requests).toHaveLength(1);
    expectConsistent(worker.history);
  });

  it("an already aborted signal sends nothing", async () => {
    const worker = workerFor(scheme);
    const result = await worker.run("hi", { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ status: "cancelled", by: "signal", turns: 0 });
    expect(mock().requests).toHaveLength(0);
    await expectNextRunWorks(worker);
  });
});
