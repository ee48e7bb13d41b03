/**
 * The plan through a real Pod, the mock provider over HTTP and real session logs: `todo_write`
 * logs the plan and tells listeners, the model gets it with each new prompt, a done step stays
 * done, a compaction carries the plan (and its goal) into the new session, and a continued
 * session restores it.
 */
import { userMessage } from "@yoake/llm-worker";
import { describe, expect, it } from "vitest";
import { answer, toolCall } from "../../test/support/pod-test-kit.js";
import { useSessionTestbed } from "../../test/support/session-test-kit.js";
import { type Plan, PlanBook } from "./plan.js";
import { planInterceptor } from "./plan-interceptor.js";

const bed = useSessionTestbed();

const PLAN = {
  goal: "Rename the config loader",
  items: [
    { content: "find every caller", status: "done" },
    { content: "rename loadConfig to readConfig", status: "in_progress" },
    { content: "run the tests", status: "pending" },
  ],
};

const wire = (body: unknown): string => JSON.stringify(body);

describe("todo_write", () => {
  it("logs the plan, emits it, and shows the open plan to the model after each new prompt", async () => {
    const { open, mock, entries, eventsOf, body } = bed();
    mock.enqueue(toolCall("todo_write", PLAN, "toolu_plan"), answer("Planned."));
    const pod = await open();
    expect(await pod.run("rename loadConfig")).toMatchObject({ status: "finished" });

    // The model read the plan back as its tool result.
    expect(wire(body(1))).toContain("[x] find every caller");
    expect(wire(body(1))).toContain("[~] rename loadConfig to readConfig");
    expect(pod.plan).toEqual(PLAN);
    expect(eventsOf(pod).filter((e) => e.type === "plan_changed")).toEqual([
      { type: "plan_changed", plan: PLAN },
    ]);
    const logged = (await entries(pod.sessionId)).filter((e) => e.type === "plan");
    expect(logged.map((e) => (e as { plan: Plan }).plan)).toEqual([PLAN]);

    // The next prompt is followed by the plan, as a note that stays in history (the cached prefix).
    mock.enqueue(answer("Still on it."));
    await pod.run("how far are you?");
    const sent = body(2).messages;
    const last = sent.at(-1) as { role: string; content: Array<{ text?: string }> };
    expect(last.role).toBe("user");
    expect(last.content.map((b) => b.text)).toEqual([
      "how far are you?",
      expect.stringContaining("Goal: Rename the config loader\n[x] find every caller"),
    ]);
    await pod.close();
  });

  it("keeps a done step done and the goal when the model leaves it out", async () => {
    const { open, mock } = bed();
    mock.enqueue(
      toolCall("todo_write", PLAN, "toolu_1"),
      toolCall(
        "todo_write",
        {
          items: [
            { content: "find every caller", status: "pending" },
            { content: "run the tests", status: "in_progress" },
          ],
        },
        "toolu_2",
      ),
      answer("ok"),
    );
    const pod = await open();
    await pod.run("go");
    expect(pod.plan).toEqual({
      goal: PLAN.goal,
      items: [
        { content: "find every caller", status: "done" },
        { content: "run the tests", status: "in_progress" },
      ],
    });
    expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain(
      'kept as done, since they were finished already: \\"find every caller\\"',
    );
    await pod.close();
  });

  it("rejects a step without text, telling the model which field", async () => {
    const { open, mock } = bed();
    mock.enqueue(
      toolCall("todo_write", { items: [{ content: " ", status: "pending" }] }, "toolu_bad"),
      answer("ok"),
    );
    const pod = await open();
    await pod.run("go");
    expect(pod.plan).toBeUndefined();
    expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain("an item needs its text");
    await pod.close();
  });
});

describe("planInterceptor", () => {
  it("adds the open plan after a prompt, and nothing to a run continued without one", async () => {
    const book = new PlanBook();
    book.write(PLAN as Plan);
    const interceptor = planInterceptor(book);
    expect(await interceptor.onPromptSubmit?.({ items: [] })).toBeUndefined();
    const added = await interceptor.onPromptSubmit?.({ items: [userMessage("go on")] });
    expect(JSON.stringify(added)).toContain("[~] rename loadConfig to readConfig");
  });
});

describe("the plan across a compaction and a restore", () => {
  it("goes whole into the new session, is sent after the summary, and comes back with --continue", async () => {
    const { open, mock, entries, body } = bed();
    mock.enqueue(toolCall("todo_write", PLAN, "toolu_plan"), answer("Planned."));
    const pod = await open();
    await pod.run("rename loadConfig");
    const first = pod.sessionId;

    mock.enqueue(answer("## Goal\nRename.\n## What remains\nThe tests."));
    const result = await pod.compact();
    expect(result.sessionId).not.toBe(first);
    // The new session holds the plan as an entry (for restore) and as history (for the model).
    const next = await entries(result.sessionId);
    expect(next.filter((e) => e.type === "plan").map((e) => (e as { plan: Plan }).plan)).toEqual([PLAN]);
    expect(pod.history.map((item) => (item.type === "message" ? item.role : item.type))).toEqual([
      "user",
      "system",
    ]);

    mock.enqueue(answer("Running the tests."));
    await pod.run("go on");
    const sent = wire(body(-1));
    expect(sent).toContain("[x] find every caller");
    expect(sent).toContain("Goal: Rename the config loader");
    await pod.close();

    // A Pod continuing the session has the plan, and a done step still cannot come back.
    const again = await open({ session: "latest" });
    expect(again.sessionId).toBe(result.sessionId);
    expect(again.plan).toEqual(PLAN);
    mock.enqueue(
      toolCall(
        "todo_write",
        { items: [{ content: "find every caller", status: "in_progress" }] },
        "toolu_again",
      ),
      answer("ok"),
    );
    await again.run("redo everything");
    expect(again.plan?.items).toEqual([{ content: "find every caller", status: "done" }]);
    await again.close();
  });
});
