/**
 * A throwing interceptor, hook, Timeline handler or worker listener fails the run cleanly, naming
 * it: a `failed` result of kind `hook`, a history every provider accepts, and a next run that works.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Hook,
  type Interceptor,
  type Item,
  type SchemeName,
  tool,
  type Worker,
  type WorkerOptions,
  type WorkerResult,
} from "../../src/index.js";
import type { ScriptedResponse } from "../../src/testing/index.js";
import { useMockProvider, workerOn } from "./tools-harness.js";

const mock = useMockProvider();

function workerFor(scheme: SchemeName, options: Omit<WorkerOptions, "client"> = {}): Worker {
  return workerOn(mock(), scheme, options);
}

const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });
const twoCalls: ScriptedResponse = {
  blocks: [
    { type: "tool_call", id: "call_fast", name: "fast", arguments: {} },
    { type: "tool_call", id: "call_slow", name: "slow", arguments: {} },
  ],
};

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

function expectHookFailure(result: WorkerResult, hook: string | RegExp, stage: string): void {
  expect(result.status).toBe("failed");
  if (result.status !== "failed") return;
  expect(result.error.kind).toBe("hook");
  if (result.error.kind !== "hook") return;
  if (typeof hook === "string") expect(result.error.hook).toBe(hook);
  else expect(result.error.hook).toMatch(hook);
  expect(result.error.stage).toBe(stage);
  expect(result.error.message).toContain("kaboom");
}

/** A fast tool, and a slow one that honours its signal; records what happened to them. */
function tools(log: string[], slowMs = 5_000) {
  return [
    tool({ name: "fast", description: "fast", input: z.object({}), execute: () => "fast result" }),
    tool({
      name: "slow",
      description: "slow",
      input: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve("slow result"), slowMs);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            log.push("slow aborted");
            resolve("stopped");
          });
        }),
    }),
  ];
}

const STAGES = ["onPromptSubmit", "onPreRequest", "beforeToolCall", "afterToolCall", "onTurnEnd"] as const;

describe.each(["interceptor", "hook"] as const)("a throwing %s", (tier) => {
  it.each(STAGES)(
    "in %s fails the run naming it; the history stays valid; the next run works",
    async (stage) => {
      let armed = true;
      const thrower = {
        name: "boom",
        [stage]: (..._args: unknown[]) => {
          // afterToolCall: throw on the fast tool's result, while the slow one is still running.
          if (!armed) return undefined;
          armed = false;
          throw new Error("kaboom");
        },
      };
      const log: string[] = [];
      const worker = workerFor("anthropic", {
        // Only the after-tool failure must stop a tool still running; elsewhere tools end on their own.
        tools: tools(log, stage === "afterToolCall" ? 5_000 : 10),
        ...(tier === "interceptor"
          ? { interceptors: [thrower as Interceptor] }
          : { hooks: [thrower as Hook] }),
      });
      mock().setHandler((request) => {
        const body = JSON.stringify(request.body);
        if (body.includes("again")) return answer("recovered");
        return body.includes("call_fast") ? answer("done") : twoCalls;
      });
      const started = Date.now();
      const result = await worker.run("go");
      expectHookFailure(result, "boom", stage);
      expect(Date.now() - started).toBeLessThan(2_000);
      expectConsistent(worker.history);

      const toolResults = worker.history.filter((i) => i.type === "tool_result");
      const expected: Record<(typeof STAGES)[number], { requests: number; results: number }> = {
        onPromptSubmit: { requests: 0, results: 0 },
        onPreRequest: { requests: 0, results: 0 },
        beforeToolCall: { requests: 1, results: 2 },
        afterToolCall: { requests: 1, results: 2 },
        onTurnEnd: { requests: 2, results: 2 },
      };
      expect(mock().requests).toHaveLength(expected[stage].requests);
      expect(toolResults).toHaveLength(expected[stage].results);
      if (stage === "onPromptSubmit") expect(worker.history).toEqual([]);
      if (stage === "beforeToolCall") expect(toolResults.every((r) => r.isError)).toBe(true);
      if (stage === "afterToolCall") {
        // The call whose hook threw keeps its real result; the other tool was stopped.
        expect(toolResults.map((r) => r.content)).toEqual([
          "fast result",
          expect.stringContaining("cancelled"),
        ]);
        expect(log).toEqual(["slow aborted"]);
      }

      const next = await worker.run("again");
      expect(next).toMatchObject({ status: "finished", text: "recovered" });
      expectConsistent(worker.history);
    },
  );
});

describe.each(["openai-chat", "gemini"] as const)("a throwing event handler (%s)", (scheme) => {
  it("a Timeline handler fails the run naming it; its block is aborted; the next run works", async () => {
    const worker = workerFor(scheme);
    const seen: string[] = [];
    const off = worker.onTextBlock({
      name: "fragile-renderer",
      createScope: () => ({}),
      onEvent: (_scope, event) => {
        seen.push(event.kind);
        if (event.kind === "text") throw new Error("kaboom");
      },
    });
    mock().enqueue({ blocks: [{ type: "text", text: "a long answer that streams in several pieces" }] });
    const result = await worker.run("hi");
    expectHookFailure(result, /fragile-renderer/, "event dispatch");
    expect(seen[0]).toBe("start");
    expect(seen.at(-1)).toBe("abort");
    expect(seen.filter((k) => k === "text")).toHaveLength(1);

    off();
    mock().enqueue(answer("fine"));
    expect((await worker.run("again")).status).toBe("finished");
  });

  it("a worker listener in the tool stage fails the run; every call still gets a result", async () => {
    const log: string[] = [];
    const worker = workerFor(scheme, { tools: tools(log) });
    const off = worker.onToolEnd((call) => {
      if (call.name === "fast") throw new Error("kaboom");
    });
    mock().enqueue(twoCalls);
    const result = await worker.run("go");
    expectHookFailure(result, "a tool_end listener", "event dispatch");
    expect(log).toEqual(["slow aborted"]);
    expectConsistent(worker.history);
    expect(worker.history.filter((i) => i.type === "tool_result")).toHaveLength(2);

    off();
    mock().enqueue(answer("recovered"));
    expect((await worker.run("again")).status).toBe("finished");
    expectConsistent(worker.history);
  });

  it.each(["run_start", "turn_start", "turn_end", "text_complete", "run_end"] as const)(
    "a %s listener fails the run, naming it",
    async (type) => {
      const worker = workerFor(scheme);
      const off = worker.on(type, () => {
        throw new Error("kaboom");
      });
      mock().enqueue(answer("hello there"));
      const result = await worker.run("hi");
      expectHookFailure(result, `a ${type} listener`, "event dispatch");
      expect(worker.isRunning).toBe(false);

      off();
      mock().enqueue(answer("fine"));
      expect((await worker.run("again")).status).toBe("finished");
    },
  );
});
