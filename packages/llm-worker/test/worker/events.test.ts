/**
 * The Worker event API against the mock provider over real HTTP: `on*` registrations (typed
 * Timeline handlers with per-block scopes, accumulated and lifecycle events) and their unsubscribe
 * functions, `subscribe(subscriber)`, `events()` for `for await`, `stream(input)`, and one run at a time.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type SchemeName,
  tool,
  type Worker,
  type WorkerEvent,
  type WorkerOptions,
  type WorkerSubscriber,
} from "../../src/index.js";
import type { ScriptedResponse } from "../../src/testing/index.js";
import type { TextBlockEvent, ToolUseBlockEvent } from "../../src/timeline/event.js";
import { useMockProvider, workerOn } from "./tools-harness.js";

const mock = useMockProvider();

function workerFor(scheme: SchemeName, options: Omit<WorkerOptions, "client"> = {}): Worker {
  return workerOn(mock(), scheme, options);
}

const clock = tool({
  name: "clock",
  description: "the time",
  input: z.object({ zone: z.string() }),
  execute: ({ zone }) => `12:00 in ${zone}`,
});

/** One tool round then an answer: two text blocks (one per response) and one tool call. */
function enqueueToolRound(): void {
  mock().enqueue(
    {
      blocks: [
        { type: "text", text: "Checking the clock." },
        { type: "tool_call", name: "clock", arguments: { zone: "UTC" } },
      ],
      usage: { inputTokens: 10, outputTokens: 5 },
    },
    { blocks: [{ type: "text", text: "It is noon in UTC." }], usage: { inputTokens: 30, outputTokens: 7 } },
  );
}
const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });

describe.each(["anthropic", "gemini"] as const)("event API (%s)", (scheme) => {
  it("on* registrations deliver, per-block scopes are fresh, and each unsubscribe works", async () => {
    const worker = workerFor(scheme, { tools: [clock] });
    const log: Record<string, unknown[]> = {};
    const push = (key: string, value: unknown): void => {
      log[key] ??= [];
      log[key].push(value);
    };

    let scopes = 0;
    const offs = [
      worker.onTextBlock<{ id: number; text: string }>({
        name: "text-renderer",
        createScope: () => ({ id: ++scopes, text: "" }),
        onEvent: (scope, event: TextBlockEvent) => {
          if (event.kind === "text") scope.text += event.text;
          if (event.kind === "stop") push("textBlock", `${scope.id}:${scope.text}`);
        },
      }),
      worker.onToolUseBlock<{ json: string }>({
        createScope: () => ({ json: "" }),
        onEvent: (scope, event: ToolUseBlockEvent) => {
          if (event.kind === "input_json") scope.json += event.json;
          if (event.kind === "stop") push("toolUseBlock", `${event.name}:${JSON.parse(scope.json).zone}`);
        },
      }),
      worker.onUsage((event) => push("usage", event.outputTokens)),
      worker.onStatus((event) => push("status", event.status)),
      worker.onTextComplete((text) => push("textComplete", text)),
      worker.onToolCallComplete((call) =>
        push("toolCallComplete", `${call.name}:${JSON.stringify(call.arguments)}`),
      ),
      worker.onTurnStart((turn) => push("turnStart", turn)),
      worker.onTurnEnd((turn) => push("turnEnd", turn)),
      worker.onToolStart((call) => push("toolStart", call.name)),
      worker.onToolEnd((call, result) => push("toolEnd", `${call.name}:${result.content}`)),
    ];

    enqueueToolRound();
    expect((await worker.run("time?")).status).toBe("finished");
    expect(log.textBlock).toEqual(["1:Checking the clock.", "2:It is noon in UTC."]);
    expect(log.toolUseBlock).toEqual(["clock:UTC"]);
    expect(log.usage?.at(-1)).toBe(7);
    expect(log.status?.filter((s) => s === "completed")).toHaveLength(2);
    expect(log.textComplete).toEqual(["Checking the clock.", "It is noon in UTC."]);
    expect(log.toolCallComplete).toEqual(['clock:{"zone":"UTC"}']);
    expect(log.turnStart).toEqual([1, 2]);
    expect(log.turnEnd).toEqual([1, 2]);
    expect(log.toolStart).toEqual(["clock"]);
    expect(log.toolEnd).toEqual(["clock:12:00 in UTC"]);

    const before = JSON.stringify(log);
    for (const off of offs) off();
    enqueueToolRound();
    expect((await worker.run("again?")).status).toBe("finished");
    expect(JSON.stringify(log)).toBe(before);
  });

  it("subscribe(subscriber) gets a scope per block, and its unsubscribe removes every method", async () => {
    const worker = workerFor(scheme, { tools: [clock] });
    const seen: string[] = [];
    let made = 0;
    const subscriber: WorkerSubscriber<{ n: number; text: string }, { n: number; json: string }> = {
      createTextBlockScope: () => ({ n: ++made, text: "" }),
      onTextBlock: (scope, event) => {
        if (event.kind === "text") scope.text += event.text;
        if (event.kind === "stop") seen.push(`text#${scope.n}:${scope.text}`);
      },
      createToolUseBlockScope: () => ({ n: ++made, json: "" }),
      onToolUseBlock: (scope, event) => {
        if (event.kind === "input_json") scope.json += event.json;
        if (event.kind === "stop")
          seen.push(`tool#${scope.n}:${event.name}:${scope.json.replace(/\s/g, "")}`);
      },
      onTextComplete: (text) => seen.push(`complete:${text}`),
      onToolCallComplete: (call) => seen.push(`call:${call.name}`),
      onTurnStart: (turn) => seen.push(`turn${turn}`),
      onTurnEnd: (turn) => seen.push(`/turn${turn}`),
      onToolStart: (call) => seen.push(`run:${call.name}`),
      onToolEnd: (call, result) => seen.push(`ran:${call.name}:${result.content}`),
    };
    const off = worker.subscribe(subscriber);
    enqueueToolRound();
    await worker.run("time?");
    expect(seen).toEqual([
      "turn1",
      "text#1:Checking the clock.",
      "complete:Checking the clock.",
      'tool#2:clock:{"zone":"UTC"}',
      "call:clock",
      "/turn1",
      "run:clock",
      "ran:clock:12:00 in UTC",
      "turn2",
      "text#3:It is noon in UTC.",
      "complete:It is noon in UTC.",
      "/turn2",
    ]);

    off();
    seen.length = 0;
    mock().enqueue(answer("bye"));
    await worker.run("bye");
    expect(seen).toEqual([]);
  });

  it("events() is a for-await stream of the worker's events; breaking out unsubscribes", async () => {
    const worker = workerFor(scheme, { tools: [clock] });
    const iterator = worker.events();
    const types: string[] = [];
    const consumed = (async () => {
      for await (const event of iterator) {
        types.push(event.type);
        if (event.type === "run_end") break;
      }
    })();
    enqueueToolRound();
    await worker.run("time?");
    await consumed;
    expect(types[0]).toBe("run_start");
    expect(types.at(-1)).toBe("run_end");
    for (const type of [
      "turn_start",
      "text_delta",
      "text_complete",
      "tool_call_start",
      "tool_call_complete",
      "usage",
      "turn_end",
      "tool_start",
      "tool_end",
    ]) {
      expect(types).toContain(type);
    }
    expect(types.indexOf("tool_end")).toBeLessThan(types.lastIndexOf("turn_start"));

    // Unsubscribed: a later run queues nothing for it, and it stays finished.
    mock().enqueue(answer("later"));
    await worker.run("later");
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it("stream(input) yields the run's events, ending with run_end carrying the result", async () => {
    const worker = workerFor(scheme, { tools: [clock] });
    enqueueToolRound();
    const events: WorkerEvent[] = [];
    for await (const event of worker.stream("time?")) events.push(event);
    expect(events[0]).toEqual({ type: "run_start", input: "time?" });
    const last = events.at(-1);
    expect(last?.type).toBe("run_end");
    if (last?.type !== "run_end") return;
    expect(last.result).toMatchObject({ status: "finished", text: "It is noon in UTC.", turns: 2 });
    const text = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");
    expect(text).toBe("Checking the clock.It is noon in UTC.");
    expect(worker.isRunning).toBe(false);
  });
});

describe("one run at a time", () => {
  it("run(), resume() and stream() while running reject clearly; the running run is unharmed", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = tool({
      name: "slow",
      description: "waits for the test",
      input: z.object({}),
      execute: async () => {
        await gate;
        return "done";
      },
    });
    const worker = workerFor("openai-chat", { tools: [slow] });
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    worker.onToolStart(() => started());
    mock().enqueue({ blocks: [{ type: "tool_call", name: "slow", arguments: {} }] }, answer("finished"));

    const first = worker.run("go");
    await toolStarted;
    expect(worker.isRunning).toBe(true);
    await expect(worker.run("interrupt")).rejects.toThrow("a run is already in progress on this worker");
    await expect(worker.resume()).rejects.toThrow(/not paused/);
    const streaming = (async () => {
      for await (const _event of worker.stream("interrupt too")) {
        // nothing: the stream must fail before yielding
      }
    })();
    await expect(streaming).rejects.toThrow(/already in progress/);

    release();
    expect(await first).toMatchObject({ status: "finished", text: "finished" });
    const userTexts = worker.history.flatMap((i) =>
      i.type === "message" && i.role === "user" ? [i.text] : [],
    );
    expect(userTexts).toEqual(["go"]);
    expect(mock().requests).toHaveLength(2);
  });
});
