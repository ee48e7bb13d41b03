import type { Item } from "@yoake/llm-worker";
import type { PermissionDecision, PodEvent, Segment } from "@yoake/pod";
import { describe, expect, it, vi } from "vitest";
import type { PodLike, RunOutcome } from "../pod-like.js";
import { latestToolResults } from "../state/history-entries.js";
import type { UiAction } from "../state/ui-action.js";
import { uiReducer } from "../state/ui-reducer.js";
import { activityOf, initialUiState, type UiState } from "../state/ui-state.js";
import { SessionController } from "./session-controller.js";

/** A Pod whose runs end when the test says, recording what it was asked. */
class FakePod implements PodLike {
  readonly runs: Array<{ input: readonly Segment[]; signal: AbortSignal | undefined }> = [];
  readonly answers: Array<{ id: string; decision: PermissionDecision }> = [];
  history: Item[] = [];
  cancelled = 0;
  private listeners: Array<(event: PodEvent) => void> = [];
  private finish: ((outcome: RunOutcome) => void) | undefined;

  run(input: readonly Segment[], options: { signal?: AbortSignal }): Promise<RunOutcome> {
    this.runs.push({ input, signal: options.signal });
    return new Promise((resolve, reject) => {
      this.finish = resolve;
      options.signal?.addEventListener("abort", () => resolve({ status: "cancelled" }));
      if (input.some((s) => s.type === "text" && s.text.includes("throw")))
        reject(new Error("the Pod broke"));
    });
  }
  respond(id: string, decision: PermissionDecision): Promise<RunOutcome> {
    this.answers.push({ id, decision });
    return Promise.resolve({ status: "finished" });
  }
  listen(listener: (event: PodEvent) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
  /** Not part of `PodLike`: a controller that still called it would cancel twice. */
  cancel(): void {
    this.cancelled++;
  }
  emit(event: PodEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  end(outcome: RunOutcome = { status: "finished" }): void {
    this.finish?.(outcome);
  }
}

function setup(pod: PodLike = new FakePod()) {
  const actions: UiAction[] = [];
  const exit = vi.fn();
  const controller = new SessionController(
    pod,
    (action) => actions.push(action),
    exit,
    () => 42,
  );
  const notices = () => actions.flatMap((a) => (a.type === "notice" ? [a.text] : []));
  return { controller, actions, exit, notices };
}

describe("SessionController", () => {
  it("runs the input as segments, @ references made file refs, and settles with the outcome", async () => {
    const pod = new FakePod();
    const { controller, actions } = setup(pod);
    const done = controller.submit("explain @src/a.ts please");
    expect(pod.runs[0]?.input).toEqual([
      { type: "text", text: "explain " },
      { type: "file_ref", path: "src/a.ts" },
      { type: "text", text: " please" },
    ]);
    expect(controller.isRunning).toBe(true);
    pod.end();
    await done;
    expect(controller.isRunning).toBe(false);
    expect(actions).toEqual([
      { type: "submitted", text: "explain @src/a.ts please", at: 42 },
      { type: "busy", busy: true, at: 42 },
      { type: "settled", status: "finished" },
      { type: "busy", busy: false, at: 42 },
    ]);
  });

  it("shows busy exactly while commands wait: a run_end is not the end, the run's return is", async () => {
    const ended = { status: "cancelled", reason: "r", by: "signal", usage: {}, turns: 1 } as const;
    const pod = Object.assign(new FakePod(), {
      effort: undefined as string | undefined,
      async setEffort(level: string) {
        this.effort = level;
      },
    });
    // The UI's state, folded as the app folds it; at every action it must agree with the controller.
    let state: UiState = initialUiState;
    const disagreements: string[] = [];
    const controller: SessionController = new SessionController(
      pod,
      (action) => {
        state = uiReducer(state, action);
        const shown = activityOf(state) === "running";
        if (shown !== controller.isRunning)
          disagreements.push(`${action.type}: shows ${activityOf(state)}, isRunning ${controller.isRunning}`);
      },
      vi.fn(),
      () => 42,
    );
    controller.attach();
    const running = controller.submit("hi");
    pod.emit({ type: "run_start", input: "hi" });
    // The Pod has said the run ended but is still returning (writing its log): both still say busy.
    pod.emit({ type: "run_end", result: ended });
    expect(activityOf(state)).toBe("running");
    expect(controller.isRunning).toBe(true);
    pod.end();
    await running;
    expect(activityOf(state)).toBe("idle");
    // Accepted as soon as "ready" shows.
    await controller.submit("/effort high");
    expect(pod.effort).toBe("high");
    expect(disagreements).toEqual([]);
  });

  it("a served Pod's run it did not start (going when it attached) is busy too: prompts wait for its end", async () => {
    const ended = { status: "cancelled", reason: "r", by: "signal", usage: {}, turns: 1 } as const;
    const served = Object.assign(new FakePod(), {
      runInProgress: true,
      cancels: 0,
      cancelServedRun(this: { cancels: number }): boolean {
        this.cancels++;
        return true;
      },
    });
    const { controller, actions } = setup(served);
    controller.attach();
    expect(actions).toEqual([{ type: "busy", busy: true, at: 42 }]);
    expect(controller.isRunning).toBe(true);
    await controller.submit("after it");
    expect(served.runs).toHaveLength(0);
    expect(controller.interrupt()).toBe(true);
    expect(served.cancels).toBe(1);
    await controller.submit("after it");
    served.runInProgress = false;
    served.emit({ type: "run_end", result: ended });
    expect(actions.slice(-5).map((a) => (a.type === "busy" ? `busy ${a.busy}` : a.type))).toEqual([
      "pod_event",
      "busy false",
      "queue_changed",
      "submitted",
      "busy true",
    ]);
    expect(served.runs.map((run) => run.input)).toEqual([[{ type: "text", text: "after it" }]]);
    served.end();
    await vi.waitFor(() => expect(controller.isRunning).toBe(false));

    // Another client's run starting later is shown and waited for the same way.
    served.runInProgress = true;
    served.emit({ type: "run_start", input: "theirs" });
    expect(controller.isRunning).toBe(true);
    expect(actions.at(-1)).toEqual({ type: "busy", busy: true, at: 42 });
  });

  it("cancels the running turn through its signal alone; the next run goes ahead", async () => {
    const pod = new FakePod();
    const { controller } = setup(pod);
    const first = controller.submit("slow");
    expect(controller.cancel()).toBe(true);
    expect(pod.runs[0]?.signal?.aborted).toBe(true);
    // One cancel path: a served Pod's client turns the signal into the protocol's cancel itself.
    expect(pod.cancelled).toBe(0);
    await first;
    expect(controller.cancel()).toBe(false);
    const second = controller.submit("again");
    expect(pod.runs).toHaveLength(2);
    pod.end();
    await second;
  });

  it("leaving mid-run cancels an in-process Pod's run, and leaves a served Pod's run going", async () => {
    const own = new FakePod();
    const inProcess = setup(own);
    const ownRun = inProcess.controller.submit("slow");
    await inProcess.controller.submit("/quit");
    expect(own.runs[0]?.signal?.aborted).toBe(true);
    expect(inProcess.exit).toHaveBeenCalledOnce();
    await ownRun;

    const served = Object.assign(new FakePod(), { runsOnWhenLeft: true });
    const attached = setup(served);
    void attached.controller.submit("slow");
    attached.controller.quit();
    expect(served.runs[0]?.signal?.aborted).toBe(false);
    expect(attached.exit).toHaveBeenCalledOnce();
  });

  it("with no run of its own, Esc cancels the run another client of a served Pod started", () => {
    const served = Object.assign(new FakePod(), {
      runGoing: true,
      cancelServedRun(this: { runGoing: boolean }): boolean {
        const going = this.runGoing;
        this.runGoing = false;
        return going;
      },
    });
    const { controller } = setup(served);
    expect(controller.interrupt()).toBe(true);
    expect(served.runGoing).toBe(false);
    expect(controller.interrupt()).toBe(false);
    // An in-process Pod runs nothing its UI did not start.
    expect(setup(new FakePod()).controller.interrupt()).toBe(false);
  });

  it("queues prompts sent during a turn and sends each when the turn before it ends; commands run at once", async () => {
    const pod = new FakePod();
    const { controller, actions, notices } = setup(pod);
    const running = controller.submit("slow");
    await controller.submit("second");
    await controller.submit("third");
    expect(pod.runs).toHaveLength(1);
    expect(actions.at(-1)).toEqual({ type: "queue_changed", queued: ["second", "third"] });
    await controller.submit("/help");
    expect(notices()[0]).toBe("› /help");
    pod.end();
    await vi.waitFor(() => expect(pod.runs).toHaveLength(2));
    expect(pod.runs.map((run) => run.input)).toEqual([
      [{ type: "text", text: "slow" }],
      [{ type: "text", text: "second" }],
    ]);
    pod.end();
    await vi.waitFor(() => expect(pod.runs).toHaveLength(3));
    pod.end();
    await running;
    expect(controller.isRunning).toBe(false);
    expect(
      actions.filter((a) => a.type === "submitted").map((a) => a.type === "submitted" && a.text),
    ).toEqual(["slow", "second", "third"]);
  });

  it("Esc clears the queue first, then cancels; Ctrl+C does both and says whether anything ran", async () => {
    const pod = new FakePod();
    const { controller, notices } = setup(pod);
    const running = controller.submit("slow");
    await controller.submit("later");
    controller.escape();
    expect(notices()).toEqual(["Queued messages cleared."]);
    expect(pod.runs[0]?.signal?.aborted).toBe(false);
    controller.escape();
    expect(pod.runs[0]?.signal?.aborted).toBe(true);
    await running;
    expect(pod.runs).toHaveLength(1);
    expect(controller.interrupt()).toBe(false);
    const again = controller.submit("again");
    await controller.submit("dropped");
    expect(controller.interrupt()).toBe(true);
    await again;
    expect(pod.runs).toHaveLength(2);
  });

  it("reports a run that throws, without leaving the UI busy", async () => {
    const { controller, actions } = setup();
    await controller.submit("please throw");
    expect(actions.slice(-2)).toEqual([
      { type: "settled", error: "the Pod broke" },
      { type: "busy", busy: false, at: 42 },
    ]);
    expect(controller.isRunning).toBe(false);
  });

  it("answers a permission request, and feeds history's results before each run_end", async () => {
    const pod = new FakePod();
    const { controller, actions } = setup(pod);
    await controller.answer("p1", { deny: "no" });
    expect(pod.answers).toEqual([{ id: "p1", decision: { deny: "no" } }]);
    controller.attach();
    pod.history = [
      { type: "message", role: "user", text: "go" },
      { type: "tool_call", callId: "c", name: "write_file", arguments: "{}" },
      { type: "tool_result", callId: "c", name: "write_file", summary: "skipped", isError: true },
    ];
    pod.emit({
      type: "run_end",
      result: { status: "cancelled", reason: "r", by: "signal", usage: {}, turns: 1 },
    });
    expect(actions.slice(-2).map((a) => a.type)).toEqual(["tool_results", "pod_event"]);
  });

  it("says plainly which commands this Pod does not offer", async () => {
    const { controller, notices } = setup();
    for (const command of ["/compact", "/sessions", "/resume abc", "/model openai/gpt-5", "/nope"])
      await controller.submit(command);
    const said = notices().filter((n) => !n.startsWith("›"));
    expect(said).toEqual([
      "This Pod cannot compact conversations: /compact is not available.",
      "This Pod keeps no session list: /sessions is not available.",
      "This Pod cannot switch sessions while it runs: leave and start yoake --resume abc (or --continue for the latest).",
      "This Pod cannot switch models while it runs (model: unknown). Start yoake again with --model openai/gpt-5.",
      "Unknown command /nope. /help lists the commands.",
    ]);
  });

  it("uses the commands a Pod offers: compact, sessions, resume, model; /quit leaves", async () => {
    const pod = Object.assign(new FakePod(), {
      sessionId: "s2",
      manifest: { projectRoot: "/p", model: { ref: "anthropic/claude", id: "claude" } },
      compact: vi.fn(async () => ({
        sessionId: "s3",
        itemsBefore: 40,
        itemsAfter: 3,
        rereadFiles: ["a.ts"],
      })),
      listSessions: vi.fn(async () => [
        { id: "s1", lastActivity: "2026-01-01T00:00:00Z", firstUserText: "fix the\nbug" },
        { id: "s2", started: "2026-01-02T00:00:00Z" },
      ]),
      resumeSession: vi.fn(async () => undefined),
    });
    const { controller, actions, exit, notices } = setup(pod);
    await controller.submit("/compact");
    await controller.submit("/sessions");
    await controller.submit("/model");
    pod.history = [{ type: "message", role: "user", text: "old" }];
    await controller.submit("/resume s1");
    await controller.submit("/quit");
    expect(notices()).toEqual([
      "› /compact",
      "Compacting the conversation… (Esc to stop)",
      "Compacted into session s3. 40 history items became 3. Read again: a.ts.",
      "› /sessions",
      "Sessions, oldest first (* this one):\n  s1  2026-01-01T00:00:00Z  fix the bug\n *s2  2026-01-02T00:00:00Z",
      "› /model",
      "Model: anthropic/claude",
      "› /resume s1",
      "› /quit",
    ]);
    expect(pod.resumeSession).toHaveBeenCalledWith("s1");
    expect(actions).toContainEqual({
      type: "history_loaded",
      items: pod.history,
      title: "Resumed session s1:",
    });
    expect(exit).toHaveBeenCalledOnce();
  });

  it("/mcp lists the manifest's MCP servers with their state and tools, or says there are none", async () => {
    const pod = Object.assign(new FakePod(), {
      mcpServers: () => [
        {
          name: "everything",
          state: "running",
          tools: 2,
          toolNames: ["everything__echo", "everything__add"],
        },
        { name: "broken", state: "failed", tools: 0, error: "command not found: nope" },
      ],
    });
    const { controller, notices } = setup(pod);
    await controller.submit("/mcp");
    const none = setup(new FakePod());
    await none.controller.submit("/mcp");
    expect(notices()).toEqual([
      "› /mcp",
      "MCP servers:\n  everything: running, 2 tool(s): everything__echo, everything__add\n  broken: failed — command not found: nope",
    ]);
    expect(none.notices()).toEqual(["› /mcp", "No MCP servers: add [[mcp]] tables to the manifest."]);
  });

  it("/resume without an id opens the picker, and its choice resumes; /clear starts a new session", async () => {
    const resumed: string[] = [];
    let cleared = 0;
    const pod = Object.assign(new FakePod(), {
      sessionId: "s2",
      listSessions: async () => [{ id: "s1", firstUserText: "old" }, { id: "s2" }],
      resumeSession: async (id: string) => {
        resumed.push(id);
      },
      newSession: async () => {
        cleared++;
        pod.sessionId = "s3";
      },
    });
    const { controller, actions, notices } = setup(pod);
    await controller.submit("/resume");
    expect(actions.at(-1)).toEqual({
      type: "session_picker",
      sessions: [{ id: "s1", firstUserText: "old" }, { id: "s2" }],
    });
    await controller.pickSession("s1");
    expect(resumed).toEqual(["s1"]);
    expect(actions).toContainEqual({ type: "session_picker" });
    // The resumed session's history, then its own token counts (none here), not the last one's.
    expect(actions.at(-1)).toEqual({ type: "usage_restored", usage: {} });
    expect(actions.at(-2)).toMatchObject({ type: "history_loaded", title: "Resumed session s1:" });
    await controller.submit("/clear");
    expect(cleared).toBe(1);
    expect(notices().at(-1)).toBe(
      "New session s3: the conversation starts again. The previous one: /resume s2",
    );
  });

  it("takes a prompt typed after Esc stopped a compaction, and reports the compaction's failure", async () => {
    const pod = Object.assign(new FakePod(), {
      compact: vi.fn(
        ({ signal }: { signal?: AbortSignal }) =>
          new Promise<never>((_, reject) =>
            signal?.addEventListener("abort", () => reject(new Error("the compaction was cancelled"))),
          ),
      ),
    });
    const { controller, notices } = setup(pod);
    const compacting = controller.submit("/compact");
    await controller.submit("hello");
    expect(pod.runs).toHaveLength(0);
    expect(controller.cancel()).toBe(true);
    await compacting;
    expect(notices().at(-1)).toBe("/compact failed: the compaction was cancelled");
    await vi.waitFor(() => expect(pod.runs).toHaveLength(1));
    pod.end();
    await vi.waitFor(() => expect(controller.isRunning).toBe(false));
  });

  it("finds the latest run's tool results in history", () => {
    const history: Item[] = [
      { type: "tool_result", callId: "old", name: "x", summary: "" },
      { type: "message", role: "user", text: "go" },
      { type: "tool_result", callId: "new", name: "x", summary: "" },
    ];
    expect(latestToolResults(history).map((r) => r.callId)).toEqual(["new"]);
  });
});
