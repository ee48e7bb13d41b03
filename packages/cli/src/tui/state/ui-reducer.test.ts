import type { Item, Response, ToolCall, WorkerResult } from "@yoake/llm-worker";
import type { PodEvent } from "@yoake/pod";
import { describe, expect, it } from "vitest";
import type { UiAction } from "./ui-action.js";
import { uiReducer } from "./ui-reducer.js";
import { activityOf, type Entry, initialUiState, type UiState } from "./ui-state.js";

const at = 1_000;
const ev = (event: PodEvent): UiAction => ({ type: "pod_event", event, at });
const run = (...actions: UiAction[]): UiState => actions.reduce(uiReducer, initialUiState);
const entries = (state: UiState): Entry[] => [...state.committed, ...state.live];

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  name,
  argumentsText: JSON.stringify(args),
  arguments: args,
});
const response = (status: Response["status"], usage?: Response["usage"]): Response => ({
  items: [],
  text: "",
  reasoning: "",
  toolCalls: [],
  status,
  stopReason: status === "completed" ? "end_turn" : "error",
  rawStopReason: null,
  ...(usage !== undefined && { usage }),
});
const finished: WorkerResult = {
  status: "finished",
  text: "",
  usage: {},
  turns: 1,
  response: response("completed"),
};
const cancelled: WorkerResult = {
  status: "cancelled",
  reason: "aborted by the caller",
  by: "signal",
  usage: {},
  turns: 1,
};

describe("uiReducer", () => {
  it("streams assistant text into one live entry, then commits it when the block completes", () => {
    const streaming = run(
      { type: "submitted", text: "hi", at },
      { type: "busy", busy: true, at },
      ev({ type: "run_start", input: "hi" }),
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "text_delta", index: 0, text: "Hel" }),
      ev({ type: "text_delta", index: 0, text: "lo" }),
    );
    // The user's own input is shown once, not again at run_start.
    expect(streaming.committed.map((e) => e.kind)).toEqual(["user"]);
    expect(streaming.live).toEqual([{ kind: "assistant", id: "1.1.0", text: "Hello", done: false }]);
    expect(activityOf(streaming)).toBe("running");

    const complete = uiReducer(streaming, ev({ type: "text_complete", index: 0, text: "Hello" }));
    expect(complete.live).toEqual([]);
    expect(complete.committed.at(-1)).toMatchObject({ kind: "assistant", text: "Hello", done: true });
  });

  it("keeps blocks of different turns apart although their indices restart", () => {
    const state = run(
      ev({ type: "run_start", input: "x" }),
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "text_delta", index: 0, text: "first" }),
      ev({ type: "text_complete", index: 0, text: "first" }),
      ev({ type: "turn_start", turn: 2 }),
      ev({ type: "text_delta", index: 0, text: "second" }),
    );
    expect(
      entries(state)
        .filter((e) => e.kind === "assistant")
        .map((e) => (e as { text: string }).text),
    ).toEqual(["first", "second"]);
  });

  it("shows another client's run with its input, file references as typed", () => {
    const state = run(ev({ type: "run_start", input: "read [unresolved file ref: src/a.ts] please" }));
    expect(state.committed[0]).toMatchObject({ kind: "user", text: "read @src/a.ts please" });
  });

  it("grows a tool card as its arguments stream, then runs it and shows its result", () => {
    const streamed = run(
      ev({ type: "run_start", input: "x" }),
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "tool_call_start", index: 0, callId: "c1", name: "read_file" }),
      ev({ type: "tool_call_delta", index: 0, callId: "c1", json: '{"pa' }),
      ev({ type: "tool_call_delta", index: 0, callId: "c1", json: 'th":"a.ts"}' }),
    );
    expect(streamed.live[0]).toMatchObject({
      kind: "tool",
      done: false,
      card: { phase: "streaming", argumentsText: '{"path":"a.ts"}', name: "read_file" },
    });

    const next: UiAction[] = [
      ev({ type: "tool_call_complete", call: call("c1", "read_file", { path: "a.ts" }) }),
      {
        type: "pod_event",
        event: { type: "tool_start", call: call("c1", "read_file", { path: "a.ts" }) },
        at: 5_000,
      },
    ];
    const running = next.reduce(uiReducer, streamed);
    expect(running.live[0]).toMatchObject({
      card: { phase: "running", arguments: { path: "a.ts" }, startedAt: 5_000 },
    });

    const done = uiReducer(
      running,
      ev({
        type: "tool_end",
        call: call("c1", "read_file", { path: "a.ts" }),
        result: {
          type: "tool_result",
          callId: "c1",
          name: "read_file",
          summary: "1 lines | x",
          content: "x",
        },
        durationMs: 12,
      }),
    );
    expect(done.live).toEqual([]);
    expect(done.committed.at(-1)).toMatchObject({
      kind: "tool",
      card: {
        phase: "done",
        durationMs: 12,
        result: { summary: "1 lines | x", content: "x", isError: false },
      },
    });
  });

  it("commits entries in order: a finished card waits behind one still running", () => {
    const state = run(
      ev({ type: "run_start", input: "x" }),
      ev({ type: "tool_call_complete", call: call("a", "grep", {}) }),
      ev({ type: "tool_call_complete", call: call("b", "glob", {}) }),
      ev({
        type: "tool_end",
        call: call("b", "glob", {}),
        result: { type: "tool_result", callId: "b", name: "glob", summary: "ok" },
        durationMs: 1,
      }),
    );
    expect(state.live.map((e) => e.kind === "tool" && e.card.callId)).toEqual(["a", "b"]);
    const after = uiReducer(
      state,
      ev({
        type: "tool_end",
        call: call("a", "grep", {}),
        result: { type: "tool_result", callId: "a", name: "grep", summary: "ok" },
        durationMs: 1,
      }),
    );
    expect(after.live).toEqual([]);
  });

  it("on a cancel, closes what was streaming, says the session goes on, and counts the usage seen", () => {
    const state = run(
      { type: "submitted", text: "slow", at },
      ev({ type: "run_start", input: "slow" }),
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "usage", usage: { inputTokens: 100, outputTokens: 3, raw: {} } }),
      ev({ type: "text_delta", index: 0, text: "Thinking very" }),
      ev({ type: "tool_call_start", index: 1, callId: "c", name: "grep" }),
      ev({ type: "turn_end", turn: 1, response: response("cancelled") }),
      ev({ type: "run_end", result: cancelled }),
      { type: "settled", status: "cancelled" },
      { type: "busy", busy: false, at },
    );
    expect(state.live).toEqual([]);
    expect(activityOf(state)).toBe("idle");
    const shown = entries(state);
    expect(shown.find((e) => e.kind === "assistant")).toMatchObject({ text: "Thinking very", done: true });
    expect(shown.find((e) => e.kind === "tool")).toMatchObject({ card: { phase: "not_run" } });
    expect(shown.at(-1)).toMatchObject({
      kind: "notice",
      tone: "warn",
      text: "Cancelled. The session goes on.",
    });
    expect(state.usage.total).toEqual({ inputTokens: 100, outputTokens: 3 });
  });

  it("sums the usage of every response of the session", () => {
    const state = run(
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "usage", usage: { inputTokens: 10, outputTokens: 1, raw: {} } }),
      ev({
        type: "turn_end",
        turn: 1,
        response: response("completed", { inputTokens: 10, outputTokens: 5, raw: {} }),
      }),
      ev({ type: "turn_start", turn: 2 }),
      ev({ type: "usage", usage: { inputTokens: 20, cacheReadInputTokens: 8, outputTokens: 2, raw: {} } }),
    );
    expect(state.usage.total).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(state.usage.live).toMatchObject({ inputTokens: 20 });
    const ended = uiReducer(
      state,
      ev({
        type: "turn_end",
        turn: 2,
        response: response("completed", {
          inputTokens: 20,
          cacheReadInputTokens: 8,
          outputTokens: 7,
          raw: {},
        }),
      }),
    );
    // Given without the model's prices: counted, and known to have cost an unknown amount.
    expect(ended.usage).toEqual({
      total: { inputTokens: 30, outputTokens: 12, cacheReadInputTokens: 8 },
      lastInputTokens: 20,
      unpriced: true,
    });
  });

  it("puts a run that waits for approval on hold, then resolves the card by the answer", () => {
    const edit = call("e1", "edit_file", { path: "a.ts", old_string: "a", new_string: "b" });
    const request = { id: "p1", callId: "e1", tool: "edit_file", arguments: edit.arguments };
    const paused = run(
      { type: "submitted", text: "edit", at },
      ev({ type: "run_start", input: "edit" }),
      ev({ type: "tool_call_complete", call: edit }),
      ev({
        type: "run_end",
        result: {
          status: "paused",
          reason: "approval",
          by: "pod",
          pendingToolCalls: [edit],
          usage: {},
          turns: 1,
        },
      }),
      ev({ type: "permission_request", ...request }),
      { type: "settled", status: "paused" },
    );
    expect(activityOf(paused)).toBe("awaiting_approval");
    expect(paused.permission).toEqual(request);
    expect(paused.live[0]).toMatchObject({ card: { phase: "awaiting_approval" }, done: false });

    const answering = uiReducer(paused, { type: "busy", busy: true, at });
    const resolved = uiReducer(
      answering,
      ev({
        type: "permission_resolved",
        id: "p1",
        callId: "e1",
        tool: "edit_file",
        decision: { deny: "not now" },
      }),
    );
    expect(resolved.permission).toBeUndefined();
    expect(activityOf(resolved)).toBe("running");
    expect(resolved.committed.at(-1)).toMatchObject({ card: { phase: "denied", deniedReason: "not now" } });
  });

  it("is busy from the controller's word alone: not ready at run_end, and a paused run's clock goes on", () => {
    const ending = run(
      { type: "submitted", text: "hi", at },
      { type: "busy", busy: true, at },
      ev({ type: "run_start", input: "hi" }),
      ev({ type: "run_end", result: finished }),
      { type: "settled", status: "finished" },
    );
    // The Pod may still be writing its log: "ready" waits for the controller's `busy: false`.
    expect(activityOf(ending)).toBe("running");
    const ended = uiReducer(ending, { type: "busy", busy: false, at: at + 5 });
    expect(activityOf(ended)).toBe("idle");
    expect(ended.runStartedAt).toBeUndefined();

    const request = { id: "p", callId: "e", tool: "edit_file", arguments: {} };
    const waiting = run(
      { type: "busy", busy: true, at },
      ev({ type: "permission_request", ...request }),
      { type: "settled", status: "paused" },
      { type: "busy", busy: false, at: at + 5 },
    );
    expect(activityOf(waiting)).toBe("awaiting_approval");
    const answered = uiReducer(waiting, { type: "busy", busy: true, at: at + 9 });
    expect(answered.runStartedAt).toBe(at);
  });

  it("fills cards that got no tool_end (a hook skipped them) from the results history holds", () => {
    const state = run(
      ev({ type: "run_start", input: "x" }),
      ev({ type: "tool_call_complete", call: call("s", "write_file", {}) }),
      {
        type: "tool_results",
        results: [
          {
            type: "tool_result",
            callId: "s",
            name: "write_file",
            summary: "[skipped by hook guard]",
            isError: true,
          },
        ],
      },
      ev({ type: "run_end", result: finished }),
    );
    expect(state.committed.find((e) => e.kind === "tool")).toMatchObject({
      card: { phase: "done", result: { summary: "[skipped by hook guard]", isError: true } },
    });
  });

  it("drops a pending approval on Esc: the call is marked not run", () => {
    const edit = call("e1", "edit_file", {});
    const state = run(
      ev({ type: "tool_call_complete", call: edit }),
      ev({ type: "permission_request", id: "p", callId: "e1", tool: "edit_file", arguments: {} }),
      { type: "approval_abandoned" },
    );
    expect(state.permission).toBeUndefined();
    expect(activityOf(state)).toBe("idle");
    expect(entries(state).map((e) => (e.kind === "tool" ? e.card.phase : e.kind))).toEqual([
      "not_run",
      "notice",
    ]);
  });

  it("reports a failed run with the Worker's message, and a run that threw", () => {
    const failed = run(
      ev({ type: "run_start", input: "x" }),
      ev({
        type: "run_end",
        result: {
          status: "failed",
          error: { kind: "max_turns", message: "stopped after 3", maxTurns: 3 },
          usage: {},
          turns: 3,
        },
      }),
    );
    expect(failed.committed.at(-1)).toMatchObject({
      kind: "notice",
      tone: "error",
      text: "Failed: stopped after 3",
    });
    const threw = run(
      { type: "submitted", text: "x", at },
      { type: "settled", error: "the Pod is already running" },
    );
    expect(activityOf(threw)).toBe("idle");
    expect(threw.awaitingOwnRunStart).toBe(false);
    expect(threw.committed.at(-1)).toMatchObject({ tone: "error", text: "the Pod is already running" });
  });

  it("shows alerts, thinking and notes added to history; a compaction adds nothing (the Pod alerts)", () => {
    const state = run(
      ev({ type: "alert", level: "warn", message: "src/x.ts: not found", source: "file_ref" }),
      ev({ type: "thinking_delta", index: 0, text: "hmm" }),
      ev({ type: "thinking_complete", index: 0, text: "hmm." }),
      ev({
        type: "history_changed",
        reason: "notify",
        added: [{ type: "message", role: "user", text: "note" }],
      }),
      ev({
        type: "history_changed",
        reason: "compact",
        auto: true,
        sessionId: "s2",
        previousSessionId: "s1",
      }),
    );
    expect(entries(state).map((e) => e.kind)).toEqual(["alert", "thinking", "user"]);
  });

  it("shows a saved conversation under a title: references as typed, attachments, calls with results", () => {
    const items: Item[] = [
      { type: "message", role: "user", text: "fix [unresolved file ref: a.ts]" },
      { type: "message", role: "system", text: "[File: a.ts]\nconst a = 1;" },
      { type: "reasoning", text: "look" },
      { type: "tool_call", callId: "c", name: "read_file", arguments: '{"path":"a.ts"}' },
      {
        type: "tool_result",
        callId: "c",
        name: "read_file",
        summary: "1 lines | const a",
        content: "const a = 1;",
      },
      { type: "message", role: "assistant", text: "Fixed." },
    ];
    const state = run({ type: "history_loaded", items, title: "Earlier:" });
    expect(state.live).toEqual([]);
    expect(state.committed.map((e) => e.kind)).toEqual([
      "notice",
      "user",
      "attachment",
      "thinking",
      "tool",
      "assistant",
    ]);
    expect(state.committed[1]).toMatchObject({ text: "fix @a.ts" });
    expect(state.committed[2]).toMatchObject({ path: "a.ts" });
    expect(state.committed[4]).toMatchObject({ card: { phase: "done", arguments: { path: "a.ts" } } });
  });

  it("toggles thinking, and returns the same state for events that change nothing", () => {
    expect(run({ type: "toggle_thinking" }).showThinking).toBe(true);
    const state = run(ev({ type: "run_start", input: "x" }));
    expect(uiReducer(state, ev({ type: "tool_call_delta", index: 0, callId: "unknown", json: "{" }))).toBe(
      state,
    );
  });
});
