/**
 * The session log wired into a real Pod (real file tools, the mock provider over HTTP): what is
 * written and in which order, that no key is, and that a new Pod restored from the log alone
 * continues the conversation — after finished, paused and cancelled runs.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Item, type Tool, tool, userMessage } from "@yoake/llm-worker";
import { getScheme } from "@yoake/llm-worker/internal";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Pod } from "../src/pod.js";
import { restoreSession } from "../src/restore/restore.js";
import { itemEntry, type LogEntry } from "../src/session-log/entry.js";
import { FileSessionStore } from "../src/session-log/file-session-store.js";
import { loadSessionKey } from "../src/session-log/session-key.js";
import type { SessionStore } from "../src/session-log/session-store.js";
import { createSession, sessionsDir } from "../src/session-log/sessions.js";
import { answer, toolCall } from "./support/pod-test-kit.js";
import { testConfig } from "./support/session-test-config.js";
import { SECRET_KEY, useSessionTestbed } from "./support/session-test-kit.js";

const bed = useSessionTestbed();

const read = (file: string, id?: string) => toolCall("read_file", { path: file }, id);
const write = (file: string, content: string) => toolCall("write_file", { path: file, content });
const withUsage = <T extends object>(reply: T, inputTokens: number) => ({
  ...reply,
  usage: { inputTokens, outputTokens: 7 },
});

/** The messages the mock's `n`th request carried. */
const sentMessages = (n: number): unknown => bed().body(n).messages;

/** The messages the Anthropic scheme makes of `items`: what a Pod holding them must send. */
function messagesFor(pod: Pod, items: readonly Item[]): unknown {
  const http = getScheme("anthropic").buildHttpRequest(
    { items, system: pod.manifest.instructions.systemPrompt },
    { model: "mock-model", baseURL: bed().mock.baseURLFor("anthropic"), apiKey: "k" },
  );
  return (http.body as { messages: unknown }).messages;
}

const typesOf = (entries: readonly LogEntry[]) =>
  entries.map((entry) => (entry.type === "item" ? `item:${entry.item.type}` : entry.type));

describe("the session log of a Pod", () => {
  it("holds the input, every history item in order, usage, run markers and alerts — and no key", async () => {
    const { open, put, mock, entries, logPath } = bed();
    put("a.ts", "export const a = 1;\n");
    mock.enqueue(withUsage(read("a.ts", "toolu_a"), 120), withUsage(answer("One constant."), 180));
    const pod = await open();
    // A Pod that has not done anything has no file yet: it would become "the latest" session.
    expect(readdirSync(path.join(bed().project)).includes(".yoake")).toBe(false);

    const result = await pod.run("what does @a.ts export? and @missing.ts?");
    expect(result.status).toBe("finished");
    await pod.close();

    const log = await entries(pod.sessionId);
    expect(typesOf(log)).toEqual([
      "session_start",
      "user_input",
      "run_start",
      "alert", // @missing.ts could not be attached
      "item:message", // the user message
      "item:message", // [File: a.ts]
      "item:tool_call",
      "usage",
      "item:tool_result",
      "item:message", // the answer
      "usage",
      "run_end",
    ]);
    // `text` is what the model got: an attached file as the user wrote it (its content follows
    // as an item), only the one that could not be attached as its placeholder.
    expect(log[1]).toMatchObject({
      type: "user_input",
      text: "what does @a.ts export? and [unresolved file ref: missing.ts]?",
      segments: [
        { type: "text", text: "what does " },
        { type: "file_ref", path: "a.ts" },
        { type: "text", text: " export? and " },
        { type: "file_ref", path: "missing.ts" },
        { type: "text", text: "?" },
      ],
    });
    expect(log[3]).toMatchObject({ type: "alert", level: "warn", source: "file_ref" });
    expect(log.filter((entry) => entry.type === "usage").map((entry) => entry.usage)).toEqual([
      expect.objectContaining({ inputTokens: 120, outputTokens: 7 }),
      expect.objectContaining({ inputTokens: 180, outputTokens: 7 }),
    ]);
    const resultEntry = log.find((entry) => entry.type === "item" && entry.item.type === "tool_result");
    expect(resultEntry).toMatchObject({
      item: { callId: "toolu_a", summary: expect.stringContaining("1 lines") },
    });
    expect(restoreSession(log).history).toEqual(pod.history);
    expect(log[0]).toMatchObject({ type: "session_start", sessionId: pod.sessionId });

    const text = readFileSync(logPath(pod.sessionId), "utf8");
    expect(text).toContain("mock-model");
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain("MOCK_KEY");
    expect(readFileSync(path.join(sessionsDir(bed().project), ".gitignore"), "utf8")).toBe("*\n");
  });

  it("logs notes given between runs, and a tool result stored as a blob with its blob id", async () => {
    const { open, mock, entries } = bed();
    const report: Tool = tool({
      name: "report",
      description: "A long report",
      input: z.object({}),
      execute: () => "line of the report\n".repeat(1_000),
    }) as Tool;
    mock.enqueue(toolCall("report", {}), answer("a long report"));
    const pod = await open({ tools: [report] });
    await pod.run("grep it");
    expect(pod.notify("remember: tabs, not spaces")).toBe("added");
    await pod.close();

    const log = await entries(pod.sessionId);
    const stored = log.find((entry) => entry.type === "item" && entry.item.type === "tool_result");
    expect(stored).toMatchObject({ blobIds: [expect.any(String)] });
    expect(stored?.type === "item" && stored.item.type === "tool_result" && stored.item.summary).toMatch(
      /^\[blob:/,
    );
    expect(log.at(-1)).toMatchObject({ type: "item", item: userMessage("remember: tabs, not spaces") });
    expect(restoreSession(log).history).toEqual(pod.history);
  });
});

describe("a Pod restored from its log alone", () => {
  it("has the same history, and its next run sends it", async () => {
    const { open, put, mock } = bed();
    put("a.ts", "export const a = 1;\n");
    put("b.ts", "export const b = 2;\n");
    mock.enqueue(
      read("a.ts", "toolu_1"),
      answer("a is 1."),
      toolCall("glob", { pattern: "*.ts" }, "toolu_2"),
      read("b.ts", "toolu_3"),
      answer("b is 2."),
    );
    const first = await open();
    await first.run("what is a?");
    await first.run("and b?");
    const history = [...first.history];
    await first.close();

    const second = await open({ session: "latest" });
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.history).toEqual(history);
    expect(second.restored).toMatchObject({ sessionId: first.sessionId, lastRun: { state: "finished" } });
    expect(second.status().state).toBe("idle");

    mock.enqueue(answer("a + b = 3."));
    const sentBefore = mock.requests.length;
    expect(await second.run("and a + b?")).toMatchObject({ status: "finished", text: "a + b = 3." });
    expect(sentMessages(sentBefore)).toEqual(messagesFor(second, [...history, userMessage("and a + b?")]));
    await second.close();

    // The same session, by id prefix, goes on in the same log.
    const third = await open({ session: first.sessionId.slice(0, 13) });
    expect(third.history).toEqual(second.history);
    await third.close();
  });

  it("continues a session named by its whole id from that session alone, without listing the others", async () => {
    const { open, mock, env, project } = bed();
    mock.enqueue(answer("hello."));
    const first = await open();
    await first.run("hi");
    await first.close();
    const files = new FileSessionStore(project, { key: await loadSessionKey(env) });
    const listed: string[] = [];
    const store: SessionStore = {
      location: files.location,
      create: (start) => files.create(start),
      open: (id) => files.open(id),
      read: (id, fromSeq) => files.read(id, fromSeq),
      list: () => {
        listed.push("list");
        return files.list();
      },
      link: (previous, summary, config) => files.link(previous, summary, config),
      close: () => files.close(),
    };
    const second = await open({ session: first.sessionId.toUpperCase(), sessionStore: store });
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.history).toEqual(first.history);
    await second.close();
    expect(listed).toEqual([]);
    // A prefix still needs the list.
    const third = await open({ session: first.sessionId.slice(0, 13), sessionStore: store });
    expect(third.sessionId).toBe(first.sessionId);
    await third.close();
    expect(listed).toEqual(["list"]);
  });

  it("continues a run paused for approval: resume asks again, and the answer runs the call", async () => {
    const { open, mock, project } = bed();
    mock.enqueue(write("notes.md", "hello\n"), answer("written"));
    const first = await open();
    const paused = await first.run("write a note");
    expect(paused.permissionRequest?.tool).toBe("write_file");
    await first.close();

    const second = await open({ session: "latest" });
    expect(second.restored?.lastRun).toEqual({
      state: "paused",
      reason: "waiting for the user's approval of write_file",
      by: "pod",
      pendingCallIds: [paused.permissionRequest?.callId],
    });
    expect(second.status().state).toBe("paused");
    expect(second.history).toEqual(first.history);

    const asked = await second.resume();
    expect(asked).toMatchObject({ status: "paused", by: "pod" });
    expect(asked.permissionRequest).toMatchObject({
      tool: "write_file",
      callId: paused.permissionRequest?.callId,
    });
    const done = await second.respond(asked.permissionRequest?.id ?? "", "allow_once");
    expect(done).toMatchObject({ status: "finished", text: "written" });
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("hello\n");
    await second.close();

    const log = await bed().entries(second.sessionId);
    expect(typesOf(log).slice(-8)).toEqual([
      "paused",
      "resumed",
      "paused",
      "resumed",
      "item:tool_result",
      "item:message",
      "usage",
      "run_end",
    ]);
  });

  it("a new run instead of the answer drops the paused call, in the log as in the Pod", async () => {
    const { open, mock } = bed();
    mock.enqueue(write("notes.md", "hello\n"));
    const first = await open();
    await first.run("write a note");
    await first.close();

    mock.enqueue(answer("fine, I will not."));
    const second = await open({ session: "latest" });
    expect(await second.run("no, leave it")).toMatchObject({ status: "finished" });
    const dropped = second.history.find((item) => item.type === "tool_result");
    expect(dropped).toMatchObject({
      isError: true,
      content: expect.stringContaining("paused and not resumed"),
    });
    await second.close();
    expect(restoreSession(await bed().entries(second.sessionId)).history).toEqual(second.history);
  });

  it("after a cancelled run: consistent history, idle, and the next run goes on", async () => {
    const { open, mock } = bed();
    let started: () => void = () => undefined;
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow: Tool = tool({
      name: "slow",
      description: "Takes a long time",
      input: z.object({}),
      execute: (_args, context) =>
        new Promise<string>((_resolve, reject) => {
          started();
          context.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
        }),
    }) as Tool;
    mock.enqueue(toolCall("slow", {}, "toolu_slow"));
    const first = await open({ tools: [slow] });
    const running = first.run("do the slow thing");
    await toolStarted;
    expect(first.cancel()).toBe(true);
    expect(await running).toMatchObject({ status: "cancelled" });
    const history = [...first.history];
    expect(history.at(-1)).toMatchObject({ type: "tool_result", callId: "toolu_slow", isError: true });
    await first.close();

    const second = await open({ session: "latest", tools: [slow] });
    expect(second.restored?.lastRun).toMatchObject({ state: "cancelled" });
    expect(second.status().state).toBe("idle");
    expect(second.history).toEqual(history);
    await expect(second.resume()).rejects.toThrow("no paused run");

    mock.enqueue(answer("Skipping the slow thing."));
    const sentBefore = mock.requests.length;
    expect(await second.run("never mind")).toMatchObject({ status: "finished" });
    expect(JSON.stringify(sentMessages(sentBefore))).toContain("toolu_slow");
    await second.close();
  });

  it("keeps prune's state: a result pruned before the restore is sent without its content after it", async () => {
    const { open, mock, project, env } = bed();
    const result = {
      type: "tool_result" as const,
      callId: "toolu_old",
      name: "read_file",
      summary: "400 lines | export const big = [",
      content: "export const big = [\n".repeat(400),
    };
    const key = await loadSessionKey(env);
    const log = await createSession(project, { config: testConfig(project) }, { key });
    for (const item of [
      userMessage("read big.ts"),
      { type: "tool_call" as const, callId: "toolu_old", name: "read_file", arguments: '{"path":"big.ts"}' },
      result,
      { type: "message" as const, role: "assistant" as const, text: "It is big." },
    ])
      await log.append(itemEntry(item));
    await log.append({ type: "pruned", callIds: ["toolu_old"] });
    await log.append({ type: "run_end", status: "finished" });
    await log.close();

    const pod = await open({ session: log.id });
    expect(pod.history[2]).toEqual(result); // the history keeps the content; prune is a projection
    mock.enqueue(answer("ok"));
    const sentBefore = mock.requests.length;
    await pod.run("and now?");
    const sent = JSON.stringify(sentMessages(sentBefore));
    expect(sent).toContain("400 lines | export const big = [");
    expect(sent).not.toContain("export const big = [\\nexport const big");
    await pod.close();
  });

  it("reports a torn last line as a warning alert in the log, and lists sessions for the CLI", async () => {
    const { open, mock, logPath, env, project } = bed();
    mock.enqueue(answer("hi"));
    const first = await open();
    await first.run("hello");
    await first.close();
    // A crash in the middle of a write leaves part of a line.
    writeFileSync(logPath(first.sessionId), `${readFileSync(logPath(first.sessionId), "utf8")}{"seq":9,"ts`);

    const second = await open({ session: first.sessionId });
    expect(second.restored?.warnings).toEqual([expect.stringContaining("dropped a torn last line")]);
    await second.close();
    const log = await bed().entries(first.sessionId);
    expect(log.at(-1)).toMatchObject({ type: "alert", level: "warn", source: "session" });

    const { Pod } = await import("../src/pod.js");
    const listed = await Pod.listSessions(path.join(project), env);
    expect(listed.map((session) => [session.id, session.firstUserText])).toEqual([
      [first.sessionId, "hello"],
    ]);
    await expect(open({ session: "0000" })).rejects.toThrow('no session "0000"');
  });
});
