import { describe, expect, it } from "vitest";
import { uiReducer } from "./ui-reducer.js";
import { initialUiState } from "./ui-state.js";

describe("a request sent again", () => {
  it("is shown as a warning with the attempt, the wait and the provider's reason", () => {
    const state = uiReducer(initialUiState, {
      type: "pod_event",
      at: 1_000,
      event: {
        type: "retry",
        turn: 1,
        attempt: 2,
        maxAttempts: 3,
        delayMs: 1_500,
        error: { kind: "overloaded", status: 529, message: "anthropic: 529 Overloaded" },
      },
    });
    expect([...state.committed, ...state.live]).toMatchObject([
      {
        kind: "notice",
        tone: "warn",
        text: "Retrying in 1.5 s (attempt 2 of 3): anthropic: 529 Overloaded",
      },
    ]);
  });
});
