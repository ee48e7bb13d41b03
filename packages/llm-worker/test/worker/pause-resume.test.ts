/**
 * Pausing and resuming, against the mock provider over real HTTP: before-tool `pause`, pre-request
 * `yield`, turn-end `pause`; `resume()` continues past the step that paused without asking it again;
 * a new `run()` instead of `resume()` leaves a valid history.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Hook,
  type Item,
  type SchemeName,
  tool,
  type Worker,
  type WorkerOptions,
} from "../../src/index.js";
import type { ScriptedResponse } from "../../src/testing/index.js";
import { useMockProvider, workerOn } from "./tools-harness.js";

const mock = useMockProvider();

function workerFor(scheme: SchemeName, options: Omit<WorkerOptions, "client"> = {}): Worker {
  return workerOn(mock(), scheme, options);
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

/** A shell tool that records the commands it ran. */
function shell(ran: string[]) {
  return tool({
    name: "shell",
    description: "run a command",
    input: z.object({ cmd: z.string() }),
    execute: ({ cmd }) => {
      ran.push(cmd);
      return `ran ${cmd}`;
    },
  });
}

const commands = (...cmds: string[]): ScriptedResponse => ({
  blocks: cmds.map((cmd) => ({ type: "tool_call" as const, name: "shell", arguments: { cmd } })),
});
const cmdOf = (args: unknown): string => (args as { cmd: string }).cmd;

describe.each(["anthropic", "openai-responses"] as const)("before-tool pause (%s)", (scheme) => {
  it("pauses with the pending calls; resume() does not ask the pausing hook again, later hooks are asked", async () => {
    const ran: string[] = [];
    const asked: string[] = [];
    const approval: Hook = {
      name: "approval",
      beforeToolCall: (s) => {
        asked.push(`approval:${cmdOf(s.arguments)}`);
        return cmdOf(s.arguments).startsWith("deploy")
          ? { action: "pause", reason: "needs approval" }
          : undefined;
      },
    };
    const audit: Hook = {
      name: "audit",
      beforeToolCall: (s) => void asked.push(`audit:${cmdOf(s.arguments)}`),
    };
    const worker = workerFor(scheme, { tools: [shell(ran)], hooks: [approval, audit] });
    mock().enqueue(commands("ls", "deploy prod", "echo done"), answer("Deployed."));

    const paused = await worker.run("ship it");
    expect(paused).toMatchObject({ status: "paused", by: "approval", reason: "needs approval", turns: 1 });
    if (paused.status !== "paused") return;
    expect(paused.pendingToolCalls.map((c) => cmdOf(c.arguments))).toEqual(["deploy prod", "echo done"]);
    expect(worker.isPaused).toBe(true);
    expect(ran).toEqual([]);
    expect(asked).toEqual(["approval:ls", "audit:ls", "approval:deploy prod"]);
    expect(mock().requests).toHaveLength(1);

    asked.length = 0;
    const resumed = await worker.resume();
    expect(resumed).toMatchObject({ status: "finished", text: "Deployed.", turns: 2 });
    expect(worker.isPaused).toBe(false);
    expect(asked).toEqual(["audit:deploy prod", "approval:echo done", "audit:echo done"]);
    expect(ran.sort()).toEqual(["deploy prod", "echo done", "ls"]);
    expect(mock().requests).toHaveLength(2);
    // resume() adds no user message: the second request ends with the tool results.
    expect(worker.history.filter((i) => i.type === "message" && i.role === "user")).toHaveLength(1);
    expect(sent(1)).toContain("ran deploy prod");
    expectConsistent(worker.history);
  });

  it("an interceptor's pause: on resume the hooks after it are asked, and may still skip", async () => {
    const ran: string[] = [];
    const worker = workerFor(scheme, {
      tools: [shell(ran)],
      interceptors: [{ name: "confirm", beforeToolCall: () => ({ action: "pause", reason: "confirm?" }) }],
      hooks: [
        {
          name: "deny-rm",
          beforeToolCall: (s) =>
            cmdOf(s.arguments).startsWith("rm") ? { action: "skip", reason: "never rm" } : undefined,
        },
      ],
    });
    mock().enqueue(commands("rm -rf /"), answer("ok"));
    expect(await worker.run("clean up")).toMatchObject({ status: "paused", by: "confirm" });
    expect(await worker.resume()).toMatchObject({ status: "finished" });
    expect(ran).toEqual([]);
    expect(sent(1)).toContain("never rm");
    expectConsistent(worker.history);
  });

  it("a new run() instead of resume() answers the pending calls first, even when ids repeat", async () => {
    const ran: string[] = [];
    let gate = false;
    const worker = workerFor(scheme, {
      tools: [shell(ran)],
      hooks: [{ name: "gate", beforeToolCall: () => (gate ? { action: "pause" } : undefined) }],
    });
    // The mock numbers tool-call ids per response, so both rounds use the same ids.
    mock().enqueue(commands("ls"), answer("listed"), commands("ls"));
    expect((await worker.run("list")).status).toBe("finished");
    gate = true;
    expect((await worker.run("list again")).status).toBe("paused");

    gate = false;
    mock().enqueue(answer("ok, dropped"));
    const next = await worker.run("never mind");
    expect(next).toMatchObject({ status: "finished", text: "ok, dropped" });
    expect(worker.isPaused).toBe(false);
    expect(ran).toEqual(["ls"]);
    expectConsistent(worker.history);
    expect(sent(3)).toContain("not resumed");
  });

  it("resume() when not paused rejects clearly", async () => {
    const worker = workerFor(scheme);
    await expect(worker.resume()).rejects.toThrow(/not paused/);
  });
});

describe.each(["anthropic", "openai-chat"] as const)(
  "pre-request yield and turn-end pause (%s)",
  (scheme) => {
    it("yield pauses before the request; resume() sends it, asking only the steps after the yielding one", async () => {
      const asked: string[] = [];
      let yielded = false;
      const worker = workerFor(scheme, {
        interceptors: [{ onPreRequest: ({ turn }) => void asked.push(`first:${turn}`) }],
        hooks: [
          {
            name: "rate-limit",
            onPreRequest: (s) => {
              asked.push(`rate-limit:${s.turn}`);
              if (yielded) return undefined;
              yielded = true;
              return { action: "yield", reason: "wait a moment" };
            },
          },
          { onPreRequest: (s) => void asked.push(`last:${s.turn}`) },
        ],
      });
      mock().enqueue(answer("hello"));
      const paused = await worker.run("hi");
      expect(paused).toMatchObject({
        status: "paused",
        by: "rate-limit",
        reason: "wait a moment",
        pendingToolCalls: [],
        turns: 0,
      });
      expect(mock().requests).toHaveLength(0);
      expect(asked).toEqual(["first:1", "rate-limit:1"]);

      const resumed = await worker.resume();
      expect(resumed).toMatchObject({ status: "finished", text: "hello", turns: 1 });
      expect(asked).toEqual(["first:1", "rate-limit:1", "last:1"]);
      expect(mock().requests).toHaveLength(1);
    });

    it("turn-end pause keeps the answer; resume() makes a new request without a user message", async () => {
      let pauses = 1;
      const worker = workerFor(scheme, {
        hooks: [
          {
            name: "review",
            onTurnEnd: () =>
              pauses-- > 0 ? { action: "pause", reason: "human review" } : { action: "finish" },
          },
        ],
      });
      mock().enqueue(answer("draft"), answer("final"));
      const paused = await worker.run("write");
      expect(paused).toMatchObject({ status: "paused", by: "review", reason: "human review", turns: 1 });
      expect(worker.history.map((i) => (i.type === "message" ? i.text : i.type))).toEqual(["write", "draft"]);

      const resumed = await worker.resume();
      expect(resumed).toMatchObject({ status: "finished", text: "final", turns: 2 });
      expect(mock().requests).toHaveLength(2);
      expect(sent(1)).toContain("draft");
      expect(worker.history.map((i) => (i.type === "message" ? i.text : i.type))).toEqual([
        "write",
        "draft",
        "final",
      ]);
    });
  },
);

describe("a restored history that ends in unanswered tool calls", () => {
  it("is a paused run: resume() runs the calls and the model answers", async () => {
    const echo = tool({
      name: "echo",
      description: "echo",
      input: z.object({ x: z.string() }),
      execute: ({ x }) => x,
    });
    const history: Item[] = [
      { type: "message", role: "user", text: "echo twice" },
      { type: "tool_call", callId: "c1", name: "echo", arguments: '{"x":"one"}' },
      { type: "tool_result", callId: "c1", name: "echo", summary: "one", content: "one" },
      { type: "tool_call", callId: "c2", name: "echo", arguments: '{"x":"two"}' },
    ];
    const worker = workerFor("anthropic", { tools: [echo], history });
    expect(worker.isPaused).toBe(true);
    mock().enqueue({ blocks: [{ type: "text", text: "done" }] });
    const result = await worker.resume();
    expect(result.status).toBe("finished");
    expect(worker.history.slice(4, 5)).toMatchObject([{ type: "tool_result", callId: "c2", content: "two" }]);
    expect(workerFor("anthropic", { history: worker.history }).isPaused).toBe(false);
  });

  it("answered by a new run: as interrupted after a crash, as not resumed after a pause", async () => {
    const history: Item[] = [
      { type: "message", role: "user", text: "write it" },
      { type: "tool_call", callId: "c1", name: "write_file", arguments: "{}" },
    ];
    const answerOf = async (restoredRun?: "paused" | "interrupted") => {
      const worker = workerFor("anthropic", { history, ...(restoredRun !== undefined && { restoredRun }) });
      mock().enqueue({ blocks: [{ type: "text", text: "ok" }] });
      expect((await worker.run("something else")).status).toBe("finished");
      return worker.history[2];
    };
    expect(await answerOf("interrupted")).toMatchObject({
      type: "tool_result",
      callId: "c1",
      isError: true,
      content:
        "[cancelled: the run was interrupted (the process crashed or was killed) before this call was answered; write_file did not complete]",
    });
    for (const paused of [await answerOf("paused"), await answerOf()])
      expect(paused).toMatchObject({
        callId: "c1",
        content: expect.stringContaining("paused and not resumed"),
      });
  });
});
