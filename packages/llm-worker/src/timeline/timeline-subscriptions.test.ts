import { describe, expect, it } from "vitest";
import type { BlockType, Event } from "../llm-client/event.js";
import type { TextBlockEvent } from "./event.js";
import type { Handler, TextBlockKind } from "./handler.js";
import { TimelineHandlerError } from "./handler-error.js";
import { Timeline } from "./timeline.js";

const start = (index: number): Event => ({ type: "block_start", index, blockType: "text" });
const text = (index: number, t: string): Event => ({
  type: "block_delta",
  index,
  delta: { kind: "text", text: t },
});
const stop = (index: number, blockType: BlockType = "text"): Event => ({
  type: "block_stop",
  index,
  blockType,
});

function dispatchAll(timeline: Timeline, events: Event[]): void {
  for (const event of events) timeline.dispatch(event);
}

describe("Timeline: unsubscribing", () => {
  it("stops delivery to that handler only", () => {
    const timeline = new Timeline();
    const a: string[] = [];
    const b: string[] = [];
    const offA = timeline.onTextBlock((e) => a.push(e.kind));
    timeline.onTextBlock((e) => b.push(e.kind));
    dispatchAll(timeline, [start(0), text(0, "x")]);
    offA();
    offA(); // a second call does nothing
    dispatchAll(timeline, [text(0, "y"), stop(0)]);
    expect(a).toEqual(["start", "text"]);
    expect(b).toEqual(["start", "text", "text", "stop"]);
  });

  it("is safe during dispatch: a handler removing itself and the next one", () => {
    const timeline = new Timeline();
    const log: string[] = [];
    let offSelf = () => {};
    let offNext = () => {};
    timeline.onTextBlock((e) => log.push(`first ${e.kind}`));
    offSelf = timeline.onTextBlock((e) => {
      log.push(`second ${e.kind}`);
      offSelf();
      offNext();
    });
    offNext = timeline.onTextBlock((e) => log.push(`third ${e.kind}`));
    timeline.onTextBlock((e) => log.push(`fourth ${e.kind}`));
    dispatchAll(timeline, [start(0), stop(0)]);
    expect(log).toEqual(["first start", "second start", "fourth start", "first stop", "fourth stop"]);
  });

  it("a handler registered during dispatch does not receive the event being dispatched", () => {
    const timeline = new Timeline();
    const late: string[] = [];
    let registered = false;
    timeline.onUsage(() => {
      if (registered) return;
      registered = true;
      timeline.onUsage((e) => late.push(`usage ${e.outputTokens}`));
    });
    dispatchAll(timeline, [
      { type: "usage", outputTokens: 1, raw: null },
      { type: "usage", outputTokens: 2, raw: null },
    ]);
    expect(late).toEqual(["usage 2"]);
  });

  it("drops the unsubscribed handler's scope: re-registering starts fresh", () => {
    const timeline = new Timeline();
    const handler: Handler<TextBlockKind, { text: string }> & { results: string[] } = {
      results: [],
      createScope: () => ({ text: "" }),
      onEvent(scope, event) {
        if (event.kind === "text") scope.text += event.text;
        if (event.kind === "stop") this.results.push(scope.text);
      },
    };
    const off = timeline.onTextBlock(handler);
    dispatchAll(timeline, [start(0), text(0, "lost")]);
    off();
    timeline.onTextBlock(handler);
    dispatchAll(timeline, [text(0, "kept"), stop(0)]);
    expect(handler.results).toEqual(["kept"]);
  });
});

describe("Timeline: a handler that throws", () => {
  it("the event still reaches the other handlers, then dispatch throws naming the handler", () => {
    const timeline = new Timeline();
    const others: string[] = [];
    timeline.onTextBlock((e) => others.push(`before ${e.kind}`));
    timeline.onTextBlock(function brokenUi(e: TextBlockEvent) {
      if (e.kind === "text") throw new Error("render failed");
    });
    timeline.onTextBlock((e) => others.push(`after ${e.kind}`));
    timeline.dispatch(start(0));
    let thrown: unknown;
    try {
      timeline.dispatch(text(0, "x"));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(TimelineHandlerError);
    const error = thrown as TimelineHandlerError;
    expect(error.handler).toBe("brokenUi");
    expect(error.message).toBe('text_block handler brokenUi threw on event "text": render failed');
    expect((error.cause as Error).message).toBe("render failed");
    expect(others).toEqual(["before start", "after start", "before text", "after text"]);
    // The scopes were kept straight: the block goes on and ends normally.
    timeline.dispatch(stop(0));
    expect(others.slice(-2)).toEqual(["before stop", "after stop"]);
    expect(timeline.currentBlock).toBeUndefined();
  });

  it("names a class handler by its class, an anonymous one by its registration number", () => {
    class StatusLogger implements Handler<{ event: unknown }, undefined> {
      createScope() {
        return undefined;
      }
      onEvent() {
        throw new Error("no disk");
      }
    }
    const timeline = new Timeline();
    timeline.onStatus(new StatusLogger());
    timeline.onUsage(() => {});
    timeline.onUsage({ createScope: () => undefined, onEvent: () => {} });
    timeline.onUsage({
      createScope: () => undefined,
      onEvent: () => {
        throw "not an Error";
      },
    });
    expect(() => timeline.dispatch({ type: "status", status: "started" })).toThrow(
      'status handler StatusLogger threw on event "status": no disk',
    );
    expect(() => timeline.dispatch({ type: "usage", raw: null })).toThrow(
      'usage handler #4 threw on event "usage": not an Error',
    );
  });

  it("reports every handler that threw in one dispatch", () => {
    const timeline = new Timeline();
    timeline.onTextBlock({
      name: "first",
      createScope: () => undefined,
      onEvent: () => {
        throw new Error("one");
      },
    });
    timeline.onTextBlock({
      name: "second",
      createScope: () => undefined,
      onEvent: () => {
        throw new Error("two");
      },
    });
    try {
      timeline.dispatch(start(0));
      expect.unreachable();
    } catch (err) {
      const error = err as TimelineHandlerError;
      expect(error.message).toBe('text_block handler first threw on event "start": one (and 1 more)');
      expect(error.failures.map((f) => [f.handler, f.event, (f.error as Error).message])).toEqual([
        ["first", "start", "one"],
        ["second", "start", "two"],
      ]);
    }
  });

  it("a scope that cannot be created counts as the handler throwing, and ends the scope anyway", () => {
    const timeline = new Timeline();
    let onEventCalls = 0;
    timeline.onTextBlock({
      name: "noScope",
      createScope: () => {
        throw new Error("out of memory");
      },
      onEvent: () => {
        onEventCalls++;
      },
    });
    expect(() => timeline.dispatch(start(0))).toThrow('text_block handler noScope threw on event "start"');
    expect(onEventCalls).toBe(0);
  });

  it("abortCurrentBlock still ends the block when a handler throws on the abort", () => {
    const timeline = new Timeline();
    timeline.onTextBlock({
      name: "fragile",
      createScope: () => undefined,
      onEvent: (_s, e) => {
        if (e.kind === "abort") throw new Error("cannot mark");
      },
    });
    timeline.dispatch(start(0));
    expect(() => timeline.abortCurrentBlock("cancelled")).toThrow(
      'text_block handler fragile threw on event "abort": cannot mark',
    );
    expect(timeline.currentBlock).toBeUndefined();
  });
});
