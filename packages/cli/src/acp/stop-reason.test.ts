import { RequestError } from "@agentclientprotocol/sdk";
import type { Response, StopReason } from "@yoake/llm-worker";
import type { PodRunResult } from "@yoake/pod";
import { describe, expect, it } from "vitest";
import { promptStopReason } from "./stop-reason.js";

const usage = {};
function finished(stopReason: StopReason): PodRunResult {
  const response: Response = {
    items: [],
    text: "",
    reasoning: "",
    toolCalls: [],
    status: "completed",
    stopReason,
    rawStopReason: null,
  };
  return { status: "finished", text: "", usage, turns: 1, response };
}

describe("promptStopReason", () => {
  it("maps a finished run by the model's last stop reason", () => {
    expect(promptStopReason(finished("end_turn"))).toBe("end_turn");
    expect(promptStopReason(finished("stop_sequence"))).toBe("end_turn");
    expect(promptStopReason(finished("refusal"))).toBe("refusal");
    expect(promptStopReason(finished("max_tokens"))).toBe("max_tokens");
  });

  it("maps cancellation, the turn limit and a hook's pause", () => {
    expect(promptStopReason({ status: "cancelled", reason: "x", by: "signal", usage, turns: 1 })).toBe(
      "cancelled",
    );
    expect(
      promptStopReason({
        status: "failed",
        error: { kind: "max_turns", message: "too many", maxTurns: 3 },
        usage,
        turns: 3,
      }),
    ).toBe("max_turn_requests");
    expect(
      promptStopReason({
        status: "paused",
        reason: "wait",
        by: "hook:x",
        pendingToolCalls: [],
        usage,
        turns: 1,
      }),
    ).toBe("end_turn");
  });

  it("throws a JSON-RPC error saying why for any other failure", () => {
    const failed = () =>
      promptStopReason({
        status: "failed",
        error: {
          kind: "llm",
          message: "overloaded",
          error: { kind: "overloaded", message: "overloaded", status: 529 },
        },
        usage,
        turns: 1,
      });
    expect(failed).toThrow(RequestError);
    expect(failed).toThrow("the turn failed: overloaded");
    try {
      failed();
    } catch (error) {
      expect(error).toMatchObject({ code: -32603, data: { kind: "overloaded", status: 529 } });
    }
    expect(() =>
      promptStopReason({
        status: "failed",
        error: { kind: "hook", hook: "guard", stage: "beforeToolCall", message: "guard threw" },
        usage,
        turns: 1,
      }),
    ).toThrow(expect.objectContaining({ data: { kind: "hook", hook: "guard", stage: "beforeToolCall" } }));
  });
});
