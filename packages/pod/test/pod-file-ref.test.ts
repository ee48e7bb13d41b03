/**
 * Seed 004's completion conditions, one by one, through a real Pod talking to the mock provider
 * over HTTP, on a real project directory.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Hook, type Interceptor, type Item, Worker } from "@yoake/llm-worker";
import type { InterceptorPromptAction, PromptAction } from "@yoake/llm-worker/internal";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { PodEvent } from "../src/pod/events.js";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

const alertsOf = (events: readonly PodEvent[]) => events.filter((e) => e.type === "alert");
const outline = (items: readonly Item[]): string[] =>
  items.map((item) => (item.type === "message" ? `${item.role}:${item.text}` : item.type));

describe("@<path> file references (seed 004)", () => {
  it("leave two kinds of items in history: the user message, then one system message per file in order", async () => {
    const { put, createPod, mock, sent } = bed();
    put("src/a.ts", "export const a = 1;\n");
    put("docs/guide.md", "# Guide\n");
    mock.enqueue(answer("They match."));
    const pod = await createPod();

    const result = await pod.run("compare @src/a.ts with @docs/guide.md");

    expect(result.status).toBe("finished");
    expect(outline(pod.history)).toEqual([
      // Attached: the reference stays as written; the model is not told the file is unresolved.
      "user:compare @src/a.ts with @docs/guide.md",
      "system:[File: src/a.ts]\nexport const a = 1;\n",
      "system:[File: docs/guide.md]\n# Guide\n",
      "assistant:They match.",
    ]);
    expect(sent(0)).toContain("[File: src/a.ts]\\nexport const a = 1;\\n");
    expect(alertsOf(bed().events(pod))).toEqual([]);
  });

  it("keep the files in history for later turns, and attach a file named twice once", async () => {
    const { put, createPod, mock, sent } = bed();
    put("a.txt", "alpha\n");
    mock.enqueue(answer("ok"), answer("still ok"));
    const pod = await createPod();
    await pod.run("read @a.txt and @a.txt");
    await pod.run("and now?");
    expect(outline(pod.history).filter((line) => line.startsWith("system:"))).toEqual([
      "system:[File: a.txt]\nalpha\n",
    ]);
    expect(sent(1)).toContain("[File: a.txt]\\nalpha\\n");
  });

  it("take typed segments as they are: text is never parsed for references", async () => {
    const { put, createPod, mock } = bed();
    put("a.txt", "alpha\n");
    mock.enqueue(answer("ok"));
    const pod = await createPod();
    await pod.run([
      { type: "text", text: "mail me@x.org about @a.txt " },
      { type: "file_ref", path: "a.txt" },
    ]);
    expect(outline(pod.history).slice(0, 2)).toEqual([
      "user:mail me@x.org about @a.txt @a.txt",
      "system:[File: a.txt]\nalpha\n",
    ]);
  });

  it("cut a file over 16 KB, with the notice visible to the model", async () => {
    const { put, createPod, mock, sent } = bed();
    put("big.log", "y".repeat(40_000));
    mock.enqueue(answer("long file"));
    const pod = await createPod();
    await pod.run("summarize @big.log");
    const system = pod.history[1];
    expect(system).toMatchObject({ type: "message", role: "system" });
    const text = system?.type === "message" ? system.text : "";
    expect(text).toBe(
      `[File: big.log]\n${"y".repeat(16_384)}\n[...truncated, 40000 bytes total — use read_file for the rest]`,
    );
    expect(sent(0)).toContain("[...truncated, 40000 bytes total — use read_file for the rest]");
    expect(sent(0)).not.toContain("y".repeat(16_385));
  });

  it("follow the manifest's limits.tool_output_bytes", async () => {
    const { put, createPod, mock } = bed();
    put("mid.txt", "z".repeat(100));
    mock.enqueue(answer("ok"));
    const pod = await createPod({ limits: { tool_output_bytes: 10 } });
    await pod.run("@mid.txt");
    expect(pod.history[1]).toMatchObject({
      text: `[File: mid.txt]\n${"z".repeat(10)}\n[...truncated, 100 bytes total — use read_file for the rest]`,
    });
  });

  it("give a Warn alert and only the placeholder for out-of-scope, missing and binary files", async () => {
    const { put, createPod, mock, sent, base } = bed();
    writeFileSync(path.join(base, "secret.txt"), "TOP SECRET\n");
    put("logo.png", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xfe]));
    mock.enqueue(answer("I see placeholders"));
    const pod = await createPod();

    const result = await pod.run("look at @../secret.txt @missing.md @logo.png");

    expect(result.status).toBe("finished");
    expect(outline(pod.history)).toEqual([
      "user:look at [unresolved file ref: ../secret.txt] [unresolved file ref: missing.md] [unresolved file ref: logo.png]",
      "assistant:I see placeholders",
    ]);
    const alerts = alertsOf(bed().events(pod));
    expect(alerts.map((a) => [a.level, a.source])).toEqual([
      ["warn", "file_ref"],
      ["warn", "file_ref"],
      ["warn", "file_ref"],
    ]);
    expect(alerts[0]?.message).toMatch(
      /^could not attach @\.\.\/secret\.txt: read refused: .* outside the scope/,
    );
    expect(alerts[1]?.message).toBe("could not attach @missing.md: no such file or directory");
    expect(alerts[2]?.message).toBe("could not attach @logo.png: it is a binary file (not UTF-8 text)");
    expect(sent(0)).toContain("[unresolved file ref: ../secret.txt]");
    expect(sent(0)).not.toContain("TOP SECRET");
  });

  it("raise the alerts before the run starts, in one ordered stream with the Worker's events", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(answer("hi"));
    const pod = await createPod();
    await pod.run("@nope.txt hello");
    const types = bed()
      .events(pod)
      .map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(["alert", "run_start"]);
    expect(types).toContain("text_delta");
    expect(types.at(-1)).toBe("run_end");
  });

  it("list a referenced directory rather than failing", async () => {
    const { put, createPod, mock } = bed();
    put("src/a.ts", "");
    put("src/lib/b.ts", "");
    mock.enqueue(answer("ok"));
    const pod = await createPod();
    await pod.run("what is in @src?");
    expect(pod.history[1]).toMatchObject({ role: "system", text: "[Directory: src]\na.ts\nlib/" });
  });

  it("count as a read when whole: the model may edit an attached file without read_file", async () => {
    const { put, createPod, mock, project } = bed();
    put("small.txt", "old\n");
    put("large.txt", `old\n${"-".repeat(20_000)}`);
    const edit = (file: string) =>
      toolCall("edit_file", { path: file, old_string: "old", new_string: "new" });
    mock.enqueue(edit("small.txt"), edit("large.txt"), answer("edited"));
    const pod = await createPod({ tools: { approve: [] } });
    await pod.run("edit @small.txt and @large.txt");
    const results = pod.history.filter((item) => item.type === "tool_result");
    expect(results.map((r) => r.type === "tool_result" && r.isError === true)).toEqual([false, true]);
    expect(readFileSync(path.join(project, "small.txt"), "utf8")).toBe("new\n");
    // Only a prefix of the large file was shown: it must be read before it is changed.
    expect(results[1]?.type === "tool_result" && results[1].content).toContain("has not been read");
  });

  it("never reach the next submit when a run fails before its own", async () => {
    const { put, createPod, mock } = bed();
    put("a.txt", "alpha\n");
    mock.enqueue(answer("second"));
    const pod = await createPod();
    const off = pod.on("run_start", () => {
      throw new Error("listener bug");
    });
    await expect(pod.run("@a.txt")).resolves.toMatchObject({ status: "failed" });
    off();
    await pod.run("plain");
    expect(outline(pod.history)).toEqual(["user:plain", "assistant:second"]);
  });
});

describe("the Hook / Interceptor split (seed 004)", () => {
  it("keeps the Hook's prompt action continue / cancel; only an Interceptor has continue_with", async () => {
    type HookPrompt = Awaited<ReturnType<NonNullable<Hook["onPromptSubmit"]>>>;
    type InterceptorPrompt = Awaited<ReturnType<NonNullable<Interceptor["onPromptSubmit"]>>>;
    expectTypeOf<HookPrompt>().toEqualTypeOf<PromptAction | undefined>();
    expectTypeOf<InterceptorPrompt>().toEqualTypeOf<PromptAction | InterceptorPromptAction | undefined>();

    // At run time too: a hook that returns continue_with anyway fails the run, adding nothing.
    const { mock } = bed();
    mock.enqueue(answer("never sent"));
    const { createClient } = await import("@yoake/llm-worker");
    const client = createClient({
      scheme: "anthropic",
      model: "m",
      apiKey: "k",
      baseURL: mock.baseURLFor("anthropic"),
    });
    const sneaky = {
      name: "sneaky",
      onPromptSubmit: () => ({ action: "continue_with", items: [] }),
    } as unknown as Hook;
    const worker = new Worker({ client, hooks: [sneaky] });
    const result = await worker.run("hi");
    expect(result).toMatchObject({ status: "failed", error: { kind: "hook", hook: "sneaky" } });
    expect(worker.history).toEqual([]);
  });
});
