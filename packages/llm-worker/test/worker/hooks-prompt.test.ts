/**
 * Prompt-submit and pre-request interceptors and hooks, against the mock provider over real HTTP:
 * every action, interceptors first, read-only summaries for hooks.
 */
import { describe, expect, it } from "vitest";
import {
  type Hook,
  type Interceptor,
  type Item,
  type SchemeName,
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
const sent = (n: number): string => JSON.stringify(mock().requests[n]?.body);
const shape = (items: readonly Item[]): string[] =>
  items.map((i) => (i.type === "message" ? `${i.role}:${i.text}` : i.type));

describe.each(["anthropic", "openai-chat"] as const)("prompt submit (%s)", (scheme) => {
  it("asks interceptors first, then hooks; continue sends the input", async () => {
    const asked: string[] = [];
    const interceptor: Interceptor = {
      name: "audit",
      onPromptSubmit: ({ items }) => {
        asked.push(`interceptor:${items.length}`);
        return { action: "continue" };
      },
    };
    const hook: Hook = {
      name: "policy",
      onPromptSubmit: (summary) => {
        asked.push(`hook:${summary.text}`);
        return undefined;
      },
    };
    mock().enqueue(answer("Hello."));
    const worker = workerFor(scheme, { interceptors: [interceptor], hooks: [hook] });
    const result = await worker.run("hi");
    expect(result.status).toBe("finished");
    expect(asked).toEqual(["interceptor:1", "hook:hi"]);
    expect(shape(worker.history)).toEqual(["user:hi", "assistant:Hello."]);
  });

  it("cancel by an interceptor ends the run before any request, hooks not asked, history untouched", async () => {
    let hookAsked = false;
    const worker = workerFor(scheme, {
      interceptors: [{ name: "gate", onPromptSubmit: () => ({ action: "cancel", reason: "quiet hours" }) }],
      hooks: [
        {
          onPromptSubmit: () => {
            hookAsked = true;
            return undefined;
          },
        },
      ],
    });
    const result = await worker.run("hi");
    expect(result).toMatchObject({ status: "cancelled", by: "gate", reason: "quiet hours", turns: 0 });
    expect(hookAsked).toBe(false);
    expect(mock().requests).toHaveLength(0);
    expect(worker.history).toEqual([]);
  });

  it("cancel by a hook ends the run before any request", async () => {
    const worker = workerFor(scheme, {
      hooks: [
        {
          name: "no-secrets",
          onPromptSubmit: (s) => (s.text.includes("password") ? { action: "cancel" } : undefined),
        },
      ],
    });
    const result = await worker.run("my password is hunter2");
    expect(result).toMatchObject({ status: "cancelled", by: "no-secrets", reason: "cancelled" });
    expect(mock().requests).toHaveLength(0);
    expect(worker.history).toEqual([]);

    mock().enqueue(answer("ok"));
    expect((await worker.run("fine")).status).toBe("finished");
    expect(shape(worker.history)).toEqual(["user:fine", "assistant:ok"]);
  });

  it("continue_with adds items right after the user message, and later steps are still asked", async () => {
    let hookSaw = "";
    const worker = workerFor(scheme, {
      interceptors: [
        { onPromptSubmit: () => ({ action: "continue_with", items: [userMessage("[context: cwd=/repo]")] }) },
        {
          onPromptSubmit: () => ({ action: "continue_with", items: [userMessage("[context: branch=main]")] }),
        },
      ],
      hooks: [
        {
          onPromptSubmit: (s) => {
            hookSaw = s.text;
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(answer("Done."));
    const result = await worker.run("build it");
    expect(result.status).toBe("finished");
    expect(hookSaw).toBe("build it");
    expect(shape(worker.history)).toEqual([
      "user:build it",
      "user:[context: cwd=/repo]",
      "user:[context: branch=main]",
      "assistant:Done.",
    ]);
    const body = sent(0);
    const at = ["build it", "[context: cwd=/repo]", "[context: branch=main]"].map((t) => body.indexOf(t));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("an interceptor editing items in place changes what is stored, sent and shown to hooks", async () => {
    let hookSaw = "";
    const worker = workerFor(scheme, {
      interceptors: [
        {
          onPromptSubmit: ({ items }) => {
            items[0] = userMessage("translate: bonjour");
            items.push(userMessage("(answer in English)"));
            return undefined;
          },
        },
      ],
      hooks: [
        {
          onPromptSubmit: (s) => {
            hookSaw = s.text;
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(answer("hello"));
    await worker.run("bonjour");
    expect(hookSaw).toBe("translate: bonjour\n(answer in English)");
    expect(shape(worker.history)).toEqual([
      "user:translate: bonjour",
      "user:(answer in English)",
      "assistant:hello",
    ]);
    expect(sent(0)).toContain("translate: bonjour");
    expect(sent(0)).not.toContain('"bonjour"');
  });

  it("a hook gets a frozen summary and may not add items", async () => {
    let mutation: unknown;
    const worker = workerFor(scheme, {
      hooks: [
        {
          onPromptSubmit: (summary) => {
            try {
              (summary as { text: string }).text = "something else";
            } catch (err) {
              mutation = err;
            }
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(answer("ok"));
    await worker.run("hi");
    expect(mutation).toBeInstanceOf(TypeError);
    expect(shape(worker.history)).toEqual(["user:hi", "assistant:ok"]);

    // An untyped (plain JS) hook returning an interceptor-only action fails the run, adds nothing.
    const sneaky = workerFor(scheme, {
      hooks: [{ name: "plugin", onPromptSubmit: () => ({ action: "continue_with", items: [] }) as never }],
    });
    const result = await sneaky.run("hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "hook", hook: "plugin" } });
    expect(sneaky.history).toEqual([]);
  });
});

describe.each(["anthropic", "openai-chat"] as const)("pre-request (%s)", (scheme) => {
  it("continue: interceptors get the request, hooks a frozen summary, on every request", async () => {
    const seen: string[] = [];
    const tools = [
      {
        name: "echo",
        description: "echo",
        inputSchema: { type: "object" as const },
        parseArguments: (raw: unknown) => ({ ok: true as const, value: raw }),
        execute: () => "echoed",
      },
    ];
    const worker = workerFor(scheme, {
      system: "Be brief.",
      tools,
      interceptors: [
        {
          onPreRequest: ({ request, turn, usage }) => {
            seen.push(
              `i${turn}:${request.system}:${request.items.length}:${request.tools?.length}:${usage.inputTokens}`,
            );
            return { action: "continue" };
          },
        },
      ],
      hooks: [
        {
          onPreRequest: (summary) => {
            expect(Object.isFrozen(summary)).toBe(true);
            seen.push(`h${summary.turn}:${summary.itemCount}:${summary.inputTokensSoFar}`);
            return undefined;
          },
        },
      ],
    });
    mock().enqueue(
      {
        blocks: [{ type: "tool_call", name: "echo", arguments: {} }],
        usage: { inputTokens: 10, outputTokens: 2 },
      },
      { blocks: [{ type: "text", text: "done" }], usage: { inputTokens: 20, outputTokens: 2 } },
    );
    const result = await worker.run("go");
    expect(result.status).toBe("finished");
    expect(seen).toEqual(["i1:Be brief.:1:1:undefined", "h1:1:0", "i2:Be brief.:3:1:10", "h2:3:10"]);
    expect(mock().requests).toHaveLength(2);
  });

  it("cancel sends nothing and keeps the input in history; the next run works", async () => {
    let block = true;
    const worker = workerFor(scheme, {
      hooks: [
        {
          name: "budget",
          onPreRequest: () => (block ? { action: "cancel", reason: "over budget" } : undefined),
        },
      ],
    });
    const result = await worker.run("hi");
    expect(result).toMatchObject({ status: "cancelled", by: "budget", reason: "over budget", turns: 0 });
    expect(mock().requests).toHaveLength(0);
    expect(shape(worker.history)).toEqual(["user:hi"]);

    block = false;
    mock().enqueue(answer("hello"));
    expect((await worker.run("again")).status).toBe("finished");
    expect(mock().requests).toHaveLength(1);
  });

  it("an interceptor's projection changes what is sent and what later steps see, never the stored history", async () => {
    const seenByNext: number[] = [];
    const worker = workerFor(scheme, {
      interceptors: [
        {
          name: "projection",
          onPreRequest: ({ request }) => ({
            action: "project",
            items: request.items.filter((i) => !(i.type === "message" && i.text.startsWith("OLD"))),
          }),
        },
        { name: "next", onPreRequest: ({ request }) => void seenByNext.push(request.items.length) },
      ],
      hooks: [{ onPreRequest: (s) => void expect(s.itemCount).toBe(1) }],
      history: [userMessage("OLD question"), { type: "message", role: "assistant", text: "OLD answer" }],
    });
    mock().enqueue(answer("new answer"));
    expect((await worker.run("new question")).status).toBe("finished");
    expect(sent(0)).toContain("new question");
    expect(sent(0)).not.toContain("OLD");
    expect(seenByNext).toEqual([1]);
    expect(shape(worker.history)).toEqual([
      "user:OLD question",
      "assistant:OLD answer",
      "user:new question",
      "assistant:new answer",
    ]);
  });
});
