import { describe, expect, it } from "vitest";
import type { BlockType, Event } from "../llm-client/event.js";
import type { TextBlockEvent, ToolUseBlockEvent } from "./event.js";
import type { Handler, TextBlockKind, ToolUseBlockKind } from "./handler.js";
import { Timeline } from "./timeline.js";

const start = (index: number, blockType: "text" | "thinking" | "tool_result" = "text"): Event =>
  blockType === "tool_result"
    ? { type: "block_start", index, blockType, toolUseId: "call_1" }
    : { type: "block_start", index, blockType };
const toolStart = (index: number, id: string, name: string): Event => ({
  type: "block_start",
  index,
  blockType: "tool_use",
  id,
  name,
});
const text = (index: number, t: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "text", text: t },
});
const thinking = (index: number, t: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "thinking", text: t },
});
const json = (index: number, j: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "input_json", json: j },
});
const stop = (index: number, blockType: BlockType): Event => ({ type: "block_stop", index, blockType });
const usage = (outputTokens: number): Event => ({ type: "usage", outputTokens, raw: { outputTokens } });

function dispatchAll(timeline: Timeline, events: Event[]): void {
  for (const event of events) timeline.dispatch(event);
}

/** A text handler that records every event with the scope it was given. */
class ScopeRecorder implements Handler<TextBlockKind, { id: number; seen: string[] }> {
  created = 0;
  readonly log: Array<{ scope: number; event: string }> = [];

  createScope() {
    this.created++;
    return { id: this.created, seen: [] };
  }

  onEvent(scope: { id: number; seen: string[] }, event: TextBlockEvent): void {
    scope.seen.push(event.kind);
    this.log.push({ scope: scope.id, event: event.kind === "text" ? `text:${event.text}` : event.kind });
  }
}

describe("Timeline: the seed's responsibilities", () => {
  it("1. receives the Event stream: a whole response reaches the handlers", () => {
    const timeline = new Timeline();
    const seen: string[] = [];
    timeline.onStatus((e) => seen.push(`status:${e.status}`));
    timeline.onTextBlock((e) => seen.push(e.kind === "text" ? e.text : e.kind));
    dispatchAll(timeline, [
      { type: "status", status: "started" },
      start(0),
      text(0, "Hel"),
      text(0, "lo"),
      stop(0, "text"),
      { type: "status", status: "completed", stopReason: "end_turn" },
    ]);
    expect(seen).toEqual(["status:started", "start", "Hel", "lo", "stop", "status:completed"]);
  });

  it("2. dispatches meta events to their handlers at once, never reordered against block events", () => {
    const timeline = new Timeline();
    const log: string[] = [];
    timeline.onUsage((e) => log.push(`usage:${e.outputTokens}`));
    timeline.onPing(() => log.push("ping"));
    timeline.onError((e) => log.push(`error:${e.message}`));
    timeline.onTextBlock((e) => log.push(e.kind === "text" ? `text:${e.text}` : e.kind));
    dispatchAll(timeline, [
      start(0),
      text(0, "a"),
      usage(1),
      text(0, "b"),
      { type: "ping" },
      stop(0, "text"),
      { type: "error", kind: "server", message: "boom" },
    ]);
    expect(log).toEqual(["start", "text:a", "usage:1", "text:b", "ping", "stop", "error:boom"]);
  });

  it("3. turns block events into lifecycle events of the block's kind", () => {
    const timeline = new Timeline();
    const texts: TextBlockEvent[] = [];
    const tools: ToolUseBlockEvent[] = [];
    const thoughts: string[] = [];
    timeline.onTextBlock((e) => texts.push(e));
    timeline.onToolUseBlock((e) => tools.push(e));
    timeline.onThinkingBlock((e) => thoughts.push(e.kind === "thinking" ? e.text : e.kind));
    dispatchAll(timeline, [
      start(0, "thinking"),
      thinking(0, "hmm"),
      { type: "block_delta", index: 0, delta: { kind: "signature", signature: "sig" } },
      stop(0, "thinking"),
      start(1),
      text(1, "hi"),
      { type: "block_stop", index: 1, blockType: "text", stopReason: "end_turn" },
      toolStart(2, "call_9", "search"),
      json(2, '{"q":'),
      json(2, '"x"}'),
      stop(2, "tool_use"),
    ]);
    expect(thoughts).toEqual(["start", "hmm", "signature", "stop"]);
    expect(texts).toMatchObject([
      { kind: "start", index: 1, blockType: "text" },
      { kind: "text", text: "hi" },
      { kind: "stop", index: 1, stopReason: "end_turn" },
    ]);
    expect(tools).toMatchObject([
      { kind: "start", index: 2, id: "call_9", name: "search" },
      { kind: "input_json", json: '{"q":' },
      { kind: "input_json", json: '"x"}' },
      // The stop repeats the call's identity, as the seed's ToolUseBlockStop does.
      { kind: "stop", index: 2, id: "call_9", name: "search" },
    ]);
  });

  it("3. hands a delta on as the decoder's own object (no copy per delta)", () => {
    const timeline = new Timeline();
    const received: unknown[] = [];
    timeline.onTextBlock((e) => received.push(e));
    const delta = text(0, "x");
    dispatchAll(timeline, [start(0), delta]);
    expect(received[1]).toBe((delta as Event & { type: "block_delta" }).delta);
  });

  it("3. delivers to a kind only the deltas that belong to it", () => {
    const timeline = new Timeline();
    const seen: string[] = [];
    timeline.onTextBlock((e) => seen.push(e.kind));
    dispatchAll(timeline, [start(0), text(0, "a"), json(0, "{}"), thinking(0, "t"), stop(0, "text")]);
    expect(seen).toEqual(["start", "text", "stop"]);
  });

  it("4. creates each handler's scope at block start and destroys it at stop", () => {
    const timeline = new Timeline();
    const first = new ScopeRecorder();
    const second = new ScopeRecorder();
    timeline.onTextBlock(first);
    timeline.onTextBlock(second);
    dispatchAll(timeline, [start(0), text(0, "a"), stop(0, "text"), start(1), text(1, "b"), stop(1, "text")]);
    expect(first.created).toBe(2);
    expect(first.log).toEqual([
      { scope: 1, event: "start" },
      { scope: 1, event: "text:a" },
      { scope: 1, event: "stop" },
      { scope: 2, event: "start" },
      { scope: 2, event: "text:b" },
      { scope: 2, event: "stop" },
    ]);
    // Each handler has a scope of its own.
    expect(second.created).toBe(2);
  });

  it("4. destroys the scope at abort, and the handler sees the abort", () => {
    const timeline = new Timeline();
    const recorder = new ScopeRecorder();
    timeline.onTextBlock(recorder);
    dispatchAll(timeline, [
      start(0),
      text(0, "a"),
      { type: "block_abort", index: 0, blockType: "text", reason: "connection reset" },
      text(1, "b"),
    ]);
    expect(recorder.log).toEqual([
      { scope: 1, event: "start" },
      { scope: 1, event: "text:a" },
      { scope: 1, event: "abort" },
      // The delta after the abort opens a new scope (implicitly: it had no start).
      { scope: 2, event: "text:b" },
    ]);
  });

  it("5. dispatches to handlers in registration order", () => {
    const timeline = new Timeline();
    const order: string[] = [];
    for (const name of ["a", "b", "c"]) {
      timeline.onTextBlock(() => order.push(`text ${name}`));
      timeline.onUsage(() => order.push(`usage ${name}`));
    }
    dispatchAll(timeline, [start(0), usage(1)]);
    expect(order).toEqual(["text a", "text b", "text c", "usage a", "usage b", "usage c"]);
  });

  it("6. opens a scope implicitly when a delta arrives with no block start", () => {
    const timeline = new Timeline();
    const recorder = new ScopeRecorder();
    timeline.onTextBlock(recorder);
    dispatchAll(timeline, [text(0, "a"), text(0, "b"), stop(0, "text")]);
    expect(recorder.created).toBe(1);
    expect(recorder.log.map((l) => l.event)).toEqual(["text:a", "text:b", "stop"]);
    expect(timeline.currentBlock).toBeUndefined();
  });

  it("6. an implicit block takes its kind from the delta (a tool call gets an empty id and name)", () => {
    const timeline = new Timeline();
    const tools: ToolUseBlockEvent[] = [];
    timeline.onToolUseBlock((e) => tools.push(e));
    timeline.onTextBlock(() => {
      throw new Error("text handlers must not see a tool call");
    });
    dispatchAll(timeline, [json(3, "{}"), stop(3, "tool_use")]);
    expect(tools).toEqual([
      { kind: "input_json", json: "{}" },
      { kind: "stop", index: 3, id: "", name: "", providerData: undefined },
    ]);
  });
});

describe("Timeline: scopes and kinds", () => {
  it("gives a meta handler one scope for as long as it is registered, created at registration", () => {
    const timeline = new Timeline();
    let created = 0;
    const totals: number[] = [];
    timeline.onUsage({
      createScope: () => {
        created++;
        return { calls: 0 };
      },
      onEvent: (scope, _event) => {
        scope.calls++;
        totals.push(scope.calls);
      },
    });
    expect(created).toBe(1);
    dispatchAll(timeline, [usage(1), start(0), stop(0, "text"), usage(2), usage(3)]);
    expect(totals).toEqual([1, 2, 3]);
    expect(created).toBe(1);
  });

  it("routes tool_result blocks to text handlers", () => {
    const timeline = new Timeline();
    const texts: TextBlockEvent[] = [];
    timeline.onTextBlock((e) => texts.push(e));
    dispatchAll(timeline, [start(0, "tool_result"), text(0, "42"), stop(0, "tool_result")]);
    expect(texts).toMatchObject([
      { kind: "start", index: 0, blockType: "tool_result", toolUseId: "call_1" },
      { kind: "text", text: "42" },
      { kind: "stop", index: 0 },
    ]);
  });

  it("does not dispatch redacted_thinking or server tool blocks to the seed kinds; raw handlers see them", () => {
    const timeline = new Timeline();
    const seedKinds: string[] = [];
    timeline.onTextBlock((e) => seedKinds.push(`text ${e.kind}`));
    timeline.onThinkingBlock((e) => seedKinds.push(`thinking ${e.kind}`));
    timeline.onToolUseBlock((e) => seedKinds.push(`tool ${e.kind}`));
    const raw: string[] = [];
    timeline.onRawBlock((e) =>
      raw.push(`${e.type} ${e.type === "block_delta" ? e.delta.kind : e.blockType}`),
    );
    dispatchAll(timeline, [
      { type: "block_start", index: 0, blockType: "redacted_thinking", data: "xyz" },
      stop(0, "redacted_thinking"),
      { type: "block_start", index: 1, blockType: "server_tool_use", id: "srv_1", name: "web_search" },
      json(1, '{"query":"x"}'),
      stop(1, "server_tool_use"),
      { type: "block_start", index: 2, blockType: "server_tool_result", toolUseId: "srv_1", resultType: "r" },
      stop(2, "server_tool_result"),
      start(3),
      text(3, "ok"),
      stop(3, "text"),
    ]);
    expect(seedKinds).toEqual(["text start", "text text", "text stop"]);
    expect(raw).toEqual([
      "block_start redacted_thinking",
      "block_stop redacted_thinking",
      "block_start server_tool_use",
      "block_delta input_json",
      "block_stop server_tool_use",
      "block_start server_tool_result",
      "block_stop server_tool_result",
      "block_start text",
      "block_delta text",
      "block_stop text",
    ]);
  });

  it("gives a handler registered in the middle of a block an implicit scope at its next event", () => {
    const timeline = new Timeline();
    dispatchAll(timeline, [start(0), text(0, "early")]);
    const late = new ScopeRecorder();
    timeline.onTextBlock(late);
    dispatchAll(timeline, [text(0, "late"), stop(0, "text")]);
    expect(late.log).toEqual([
      { scope: 1, event: "text:late" },
      { scope: 1, event: "stop" },
    ]);
  });

  it("ignores a stop or abort when no block is open", () => {
    const timeline = new Timeline();
    const recorder = new ScopeRecorder();
    timeline.onTextBlock(recorder);
    dispatchAll(timeline, [
      start(0),
      stop(0, "text"),
      stop(0, "text"),
      { type: "block_abort", index: 0, blockType: "text", reason: "late" },
    ]);
    expect(recorder.log.map((l) => l.event)).toEqual(["start", "stop"]);
  });

  it("aborts a block that is still open when the next one starts", () => {
    const timeline = new Timeline();
    const events: TextBlockEvent[] = [];
    timeline.onTextBlock((e) => events.push(e));
    dispatchAll(timeline, [start(0), text(0, "a"), start(1), stop(1, "text")]);
    expect(events.map((e) => e.kind)).toEqual(["start", "text", "abort", "start", "stop"]);
    expect(events[2]).toEqual({
      kind: "abort",
      index: 0,
      reason: "block 0 was still open when block 1 started",
    });
  });

  it("rejects a handler whose scope type does not match its events (compile time)", () => {
    const timeline = new Timeline();
    const wrongKind: Handler<ToolUseBlockKind, { json: string }> = {
      createScope: () => ({ json: "" }),
      onEvent: () => {},
    };
    // @ts-expect-error a tool-use handler cannot be registered for text blocks
    const unsubscribe = timeline.onTextBlock(wrongKind);
    expect(typeof unsubscribe).toBe("function");
  });
});

describe("Timeline.abortCurrentBlock", () => {
  it("emits an abort for the open block to its handlers and ends their scopes", () => {
    const timeline = new Timeline();
    const tools: ToolUseBlockEvent[] = [];
    const raw: string[] = [];
    timeline.onToolUseBlock((e) => tools.push(e));
    timeline.onRawBlock((e) => raw.push(e.type));
    dispatchAll(timeline, [toolStart(0, "call_1", "run"), json(0, '{"cmd":')]);
    expect(timeline.currentBlock).toMatchObject({ index: 0, blockType: "tool_use" });
    expect(timeline.abortCurrentBlock("cancelled by the user")).toBe(true);
    expect(tools.at(-1)).toEqual({
      kind: "abort",
      index: 0,
      id: "call_1",
      name: "run",
      synthesizedId: undefined,
      reason: "cancelled by the user",
    });
    expect(raw).toEqual(["block_start", "block_delta", "block_abort"]);
    expect(timeline.currentBlock).toBeUndefined();
  });

  it("does nothing when no block is open", () => {
    const timeline = new Timeline();
    const seen: string[] = [];
    timeline.onTextBlock((e) => seen.push(e.kind));
    expect(timeline.abortCurrentBlock()).toBe(false);
    dispatchAll(timeline, [start(0), stop(0, "text")]);
    expect(timeline.abortCurrentBlock()).toBe(false);
    expect(seen).toEqual(["start", "stop"]);
  });
});
