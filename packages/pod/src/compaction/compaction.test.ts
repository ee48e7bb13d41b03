/**
 * Compaction through a real Pod and the mock provider over HTTP: automatic compaction when the
 * reported prompt nears the window, the new linked session, the files read again, the run going
 * on; manual compaction; the circuit breaker after repeated failures.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { answer, toolCall } from "../../test/support/pod-test-kit.js";
import { useSessionTestbed } from "../../test/support/session-test-kit.js";
import type { PodEvent } from "../pod/events.js";
import { restoreSession } from "../restore/restore.js";
import { COMPACTION_INSTRUCTION, SUMMARY_HEADING } from "./summary-prompt.js";

const bed = useSessionTestbed();

/** A 10,000-token window with 1,000 kept for the compaction request: compaction starts at 7,200. */
const SMALL_WINDOW = {
  overrides: { model: { context_window: 10_000 } },
  compaction: { reserveTokens: 1000 },
};

const withUsage = (reply: ReturnType<typeof answer>, inputTokens: number) => ({
  ...reply,
  usage: { inputTokens, outputTokens: 10 },
});

const isSummaryRequest = (request: RecordedRequest | undefined): boolean =>
  JSON.stringify(request?.body).includes("about to be replaced by a summary");

const wire = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body);

const alertsOf = (events: readonly PodEvent[], source: string) =>
  events.flatMap((event) => (event.type === "alert" && event.source === source ? [event] : []));

describe("automatic compaction", () => {
  it("summarizes when the reported prompt nears the window, continues in a linked session with the files read again", async () => {
    const { open, put, mock, entries, eventsOf, project } = bed();
    put("a.ts", "export const a = 1;\n");
    mock.enqueue(
      withUsage(toolCall("read_file", { path: "a.ts" }, "toolu_read"), 1000),
      withUsage(answer("a.ts exports a = 1."), 7500),
    );
    const pod = await open(SMALL_WINDOW);
    expect(await pod.run("what is in a.ts?")).toMatchObject({ status: "finished" });
    expect(mock.requests.some(isSummaryRequest)).toBe(false);
    const firstSession = pod.sessionId;
    // Changed since it was read: the new session must see it as it is now.
    writeFileSync(path.join(project, "a.ts"), "export const a = 2;\n");

    mock.enqueue(
      withUsage(answer("## Goal\nDouble a.\n## What remains\nEdit a.ts."), 7600),
      withUsage(answer("Done: a is doubled."), 900),
    );
    const result = await pod.run("now double it");
    expect(result).toMatchObject({ status: "finished", text: "Done: a is doubled." });

    // The summary request: the whole conversation, the instruction last, the Worker's tool choice.
    const summaryRequest = mock.requests[2];
    expect(isSummaryRequest(summaryRequest)).toBe(true);
    expect(summaryRequest?.body).toMatchObject({ max_tokens: 4096 });
    expect(bed().body(2).tool_choice).toEqual(bed().body(1).tool_choice);
    expect(wire(summaryRequest)).toContain("what is in a.ts?");
    expect(wire(summaryRequest)).toContain("now double it");
    const summaryMessages = bed().body(2).messages;
    expect(summaryMessages.at(-1)?.role).toBe("user");
    expect(JSON.stringify(summaryMessages.at(-1)?.content)).toContain(
      JSON.stringify(COMPACTION_INSTRUCTION).slice(1, -1),
    );

    // The run went on from the summary, the request in progress and the file as it is now.
    const next = mock.requests[3];
    const sent = wire(next);
    expect(sent).toContain(JSON.stringify(SUMMARY_HEADING).slice(1, -1));
    expect(sent).toContain("Double a.");
    expect(sent).toContain("<request>\\nnow double it\\n</request>");
    expect(sent).toContain("[File: a.ts]\\nexport const a = 2;");
    expect(sent).not.toContain("what is in a.ts?");
    expect(sent).not.toContain("toolu_read");

    // A new session, linked both ways, restoring to exactly the Pod's history.
    expect(pod.sessionId).not.toBe(firstSession);
    expect(pod.history.slice(0, 2)).toMatchObject([
      { type: "message", role: "user", text: expect.stringContaining("Double a.") },
      { type: "message", role: "system", text: "[File: a.ts]\nexport const a = 2;\n" },
    ]);
    const oldLog = await entries(firstSession);
    expect(oldLog.slice(-2)).toMatchObject([
      { type: "usage", usage: { inputTokens: 7600 } }, // the summary request
      { type: "compaction", sessionId: pod.sessionId, previousSessionId: firstSession },
    ]);
    const newLog = await entries(pod.sessionId);
    expect(newLog[0]).toMatchObject({ type: "session_start", previous: { sessionId: firstSession } });
    expect(newLog[1]).toMatchObject({
      type: "compaction",
      summary: pod.history[0]?.type === "message" && pod.history[0].text,
    });
    expect(restoreSession(newLog).history).toEqual(pod.history);
    expect(restoreSession(oldLog).continuedIn).toBe(pod.sessionId);

    const events = eventsOf(pod);
    expect(events.filter((event) => event.type === "history_changed")).toEqual([
      {
        type: "history_changed",
        reason: "compact",
        auto: true,
        sessionId: pod.sessionId,
        previousSessionId: firstSession,
      },
    ]);
    expect(alertsOf(events, "compaction").map((alert) => alert.level)).toEqual(["info", "info"]);
    const sessions = await pod.listSessions();
    expect(sessions.find((session) => session.id === firstSession)?.next).toBe(pod.sessionId);
    await pod.close();

    // The latest session is the new one; restored, it goes on from the summary.
    const restored = await open({ ...SMALL_WINDOW, session: "latest" });
    expect(restored.sessionId).toBe(pod.sessionId);
    expect(restored.history).toEqual(pod.history);
    await restored.close();
    // Opening the old one by id follows the link: appending there would fork the conversation.
    const followed = await open({ ...SMALL_WINDOW, session: firstSession });
    expect(followed.sessionId).toBe(pod.sessionId);
    await followed.close();
  });
});

describe("manual compaction", () => {
  it("pod.compact() summarizes between runs; the next run sends the summary and the files", async () => {
    const { open, put, mock, eventsOf } = bed();
    const empty = await open();
    await expect(empty.compact()).rejects.toThrow("nothing to compact");
    await empty.close();

    put("notes.md", "# Notes\n");
    mock.enqueue(toolCall("read_file", { path: "notes.md" }), answer("Read them."));
    const pod = await open();
    await pod.run("read the notes");
    const before = pod.sessionId;

    mock.enqueue(answer("## Goal\nKeep notes.\n## What remains\nNothing."));
    const result = await pod.compact();
    expect(result).toMatchObject({
      auto: false,
      previousSessionId: before,
      sessionId: pod.sessionId,
      rereadFiles: ["notes.md"],
      itemsBefore: 4,
      itemsAfter: 2,
    });
    expect(result.summary.startsWith(SUMMARY_HEADING)).toBe(true);
    expect(result.summary).not.toContain("<request>");
    expect(pod.history).toEqual([
      { type: "message", role: "user", text: result.summary },
      { type: "message", role: "system", text: "[File: notes.md]\n# Notes\n" },
    ]);
    expect(eventsOf(pod).filter((event) => event.type === "history_changed")).toMatchObject([
      { reason: "compact", auto: false, sessionId: pod.sessionId },
    ]);

    mock.enqueue(answer("Nothing remains."));
    await pod.run("what remains?");
    const sent = wire(mock.requests.at(-1));
    expect(sent).toContain("Keep notes.");
    expect(sent).toContain("[File: notes.md]");
    expect(sent).toContain("what remains?");
    expect(sent).not.toContain("read the notes");

    // While a run waits for approval there is no consistent history to summarize.
    mock.enqueue(toolCall("write_file", { path: "x.md", content: "x" }));
    await pod.run("write x");
    await expect(pod.compact()).rejects.toThrow("a run is paused");
    await pod.close();
  });
});

describe("the summary request's prefix", () => {
  it("is the last request's: tools with the provider's web search, system prompt, sampling", async () => {
    const { open, mock, body } = bed();
    mock.enqueue(answer("Searched."), answer("## Goal\nSearch."));
    const pod = await open({
      overrides: { web: { provider_search: true }, generation: { temperature: 0.4 } },
    });
    await pod.run("what is new in Node?");
    await pod.compact();
    const [normal, summary] = [body(0), body(1)];
    expect(JSON.stringify(normal.tools)).toContain("web_search");
    // Anthropic caches tools, then the system prompt, then messages: both must be the same bytes.
    expect(JSON.stringify(summary.tools)).toBe(JSON.stringify(normal.tools));
    expect(JSON.stringify(summary.system)).toBe(JSON.stringify(normal.system));
    expect(summary).toMatchObject({ temperature: 0.4 });
    expect(summary.tool_choice).toEqual(normal.tool_choice);
    await pod.close();
  });
});

describe("the circuit breaker", () => {
  it("turns automatic compaction off after 3 failures in a row, says so, and a manual success turns it on again", async () => {
    const { open, mock, eventsOf } = bed();
    let summarizerUp = false;
    const handler = (request: RecordedRequest): MockReply => {
      if (!isSummaryRequest(request)) return withUsage(answer("ok"), 8000);
      if (summarizerUp) return withUsage(answer("## Goal\nKeep going."), 8000);
      return {
        fault: "status",
        status: 500,
        message: "the summarizer is down",
        headers: { "retry-after-ms": "1" },
      };
    };
    mock.setHandler(handler);
    const pod = await open(SMALL_WINDOW);
    const summaryRequests = () => mock.requests.filter(isSummaryRequest).length;

    // The first request has no reported usage yet and a small history: no compaction.
    expect(await pod.run("one")).toMatchObject({ status: "finished" });
    expect(summaryRequests()).toBe(0);
    for (const input of ["two", "three", "four"])
      expect(await pod.run(input)).toMatchObject({ status: "finished", text: "ok" });
    // Each failed attempt was retried by the client (3 requests) before it counted once.
    expect(summaryRequests()).toBe(9);
    const warnings = alertsOf(eventsOf(pod), "compaction").filter((alert) => alert.level === "warn");
    expect(warnings.map((alert) => alert.message)).toEqual([
      expect.stringMatching(/^automatic compaction failed \(1 in a row\): .*the summarizer is down/),
      expect.stringMatching(/^automatic compaction failed \(2 in a row\)/),
      expect.stringMatching(/^automatic compaction failed \(3 in a row\)/),
      expect.stringMatching(/^automatic compaction is off after 3 failures in a row/),
    ]);
    // The history was never replaced: every run went on uncompacted.
    expect(pod.history.filter((item) => item.type === "message" && item.role === "user")).toHaveLength(4);

    expect(await pod.run("five")).toMatchObject({ status: "finished" });
    expect(summaryRequests()).toBe(9);

    // By hand it is tried regardless; its success re-arms the automatic one.
    summarizerUp = true;
    await pod.compact();
    expect(summaryRequests()).toBe(10);
    await pod.run("six"); // measured from the compacted history: under the trigger
    expect(summaryRequests()).toBe(10);
    await pod.run("seven"); // the last request reported 8,000 tokens: over it
    expect(summaryRequests()).toBe(11);
    expect(eventsOf(pod).filter((event) => event.type === "history_changed")).toMatchObject([
      { auto: false },
      { auto: true },
    ]);
    await pod.close();
  });
});
