import type { Event } from "../llm-client/event.js";
import type { SchemeName } from "../llm-client/item.js";
import type { ToolUseBlockEvent } from "../timeline/event.js";
import type { Unsubscribe } from "../timeline/handler.js";
import { TimelineHandlerError } from "../timeline/handler-error.js";
import { ResponseCollector } from "../timeline/response-collector.js";
import { Timeline } from "../timeline/timeline.js";
import type { WorkerEvent, WorkerEventOf, WorkerEventType } from "./events.js";
import { HookError } from "./hook-runner.js";
import { listenerIterator } from "./listener-iterator.js";

type Listener = (event: WorkerEvent) => void;

/**
 * Where a Worker's events go. Provider events go through the Timeline once (seed 002): the
 * `ResponseCollector` registered on it first builds each response and its `*_complete` events,
 * and the embedder's typed handlers follow. The flat `WorkerEvent`s are Timeline handlers too, and
 * cost one check per event while nobody listens.
 */
export class EventHub {
  readonly timeline = new Timeline();
  /** The response of the request under way; `begin()` it per request. */
  readonly responses: ResponseCollector;
  private listeners: Listener[] = [];

  constructor(origin: SchemeName) {
    this.responses = new ResponseCollector(this.timeline, origin, (done) => this.heard() && this.emit(done));
    const index = (): number => this.timeline.currentBlock?.index ?? 0;
    this.timeline.onTextBlock((e) => {
      if (e.kind === "text" && this.heard()) this.emit({ type: "text_delta", index: index(), text: e.text });
    });
    this.timeline.onThinkingBlock((e) => {
      if (e.kind === "thinking" && this.heard())
        this.emit({ type: "thinking_delta", index: index(), text: e.text });
    });
    this.timeline.onToolUseBlock({
      name: "tool call events",
      createScope: () => ({ callId: "" }),
      onEvent: (scope: { callId: string }, e: ToolUseBlockEvent) => {
        if (e.kind === "start") {
          scope.callId = e.id;
          if (this.heard())
            this.emit({ type: "tool_call_start", index: e.index, callId: e.id, name: e.name });
        } else if (e.kind === "input_json" && this.heard()) {
          this.emit({ type: "tool_call_delta", index: index(), callId: scope.callId, json: e.json });
        }
      },
    });
    this.timeline.onUsage(({ type: _type, ...usage }) => this.heard() && this.emit({ type: "usage", usage }));
    this.timeline.onError(({ type: _type, ...error }) => this.heard() && this.emit({ type: "error", error }));
  }

  /**
   * A provider event, through the Timeline. Throws a HookError if a handler or listener threw (the
   * listener's own, if it was one; else naming the first handler that threw).
   */
  dispatch(event: Event): void {
    try {
      this.responses.dispatch(event);
    } catch (err) {
      throw asHookError(err);
    }
  }

  /** Aborts the Timeline's open block (the run stopped without the provider saying so). */
  abortOpenBlock(reason: string): void {
    try {
      this.timeline.abortCurrentBlock(reason);
    } catch {
      // The run is already ending for another reason; a handler failing on the abort adds nothing.
    }
  }

  emit(event: WorkerEvent): void {
    const failures: unknown[] = [];
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length > 0) throw new HookError(`a ${event.type} listener`, "event dispatch", failures[0]);
  }

  on<T extends WorkerEventType>(type: T, handler: (event: WorkerEventOf<T>) => void): Unsubscribe {
    return this.listen((event) => {
      if (event.type === type) handler(event as WorkerEventOf<T>);
    });
  }

  listen(listener: Listener): Unsubscribe {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /**
   * Every WorkerEvent from now on as an async iterable; stopping the iteration unsubscribes. Events
   * queue while the consumer is busy, so none are lost.
   */
  events(until?: (event: WorkerEvent) => boolean): AsyncIterableIterator<WorkerEvent> {
    return listenerIterator((push) => this.listen(push), until ? { until } : {});
  }

  private heard(): boolean {
    return this.listeners.length > 0;
  }
}

function asHookError(err: unknown): unknown {
  if (!(err instanceof TimelineHandlerError)) return err;
  const failure = err.failures[0];
  if (failure?.error instanceof HookError) return failure.error;
  const name = failure ? `${failure.kind} handler ${failure.handler}` : "a Timeline handler";
  return new HookError(name, "event dispatch", err);
}
