/**
 * Pod events to wire events: what is kept, what is dropped (the provider's raw objects, the whole
 * response, the `*_complete` repeats), and that every wire form passes its schema.
 */
import type { Item, Response, ToolCall } from "@yoake/llm-worker";
import { describe, expect, it } from "vitest";
import type { PodEvent } from "../pod/events.js";
import { toWireEvent, toWireRunResult } from "./event-mapping.js";
import { clientRequestSchema } from "./messages.js";
import { wireEventSchema } from "./wire-events.js";

const call: ToolCall = {
  id: "c1",
  name: "read_file",
  argumentsText: '{"path":"a"}',
  arguments: { path: "a" },
};
const usage = { inputTokens: 10, outputTokens: 2 };
const response: Response = {
  items: [{ type: "message", role: "assistant", text: "hi" }],
  text: "hi",
  reasoning: "",
  toolCalls: [],
  usage: { ...usage, raw: { input_tokens: 10 } },
  status: "completed",
  stopReason: "end_turn",
  rawStopReason: "end_turn",
};
const history: Item[] = [{ type: "message", role: "user", text: "note" }];

const cases: Array<[PodEvent, unknown]> = [
  [
    { type: "run_start", input: "go" },
    { event: "run_start", input: "go" },
  ],
  [
    { type: "turn_start", turn: 1 },
    { event: "turn_start", turn: 1 },
  ],
  [
    { type: "text_delta", index: 0, text: "Hel" },
    { event: "text_delta", index: 0, text: "Hel" },
  ],
  [
    { type: "thinking_delta", index: 0, text: "hm" },
    { event: "thinking_delta", index: 0, text: "hm" },
  ],
  [
    { type: "tool_call_start", index: 1, callId: "c1", name: "read_file" },
    { event: "tool_call_start", index: 1, callId: "c1", name: "read_file" },
  ],
  [
    { type: "tool_call_delta", index: 1, callId: "c1", json: '{"pa' },
    { event: "tool_call_delta", index: 1, callId: "c1", json: '{"pa' },
  ],
  [
    { type: "tool_call_complete", call },
    { event: "tool_call_done", callId: "c1", name: "read_file", arguments: { path: "a" } },
  ],
  [
    {
      type: "tool_call_complete",
      call: { id: "c2", name: "x", argumentsText: "{", arguments: undefined, parseError: "invalid JSON" },
    },
    { event: "tool_call_done", callId: "c2", name: "x", arguments: undefined, parseError: "invalid JSON" },
  ],
  [
    { type: "tool_start", call },
    { event: "tool_start", callId: "c1", name: "read_file" },
  ],
  [
    {
      type: "tool_end",
      call,
      result: { type: "tool_result", callId: "c1", name: "read_file", summary: "1 lines | a", content: "a" },
      durationMs: 3,
    },
    {
      event: "tool_result",
      callId: "c1",
      name: "read_file",
      isError: false,
      summary: "1 lines | a",
      content: "a",
      durationMs: 3,
    },
  ],
  [
    { type: "turn_end", turn: 1, response },
    { event: "turn_end", turn: 1, status: "completed", stopReason: "end_turn", usage },
  ],
  [
    { type: "usage", usage: { ...usage, raw: { input_tokens: 10 } } },
    { event: "usage", usage },
  ],
  [
    { type: "error", error: { kind: "rate_limit", message: "slow down", status: 429, raw: { big: true } } },
    { event: "error", error: { kind: "rate_limit", message: "slow down", status: 429 } },
  ],
  [
    { type: "run_end", result: { status: "finished", text: "hi", usage, turns: 1, response } },
    { event: "run_end", result: { status: "finished", text: "hi", usage, turns: 1 } },
  ],
  [
    { type: "alert", level: "warn", message: "no such file", source: "file_ref" },
    { event: "alert", level: "warn", message: "no such file", source: "file_ref" },
  ],
  [
    { type: "permission_request", id: "p1", callId: "c1", tool: "write_file", arguments: { path: "a" } },
    { event: "permission_request", id: "p1", callId: "c1", tool: "write_file", arguments: { path: "a" } },
  ],
  [
    { type: "permission_resolved", id: "p1", callId: "c1", tool: "write_file", decision: { deny: "no" } },
    { event: "permission_resolved", id: "p1", callId: "c1", tool: "write_file", decision: { deny: "no" } },
  ],
  [
    { type: "history_changed", reason: "notify", added: [{ type: "message", role: "user", text: "note" }] },
    { event: "history", reason: "notify", items: history },
  ],
];

describe("toWireEvent", () => {
  it.each(cases)("maps %o", (event, wire) => {
    const mapped = toWireEvent(event, () => history);
    expect(mapped).toEqual(wire);
    expect(wireEventSchema.safeParse(mapped).success).toBe(true);
  });

  it("leaves out the *_complete repeats of the deltas", () => {
    expect(toWireEvent({ type: "text_complete", index: 0, text: "Hello" }, () => history)).toBeUndefined();
    expect(toWireEvent({ type: "thinking_complete", index: 0, text: "hm" }, () => history)).toBeUndefined();
  });

  it("reads the history only for the events that carry it", () => {
    const read = () => {
      throw new Error("history read for a delta");
    };
    expect(toWireEvent({ type: "text_delta", index: 0, text: "x" }, read)).toBeDefined();
  });
});

describe("toWireRunResult", () => {
  it("keeps what a client needs of a paused, cancelled or failed run", () => {
    expect(
      toWireRunResult({
        status: "paused",
        reason: "r",
        by: "pod",
        pendingToolCalls: [call],
        usage,
        turns: 2,
      }),
    ).toEqual({
      status: "paused",
      reason: "r",
      by: "pod",
      pendingToolCalls: [{ callId: "c1", name: "read_file" }],
      usage,
      turns: 2,
    });
    expect(
      toWireRunResult({
        status: "failed",
        error: { kind: "llm", message: "boom", error: { kind: "server", message: "boom" } },
        usage: {},
        turns: 1,
      }),
    ).toEqual({ status: "failed", error: { kind: "llm", message: "boom" }, usage: {}, turns: 1 });
  });
});

describe("clientRequestSchema", () => {
  it("checks each method's params", () => {
    const ok = (request: unknown) => clientRequestSchema.safeParse(request).success;
    expect(ok({ id: 1, method: "run", params: { segments: [{ type: "text", text: "hi" }] } })).toBe(true);
    expect(ok({ id: "a", method: "respond", params: { permissionId: "p", decision: { deny: "no" } } })).toBe(
      true,
    );
    expect(ok({ id: 2, method: "status" })).toBe(true);
    expect(ok({ id: 3, method: "run", params: { segments: [{ type: "file_ref", path: "" }] } })).toBe(false);
    expect(ok({ id: 4, method: "respond", params: { permissionId: "p", decision: "maybe" } })).toBe(false);
    expect(ok({ id: 5, method: "notify", params: { text: "x", role: "assistant" } })).toBe(false);
    expect(ok({ id: null, method: "status" })).toBe(false);
  });
});
