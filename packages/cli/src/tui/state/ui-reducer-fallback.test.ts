import { describe, expect, it } from "vitest";
import { uiReducer } from "./ui-reducer.js";
import { initialUiState } from "./ui-state.js";

describe("a switch of models", () => {
  it("is shown as a warning naming both models, why, and the cold cache", () => {
    const state = uiReducer(initialUiState, {
      type: "pod_event",
      at: 1_000,
      event: {
        type: "fallback",
        turn: 1,
        from: { scheme: "anthropic", model: "claude-x" },
        to: { scheme: "ollama", model: "qwen3:8b" },
        reason: "error",
        error: { kind: "overloaded", status: 529, message: "anthropic: 529 Overloaded" },
        coldCacheTokens: 12_345,
      },
    });
    expect([...state.committed, ...state.live]).toMatchObject([
      {
        kind: "notice",
        tone: "warn",
        text: "Switched to ollama/qwen3:8b: anthropic/claude-x failed (anthropic: 529 Overloaded); ~12,345 prompt tokens without a cache",
      },
    ]);
  });
});
