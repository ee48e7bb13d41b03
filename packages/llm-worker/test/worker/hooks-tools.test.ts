/**
 * Before-tool and after-tool interceptors and hooks, against the mock provider over real HTTP:
 * every action, interceptors first, argument rewriting validated afterwards, frozen summaries.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Item,
  type SchemeName,
  type ToolResultItem,
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

/** A weather tool that records the cities it was really run with. */
function weatherTool(ran: string[]) {
  return tool({
    name: "get_weather",
    description: "weather of a city",
    input: z.object({ city: z.string() }),
    execute: ({ city }) => {
      ran.push(city);
      return `sunny in ${city}`;
    },
  });
}

const calls = (...cities: string[]): ScriptedResponse => ({
  blocks: cities.map((city, i) => ({
    type: "tool_call" as const,
    id: `call_${city}_${i}`,
    name: "get_weather",
    arguments: { city },
  })),
});
const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });
const sent = (n: number): string => JSON.stringify(mock().requests[n]?.body);
const results = (history: readonly Item[]): ToolResultItem[] =>
  history.filter((i): i is ToolResultItem => i.type === "tool_result");

/** Every tool call is answered by exactly one result before the conversation goes on. */
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

describe.each(["anthropic", "openai-chat"] as const)("before tool (%s)", (scheme) => {
  it("continue: each call asks interceptors first, then hooks with a frozen summary", async () => {
    const ran: string[] = [];
    const asked: string[] = [];
    const worker = workerFor(scheme, {
      tools: [weatherTool(ran)],
      interceptors: [
        {
          beforeToolCall: (call) => {
            asked.push(`interceptor:${call.name}:${(call.arguments as { city: string }).city}`);
            return { action: "continue" };
          },
        },
      ],
      hooks: [
        {
          beforeToolCall: (summary) => {
            expect(Object.isFrozen(summary)).toBe(true);
            expect(Object.isFrozen(summary.arguments)).toBe(true);
            asked.push(`hook:${summary.callId}:${(summary.arguments as { city: string }).city}`);
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(calls("Kyoto", "Oslo"), answer("Both sunny."));
    const result = await worker.run("weather?");
    expect(result.status).toBe("finished");
    expect(asked).toEqual([
      "interceptor:get_weather:Kyoto",
      "hook:call_Kyoto_0:Kyoto",
      "interceptor:get_weather:Oslo",
      "hook:call_Oslo_1:Oslo",
    ]);
    expect(ran.sort()).toEqual(["Kyoto", "Oslo"]);
  });

  it("skip answers the call without running it; the model reads the reason; other calls run", async () => {
    const ran: string[] = [];
    const worker = workerFor(scheme, {
      tools: [weatherTool(ran)],
      hooks: [
        {
          name: "geo-fence",
          beforeToolCall: (s) =>
            (s.arguments as { city: string }).city === "Pyongyang"
              ? { action: "skip", reason: "that city is off limits" }
              : undefined,
        },
      ],
    });
    mock().enqueue(calls("Pyongyang", "Seoul"), answer("Only Seoul."));
    const result = await worker.run("weather?");
    expect(result.status).toBe("finished");
    expect(ran).toEqual(["Seoul"]);
    const [skipped, done] = results(worker.history);
    expect(skipped).toMatchObject({ callId: "call_Pyongyang_0", isError: true });
    expect(skipped?.content).toContain("geo-fence");
    expect(skipped?.content).toContain("that city is off limits");
    expect(done?.content).toBe("sunny in Seoul");
    expect(sent(1)).toContain("that city is off limits");
    expectConsistent(worker.history);
  });

  it("abort ends the run cancelled before any tool runs; every call has a result; the next run works", async () => {
    const ran: string[] = [];
    const worker = workerFor(scheme, {
      tools: [weatherTool(ran)],
      hooks: [
        {
          name: "kill-switch",
          beforeToolCall: (s) =>
            (s.arguments as { city: string }).city === "Atlantis"
              ? { action: "abort", reason: "no such city" }
              : undefined,
        },
      ],
    });
    mock().enqueue(calls("Lima", "Atlantis", "Quito"));
    const result = await worker.run("weather?");
    expect(result).toMatchObject({
      status: "cancelled",
      by: "kill-switch",
      reason: "no such city",
      turns: 1,
    });
    expect(ran).toEqual([]);
    expect(mock().requests).toHaveLength(1);
    expect(results(worker.history).map((r) => r.callId)).toEqual([
      "call_Lima_0",
      "call_Atlantis_1",
      "call_Quito_2",
    ]);
    expectConsistent(worker.history);

    mock().enqueue(answer("Sorry."));
    expect((await worker.run("never mind")).status).toBe("finished");
    expect(sent(1)).toContain("no such city");
    expectConsistent(worker.history);
  });

  it("an interceptor may rewrite the arguments: hooks and the tool see the new ones, validated", async () => {
    const ran: string[] = [];
    let hookSaw: unknown;
    const worker = workerFor(scheme, {
      tools: [weatherTool(ran)],
      interceptors: [
        {
          beforeToolCall: (call) => {
            const city = (call.arguments as { city: string }).city;
            call.arguments = city === "Bad" ? { city: 42 } : { city: city.toUpperCase() };
            return undefined;
          },
        },
      ],
      hooks: [
        {
          beforeToolCall: (s) => {
            hookSaw ??= s.arguments;
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(calls("Kyoto", "Bad"), answer("ok"));
    const result = await worker.run("weather?");
    expect(result.status).toBe("finished");
    expect(hookSaw).toEqual({ city: "KYOTO" });
    expect(ran).toEqual(["KYOTO"]);
    const [good, bad] = results(worker.history);
    expect(good?.content).toBe("sunny in KYOTO");
    expect(bad).toMatchObject({ isError: true });
    expect(bad?.content).toContain("city");
  });

  it("a hook cannot mutate the arguments it is shown", async () => {
    const ran: string[] = [];
    const attempts: unknown[] = [];
    const worker = workerFor(scheme, {
      tools: [weatherTool(ran)],
      hooks: [
        {
          beforeToolCall: (s) => {
            try {
              (s.arguments as { city: string }).city = "Hacked";
            } catch (err) {
              attempts.push(err);
            }
            try {
              (s as { name: string }).name = "rm_rf";
            } catch (err) {
              attempts.push(err);
            }
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(calls("Kyoto"), answer("ok"));
    expect((await worker.run("weather?")).status).toBe("finished");
    expect(attempts).toHaveLength(2);
    for (const err of attempts) expect(err).toBeInstanceOf(TypeError);
    expect(ran).toEqual(["Kyoto"]);
  });
});

describe.each(["anthropic", "openai-chat"] as const)("after tool (%s)", (scheme) => {
  it("continue: interceptors see the result and call, hooks a frozen summary", async () => {
    const asked: string[] = [];
    const worker = workerFor(scheme, {
      tools: [weatherTool([])],
      interceptors: [
        {
          afterToolCall: (result, call) => {
            asked.push(`interceptor:${call.id}:${result.content}`);
            return { action: "continue" };
          },
        },
      ],
      hooks: [
        {
          afterToolCall: (s) => {
            expect(Object.isFrozen(s)).toBe(true);
            asked.push(`hook:${s.callId}:${s.name}:${s.isError}:${s.summary.includes("sunny in Kyoto")}`);
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(calls("Kyoto"), answer("ok"));
    expect((await worker.run("weather?")).status).toBe("finished");
    expect(asked).toEqual([
      "interceptor:call_Kyoto_0:sunny in Kyoto",
      "hook:call_Kyoto_0:get_weather:false:true",
    ]);
  });

  it("abort ends the run cancelled after the tools ran; their results stay in history", async () => {
    const ran: string[] = [];
    const worker = workerFor(scheme, {
      tools: [weatherTool(ran)],
      hooks: [
        {
          name: "tripwire",
          afterToolCall: (s) =>
            s.summary.includes("Oslo") ? { action: "abort", reason: "saw Oslo" } : undefined,
        },
      ],
    });
    mock().enqueue(calls("Kyoto", "Oslo"));
    const result = await worker.run("weather?");
    expect(result).toMatchObject({ status: "cancelled", by: "tripwire", reason: "saw Oslo" });
    expect(ran.sort()).toEqual(["Kyoto", "Oslo"]);
    expect(mock().requests).toHaveLength(1);
    expect(results(worker.history).map((r) => r.content)).toEqual(["sunny in Kyoto", "sunny in Oslo"]);
    expectConsistent(worker.history);

    mock().enqueue(answer("ok"));
    expect((await worker.run("go on")).status).toBe("finished");
  });

  it("an interceptor may rewrite the result in place: history and the model see the new text", async () => {
    const worker = workerFor(scheme, {
      tools: [weatherTool([])],
      interceptors: [
        {
          afterToolCall: (result) => {
            result.content = "[redacted forecast]";
            result.summary = "[redacted forecast]";
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(calls("Kyoto"), answer("ok"));
    await worker.run("weather?");
    expect(results(worker.history)[0]?.content).toBe("[redacted forecast]");
    expect(sent(1)).toContain("[redacted forecast]");
    expect(sent(1)).not.toContain("sunny in Kyoto");
  });

  it("hide replaces what the model sees with a notice naming the interceptor", async () => {
    const worker = workerFor(scheme, {
      tools: [weatherTool([])],
      interceptors: [
        { name: "dlp", afterToolCall: () => ({ action: "hide", reason: "contains a location" }) },
      ],
    });
    mock().enqueue(calls("Kyoto"), answer("ok"));
    expect((await worker.run("weather?")).status).toBe("finished");
    const [hidden] = results(worker.history);
    expect(hidden?.content).toContain("hidden by dlp: contains a location");
    expect(hidden?.summary).toBe(hidden?.content);
    expect(sent(1)).toContain("hidden by dlp");
    expect(sent(1)).not.toContain("sunny in Kyoto");
  });
});
