import type { Event } from "../llm-client/event.js";
import { parseToolArguments } from "../llm-client/response.js";
import type { Unsubscribe } from "../timeline/handler.js";
import { TimelineHandlerError } from "../timeline/handler-error.js";
import { Timeline } from "../timeline/timeline.js";
import type { WorkerEvent, WorkerEventOf, WorkerEventType } from "./events.js";
import { HookError } from "./hook-runner.js";
import { listenerIterator } from "./listener-iterator.js";

type Listener = (event: WorkerEvent) => void;

/**
 * Where a Worker's events go: provider events to the Timeline (typed handlers with per-block
 * scopes, seed 002), and the flat `WorkerEvent`s to listeners and `for await` consumers. Converting
 * provider events costs nothing while nobody listens.
 */
export class EventHub {
  readonly timeline = new Timeline();
  private listeners: Listener[] = [];
  private block: { type: string; index: number; text: string; callId: string; name: string } | undefined;

  /** A provider event: to the Timeline, then as WorkerEvents. Throws a HookError if a handler threw. */
  dispatch(event: Event): void {
    try {
      this.timeline.dispatch(event);
    } catch (err) {
      const failure = err instanceof TimelineHandlerError ? err.failures[0] : undefined;
      const name = failure ? `${failure.kind} handler ${failure.handler}` : "a Timeline handler";
      throw new HookError(name, "event dispatch", err);
    }
    if (this.listeners.length > 0) this.convert(event);
  }

  /** Aborts the Timeline's open block (the run stopped without the provider saying so). */
  abortOpenBlock(reason: string): void {
    this.block = undefined;
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

  private convert(event: Event): void {
    switch (event.type) {
      case "block_start":
        this.block = {
          type: event.blockType,
          index: event.index,
          text: "",
          callId: event.blockType === "tool_use" ? event.id : "",
          name: event.blockType === "tool_use" ? event.name : "",
        };
        if (event.blockType === "tool_use") {
          this.emit({ type: "tool_call_start", index: event.index, callId: event.id, name: event.name });
        }
        return;
      case "block_delta": {
        const block = this.block;
        if (!block) return;
        const delta = event.delta;
        if (delta.kind === "text") {
          block.text += delta.text;
          this.emit({ type: "text_delta", index: event.index, text: delta.text });
        } else if (delta.kind === "thinking") {
          block.text += delta.text;
          this.emit({ type: "thinking_delta", index: event.index, text: delta.text });
        } else if (delta.kind === "input_json") {
          block.text += delta.json;
          this.emit({ type: "tool_call_delta", index: event.index, callId: block.callId, json: delta.json });
        }
        return;
      }
      case "block_stop": {
        const block = this.block;
        this.block = undefined;
        if (!block) return;
        if (block.type === "text") this.emit({ type: "text_complete", index: block.index, text: block.text });
        else if (block.type === "thinking")
          this.emit({ type: "thinking_complete", index: block.index, text: block.text });
        else if (block.type === "tool_use") {
          const parsed = parseToolArguments(block.text);
          this.emit({
            type: "tool_call_complete",
            call: {
              id: block.callId,
              name: block.name,
              argumentsText: block.text,
              arguments: parsed.value,
              ...(parsed.error !== undefined && { parseError: parsed.error }),
            },
          });
        }
        return;
      }
      case "block_abort":
        this.block = undefined;
        return;
      case "usage": {
        const { type: _type, ...usage } = event;
        this.emit({ type: "usage", usage });
        return;
      }
      case "error": {
        const { type: _type, ...error } = event;
        this.emit({ type: "error", error });
        return;
      }
      default:
        return;
    }
  }
}
