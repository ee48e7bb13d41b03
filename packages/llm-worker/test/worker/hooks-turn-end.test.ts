/**
 * Turn-end interceptors and hooks (finish, continue with messages) and the `maxTurns` cap, against
 * the mock provider over real HTTP. Pausing at turn end is in pause-resume.test.ts.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Item,
  type SchemeName,
  tool,
  userMessage,
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
const shape = (items: readonly Item[]): string[] =>
  items.map((i) => (i.type === "message" ? `${i.role}:${i.text}` : i.type));

/** User and assistant alternate, every tool call is answered: a history any provider accepts. */
function expectValid(history: readonly Item[]): void {
  let open = 0;
  for (const item of history) {
    if (item.type === "tool_call") open++;
    else if (item.type === "tool_result") open--;
    else if (item.type === "message") expect(open).toBe(0);
  }
  expect(open).toBe(0);
}

describe.each(["anthropic", "gemini"] as const)("turn end (%s)", (scheme) => {
  it("finish ends the run; every interceptor and hook is still asked, interceptors first", async () => {
    const asked: string[] = [];
    const worker = workerFor(scheme, {
      interceptors: [
        {
          onTurnEnd: ({ items, text, turn }) => {
            asked.push(`interceptor:${turn}:${text}:${items.length}`);
            return { action: "finish" };
          },
        },
      ],
      hooks: [
        {
          onTurnEnd: (summary) => {
            expect(Object.isFrozen(summary)).toBe(true);
            asked.push(`hook:${summary.turn}:${summary.text}`);
            return { action: "finish" };
          },
        },
      ],
    });
    mock().enqueue(answer("All done."));
    const result = await worker.run("do it");
    expect(result).toMatchObject({ status: "finished", text: "All done.", turns: 1 });
    expect(asked).toEqual(["interceptor:1:All done.:2", "hook:1:All done."]);
  });

  it("continue with messages makes a self-correction loop until the answer passes", async () => {
    const worker = workerFor(scheme, {
      hooks: [
        {
          name: "json-check",
          onTurnEnd: ({ text }) => {
            try {
              JSON.parse(text);
              return { action: "finish" };
            } catch {
              return {
                action: "continue",
                items: [userMessage("That was not JSON. Answer with JSON only.")],
              };
            }
          },
        },
      ],
    });
    mock().enqueue(answer("Sure! {a: 1}"), answer("```{a:1}```"), answer('{"a":1}'));
    const result = await worker.run("give me JSON");
    expect(result).toMatchObject({ status: "finished", text: '{"a":1}', turns: 3 });
    expect(mock().requests).toHaveLength(3);
    expect(JSON.stringify(mock().requests[1]?.body)).toContain("That was not JSON");
    expect(shape(worker.history)).toEqual([
      "user:give me JSON",
      "assistant:Sure! {a: 1}",
      "user:That was not JSON. Answer with JSON only.",
      "assistant:```{a:1}```",
      "user:That was not JSON. Answer with JSON only.",
      'assistant:{"a":1}',
    ]);
  });
});

describe.each(["anthropic", "openai-responses"] as const)("maxTurns (%s)", (scheme) => {
  it("turn-end continuations count: the cap ends the run failed (max_turns), not a loop; the next run works", async () => {
    let nag = true;
    const worker = workerFor(scheme, {
      maxTurns: 3,
      hooks: [
        {
          onTurnEnd: () => (nag ? { action: "continue", items: [userMessage("Try again.")] } : undefined),
        },
      ],
    });
    mock().setHandler(() => answer("attempt"));
    const result = await worker.run("go");
    expect(result.status).toBe("failed");
    if (result.status !== "failed") return;
    expect(result.error).toMatchObject({ kind: "max_turns", maxTurns: 3 });
    expect(result.error.message).toContain("maxTurns");
    expect(result.turns).toBe(3);
    expect(mock().requests).toHaveLength(3);
    expectValid(worker.history);

    nag = false;
    const next = await worker.run("one more time");
    expect(next).toMatchObject({ status: "finished", turns: 1 });
    expect(mock().requests).toHaveLength(4);
    expectValid(worker.history);
  });

  it("tool rounds count too: a model that never stops calling tools is cut off with every call answered", async () => {
    const loop = tool({
      name: "again",
      description: "call me again",
      input: z.object({}),
      execute: () => "call again",
    });
    const worker = workerFor(scheme, { maxTurns: 2, tools: [loop] });
    mock().setHandler(() => ({ blocks: [{ type: "tool_call", name: "again", arguments: {} }] }));
    const result = await worker.run("go");
    expect(result).toMatchObject({ status: "failed", error: { kind: "max_turns" }, turns: 2 });
    expect(mock().requests).toHaveLength(2);
    expectValid(worker.history);

    mock().setHandler(() => answer("stopped"));
    expect((await worker.run("stop")).status).toBe("finished");
  });
});
