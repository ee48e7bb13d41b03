/**
 * The cache lock: `lock()` returns a `CacheLockedWorker`, whose type has no method that changes the
 * system prompt, the tools or the sent history (checked by tsc through `@ts-expect-error`); the
 * Worker's mutators refuse at run time once locked; and over many turns the prefix each request
 * sends is byte-identical to the whole previous request's.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type CacheLockedWorker,
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

const clock = tool({
  name: "clock",
  description: "the time",
  input: z.object({ zone: z.string() }),
  execute: ({ zone }) => `12:00 in ${zone}`,
});
const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });
const callClock = (zone: string): ScriptedResponse => ({
  blocks: [
    { type: "text", text: "Let me check." },
    { type: "tool_call", name: "clock", arguments: { zone } },
  ],
});

describe("CacheLockedWorker type", () => {
  it("has no method that changes the system prompt, the tools or the history", () => {
    const locked: CacheLockedWorker = workerFor("anthropic", { tools: [clock] }).lock();
    // Each call must not compile (tsc checks this file); at run time each one throws too.
    // @ts-expect-error setSystemPrompt is not part of a cache-locked worker
    expect(() => locked.setSystemPrompt("new rules")).toThrow(/cache-locked/);
    // @ts-expect-error addTool is not part of a cache-locked worker
    expect(() => locked.addTool(clock)).toThrow(/cache-locked/);
    // @ts-expect-error removeTool is not part of a cache-locked worker
    expect(() => locked.removeTool("clock")).toThrow(/cache-locked/);
    // @ts-expect-error replaceHistory is not part of a cache-locked worker
    expect(() => locked.replaceHistory([])).toThrow(/cache-locked/);
    // What stays: running, resuming, reading and listening.
    expect(typeof locked.run).toBe("function");
    expect(typeof locked.resume).toBe("function");
    expect(typeof locked.onTextComplete).toBe("function");
    expect(locked.locked).toBe(true);
  });
});

describe("Worker once locked", () => {
  it("refuses every mutator at run time, and changes nothing", async () => {
    const worker = workerFor("anthropic", { system: "Be brief.", tools: [clock] });
    // Before the lock they work.
    worker.setSystemPrompt("Be very brief.");
    worker.removeTool("clock");
    worker.addTool(clock);
    worker.replaceHistory([userMessage("earlier")]);
    worker.lock();
    expect(() => worker.setSystemPrompt("other")).toThrow(
      "setSystemPrompt() is not allowed on a cache-locked worker",
    );
    expect(() => worker.addTool(clock)).toThrow(/addTool/);
    expect(() => worker.removeTool("clock")).toThrow(/removeTool/);
    expect(() => worker.replaceHistory([])).toThrow(/replaceHistory/);

    mock().enqueue(answer("hi"));
    await worker.run("hello");
    const body = mock().requests[0]?.body as {
      system: Array<{ text: string }>;
      tools: unknown[];
      messages: unknown[];
    };
    expect(body.system[0]?.text).toBe("Be very brief.");
    expect(body.tools).toHaveLength(1);
    expect(JSON.stringify(body.messages)).toContain("earlier");
  });
});

/**
 * The provider body split into what must never change (everything but the conversation) and the
 * conversation's messages, each serialized as sent. Anthropic's cache breakpoint marks the newest
 * user message, so it moves by design and is left out of the comparison; it is not part of the
 * cached content.
 */
function parts(scheme: SchemeName, body: unknown): { fixed: string; messages: string[] } {
  const strip = (value: unknown): unknown =>
    scheme !== "anthropic"
      ? value
      : JSON.parse(JSON.stringify(value), (key, v) => (key === "cache_control" ? undefined : v));
  const record = strip(body) as Record<string, unknown>;
  const key = scheme === "openai-responses" ? "input" : scheme === "gemini" ? "contents" : "messages";
  const { [key]: messages, ...fixed } = record;
  return { fixed: JSON.stringify(fixed), messages: (messages as unknown[]).map((m) => JSON.stringify(m)) };
}

describe.each(["openai-chat", "anthropic", "openai-responses", "gemini"] as const)(
  "the sent prefix over turns (%s)",
  (scheme) => {
    it("each request starts with the previous request's messages, byte for byte", async () => {
      const worker = workerFor(scheme, { system: "You tell the time.", tools: [clock] });
      const locked = worker.lock();
      mock().enqueue(callClock("UTC"), answer("It is noon."));
      mock().enqueue(answer("You are welcome."));
      mock().enqueue(callClock("JST"), callClock("CET"), answer("Noon everywhere."));
      expect((await locked.run("What time is it?")).status).toBe("finished");
      expect((await locked.run("Thanks!")).status).toBe("finished");
      expect((await locked.run("And in Tokyo and Berlin?")).status).toBe("finished");
      expect(mock().requests).toHaveLength(6);

      const sent = mock().requests.map((r) => parts(scheme, r.body));
      for (let i = 1; i < sent.length; i++) {
        const previous = sent[i - 1] as (typeof sent)[number];
        const current = sent[i] as (typeof sent)[number];
        expect(current.fixed).toBe(previous.fixed);
        expect(current.messages.length).toBeGreaterThan(previous.messages.length);
        // The serialized conversation so far is a prefix of the next one.
        const before = `[${previous.messages.join(",")}`;
        expect(`[${current.messages.join(",")}`.startsWith(before)).toBe(true);
      }
    });
  },
);
