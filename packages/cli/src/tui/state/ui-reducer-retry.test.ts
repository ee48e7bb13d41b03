import type { PodEvent } from "@yoake/pod";
import { describe, expect, it } from "vitest";
import type { UiAction } from "./ui-action.js";
import { uiReducer } from "./ui-reducer.js";
import { initialUiState, type UiState } from "./ui-state.js";

const at = 1_000;
const ev = (event: PodEvent): UiAction => ({ type: "pod_event", event, at });
const run = (...actions: UiAction[]): UiState => actions.reduce(uiReducer, initialUiState);
const retry: PodEvent = {
  type: "retry",
  turn: 1,
  attempt: 2,
  maxAttempts: 3,
  delayMs: 1_500,
  error: { kind: "overloaded", status: 529, message: "anthropic: 529 Overloaded" },
};

describe("a request sent again", () => {
  it("is the status bar's until the stream resumes, not a line of the transcript", () => {
    const retrying = run({ type: "busy", busy: true, at }, ev({ type: "turn_start", turn: 1 }), ev(retry));
    expect(retrying.retry).toEqual({
      attempt: 2,
      maxAttempts: 3,
      sendsAt: 2_500,
      reason: "anthropic: 529 Overloaded",
    });
    expect([...retrying.committed, ...retrying.live]).toEqual([]);
    // Events of no stream (an alert) leave it; the first piece of the answer ends it.
    const alerted = uiReducer(retrying, ev({ type: "alert", level: "info", message: "m", source: "s" }));
    expect(alerted.retry).toBeDefined();
    expect(uiReducer(alerted, ev({ type: "text_delta", index: 0, text: "He" })).retry).toBeUndefined();
    // A run cancelled while it waited to go again: nothing is left to retry.
    expect(uiReducer(retrying, { type: "busy", busy: false, at }).retry).toBeUndefined();
  });
});
