/**
 * Sub-agents through real Pods, the mock provider over HTTP and real session logs. The mock tells
 * parent from children by what each request carries (a child's first message is its task).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { answer, toolCall } from "../../test/support/pod-test-kit.js";
import { useSessionTestbed } from "../../test/support/session-test-kit.js";

const bed = useSessionTestbed();

interface Body {
  messages: Array<{
    role: string;
    content: Array<{ type: string; text?: string; content?: string; is_error?: boolean }>;
  }>;
  tools?: Array<{ name: string }>;
}
const bodyOf = (request: RecordedRequest) => request.body as Body;
const firstText = (request: RecordedRequest) => bodyOf(request).messages[0]?.content[0]?.text ?? "";
const results = (request: RecordedRequest) =>
  bodyOf(request).messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result"));
const isChild = (request: RecordedRequest) => firstText(request).startsWith("CHILD");
const task = (prompt: string, extra: Record<string, unknown> = {}, id?: string) =>
  toolCall("task", { description: prompt.slice(6, 30), prompt, ...extra }, id);

describe("the task tool", () => {
  it("runs a read-only child with its own linked log, and returns its answer with the child's id and last hash", async () => {
    const { open, mock, entries } = bed();
    mock.setHandler((request): MockReply => {
      if (isChild(request)) {
        // The child tries to write first: it has no write tool; then it answers.
        return results(request).length === 0
          ? toolCall("write_file", { path: "x.txt", content: "no" }, "toolu_child_write")
          : answer("There are 3 callers.");
      }
      return results(request).length === 0 ? task("CHILD count the callers of load()") : answer("3 callers.");
    });
    const pod = await open();
    const activity: unknown[] = [];
    pod.listen((event) => {
      if (event.type === "subagent") activity.push(event);
    });
    expect(await pod.run("how many callers?")).toMatchObject({ status: "finished", text: "3 callers." });
    // The parent's listeners follow the child's tool calls under the parent's call id.
    const callId = (activity[0] as { callId: string }).callId;
    expect(activity).toEqual([
      {
        type: "subagent",
        callId,
        description: "count the callers of loa",
        state: "started",
        sessionId: expect.any(String),
      },
      {
        type: "subagent",
        callId,
        description: "count the callers of loa",
        state: "tool",
        tool: "write_file x.txt",
        toolCallId: "toolu_child_write",
      },
      {
        type: "subagent",
        callId,
        description: "count the callers of loa",
        state: "tool_end",
        toolCallId: "toolu_child_write",
        isError: true,
      },
      {
        type: "subagent",
        callId,
        description: "count the callers of loa",
        state: "ended",
        status: "finished",
      },
    ]);

    const childRequests = mock.requests.filter(isChild);
    const childTools = (bodyOf(childRequests[0] as RecordedRequest).tools ?? []).map((t) => t.name);
    expect(childTools).toContain("read_file");
    expect(childTools).not.toContain("write_file");
    expect(childTools).not.toContain("edit_file");
    // Depth 1: a child cannot delegate again.
    expect(childTools).not.toContain("task");
    expect(results(childRequests[1] as RecordedRequest)[0]).toMatchObject({ is_error: true });

    const parentLast = mock.requests.at(-1) as RecordedRequest;
    const taskResult = results(parentLast)[0]?.content ?? "";
    const link =
      /^There are 3 callers\.\n\n\[sub-agent session ([0-9a-f-]+), last hash ([0-9a-f]{64})\]$/.exec(
        taskResult,
      );
    expect(link).not.toBeNull();
    const [, childId, hash] = link as RegExpExecArray;
    expect(childId).not.toBe(pod.sessionId);
    const childLog = await entries(childId as string);
    expect(childLog.at(-1)?.mac).toBe(hash);
    expect(childLog.some((e) => e.type === "user_input" && e.text.startsWith("CHILD count"))).toBe(true);
    await pod.close();
  });

  it("runs several children in parallel within the caps, and refuses past the session's allowance", async () => {
    const { open, mock } = bed();
    let running = 0;
    let most = 0;
    mock.setHandler(async (request): Promise<MockReply> => {
      if (isChild(request)) {
        running += 1;
        most = Math.max(most, running);
        // Hold each child's request until another could have started: a cap of 2 keeps it at 2.
        await new Promise((resolve) => setTimeout(resolve, 50));
        running -= 1;
        return answer(`done: ${firstText(request)}`);
      }
      if (results(request).length > 0) return answer("all done");
      return {
        blocks: ["A", "B", "C", "D"].map((name) => ({
          type: "tool_call" as const,
          id: `toolu_${name}`,
          name: "task",
          arguments: { description: name, prompt: `CHILD part ${name}` },
        })),
      };
    });
    const pod = await open({ taskLimits: { maxRunning: 2, maxPerSession: 3, maxDepth: 1, maxTurns: 5 } });
    await pod.run("split it");
    const final = results(mock.requests.at(-1) as RecordedRequest);
    expect(final.map((r) => r.is_error === true)).toEqual([false, false, false, true]);
    expect(final[0]?.content).toContain("done: CHILD part A");
    expect(final[3]?.content).toContain("already started 3 sub-agents");
    expect(most).toBeLessThanOrEqual(2);
    expect(mock.requests.filter(isChild)).toHaveLength(3);
    await pod.close();
  });

  it("a call refused before its child starts does not count against the session's allowance", async () => {
    const { open, mock } = bed();
    // Two writing children are refused (writes need approval here), then a read-only one starts.
    const calls = [
      task("CHILD fix one", { write: true }, "toolu_1"),
      task("CHILD fix two", { write: true }, "toolu_2"),
      task("CHILD read it", {}, "toolu_3"),
    ];
    mock.setHandler((request): MockReply => {
      if (isChild(request)) return answer("done");
      return calls[results(request).length] ?? answer("ok");
    });
    const pod = await open({ taskLimits: { maxRunning: 1, maxPerSession: 1, maxDepth: 1, maxTurns: 5 } });
    await pod.run("fix it");
    const last = results(mock.requests.at(-1) as RecordedRequest);
    expect(last.map((result) => result.is_error === true)).toEqual([true, true, false]);
    expect(last[2]?.content).toMatch(/^done/);
    expect(mock.requests.filter(isChild)).toHaveLength(1);
    await pod.close();
  });

  it("refuses writes the parent could only make with the user's approval", async () => {
    const { open, mock } = bed();
    mock.enqueue(task("CHILD fix it", { write: true }), answer("ok"));
    const pod = await open();
    await pod.run("fix it");
    const result = results(mock.requests.at(-1) as RecordedRequest)[0];
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain(
      "a sub-agent cannot write here: write_file and edit_file need the user's approval",
    );
    expect(mock.requests.filter(isChild)).toHaveLength(0);
    await pod.close();
  });

  it("lets a child write where the parent may, when the parent needs no approval for it", async () => {
    const { open, mock, project } = bed();
    mock.setHandler((request): MockReply => {
      if (isChild(request))
        return results(request).length === 0
          ? toolCall("write_file", { path: "notes.txt", content: "from the child\n" }, "toolu_w")
          : answer("wrote notes.txt");
      return results(request).length === 0 ? task("CHILD write the notes", { write: true }) : answer("ok");
    });
    const pod = await open({ overrides: { tools: { approve: [] } } });
    await pod.run("write notes");
    expect(readFileSync(path.join(project, "notes.txt"), "utf8")).toBe("from the child\n");
    expect(results(mock.requests.at(-1) as RecordedRequest)[0]?.content).toMatch(/^wrote notes\.txt/);
    await pod.close();
  });

  it("cancels the children with the parent's run", async () => {
    const { open, mock, entries } = bed();
    mock.setHandler(
      (request): MockReply => (isChild(request) ? { fault: "stall" } : task("CHILD wait forever")),
    );
    const pod = await open();
    const running = pod.run("go");
    await expect.poll(() => mock.requests.filter(isChild).length, { timeout: 30_000 }).toBe(1);
    pod.cancel();
    expect(await running).toMatchObject({ status: "cancelled" });
    const sessions = await pod.listSessions();
    const child = sessions.find((s) => s.id !== pod.sessionId);
    expect(child).toBeDefined();
    const childLog = await entries(child?.id as string);
    expect(childLog.some((e) => e.type === "cancelled")).toBe(true);
    await pod.close();
  });
});
