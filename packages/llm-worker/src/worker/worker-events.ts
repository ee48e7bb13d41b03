import type { ErrorEvent, StatusEvent, UsageEvent } from "../llm-client/event.js";
import type { ToolResultItem } from "../llm-client/item.js";
import type { ToolCall } from "../llm-client/response.js";
import type { TextBlockEvent, ThinkingBlockEvent, ToolUseBlockEvent } from "../timeline/event.js";
import type {
  AnyHandler,
  ErrorEventKind,
  PingKind,
  StatusKind,
  TextBlockKind,
  ThinkingBlockKind,
  ToolUseBlockKind,
  Unsubscribe,
  UsageKind,
} from "../timeline/handler.js";
import type { EventHub } from "./event-hub.js";
import type { WorkerEvent, WorkerEventOf, WorkerEventType } from "./events.js";

/**
 * Everything a UI may implement at once (seed 001 `WorkerSubscriber`). Block methods get a scope
 * of their own per block, made by the matching `create*Scope` (a fresh object when absent), kept
 * from the block's start to its stop or abort.
 */
export interface WorkerSubscriber<TextScope = Record<string, unknown>, ToolScope = Record<string, unknown>> {
  createTextBlockScope?(): TextScope;
  onTextBlock?(scope: TextScope, event: TextBlockEvent): void;
  createToolUseBlockScope?(): ToolScope;
  onToolUseBlock?(scope: ToolScope, event: ToolUseBlockEvent): void;
  onThinkingBlock?(event: ThinkingBlockEvent): void;
  onUsage?(event: UsageEvent): void;
  onStatus?(event: StatusEvent): void;
  onError?(event: ErrorEvent): void;
  onTextComplete?(text: string): void;
  onToolCallComplete?(call: ToolCall): void;
  onTurnStart?(turn: number): void;
  onTurnEnd?(turn: number): void;
  onToolStart?(call: ToolCall): void;
  onToolEnd?(call: ToolCall, result: ToolResultItem): void;
}

/**
 * The Worker event API: the Timeline's registrations exposed as they are (typed handlers with
 * per-block scopes), plus the Worker's accumulated and lifecycle events. Every registration
 * returns its unsubscribe function.
 */
export class WorkerEvents {
  constructor(protected readonly hub: EventHub) {}

  onTextBlock<S = undefined>(handler: AnyHandler<TextBlockKind, S>): Unsubscribe {
    return this.hub.timeline.onTextBlock(handler);
  }
  onThinkingBlock<S = undefined>(handler: AnyHandler<ThinkingBlockKind, S>): Unsubscribe {
    return this.hub.timeline.onThinkingBlock(handler);
  }
  onToolUseBlock<S = undefined>(handler: AnyHandler<ToolUseBlockKind, S>): Unsubscribe {
    return this.hub.timeline.onToolUseBlock(handler);
  }
  onUsage<S = undefined>(handler: AnyHandler<UsageKind, S>): Unsubscribe {
    return this.hub.timeline.onUsage(handler);
  }
  onStatus<S = undefined>(handler: AnyHandler<StatusKind, S>): Unsubscribe {
    return this.hub.timeline.onStatus(handler);
  }
  onError<S = undefined>(handler: AnyHandler<ErrorEventKind, S>): Unsubscribe {
    return this.hub.timeline.onError(handler);
  }
  onPing<S = undefined>(handler: AnyHandler<PingKind, S>): Unsubscribe {
    return this.hub.timeline.onPing(handler);
  }
  /** A text block's whole text, once it stopped. */
  onTextComplete(handler: (text: string) => void): Unsubscribe {
    return this.hub.on("text_complete", (e) => handler(e.text));
  }
  /** A tool call with its parsed arguments, once its block stopped (before it runs). */
  onToolCallComplete(handler: (call: ToolCall) => void): Unsubscribe {
    return this.hub.on("tool_call_complete", (e) => handler(e.call));
  }
  onTurnStart(handler: (turn: number) => void): Unsubscribe {
    return this.hub.on("turn_start", (e) => handler(e.turn));
  }
  onTurnEnd(handler: (turn: number) => void): Unsubscribe {
    return this.hub.on("turn_end", (e) => handler(e.turn));
  }
  onToolStart(handler: (call: ToolCall) => void): Unsubscribe {
    return this.hub.on("tool_start", (e) => handler(e.call));
  }
  onToolEnd(handler: (call: ToolCall, result: ToolResultItem) => void): Unsubscribe {
    return this.hub.on("tool_end", (e) => handler(e.call, e.result));
  }
  /** Any one WorkerEvent type. */
  on<T extends WorkerEventType>(type: T, handler: (event: WorkerEventOf<T>) => void): Unsubscribe {
    return this.hub.on(type, handler);
  }

  /** Registers every method the subscriber has; the returned function removes them all. */
  subscribe<TS, US>(subscriber: WorkerSubscriber<TS, US>): Unsubscribe {
    const s = subscriber;
    const offs: Unsubscribe[] = [];
    if (s.onTextBlock) {
      offs.push(
        this.onTextBlock<TS>({
          createScope: () => s.createTextBlockScope?.() ?? ({} as TS),
          onEvent: (scope, event) => s.onTextBlock?.(scope, event),
        }),
      );
    }
    if (s.onToolUseBlock) {
      offs.push(
        this.onToolUseBlock<US>({
          createScope: () => s.createToolUseBlockScope?.() ?? ({} as US),
          onEvent: (scope, event) => s.onToolUseBlock?.(scope, event),
        }),
      );
    }
    if (s.onThinkingBlock) offs.push(this.onThinkingBlock((e) => s.onThinkingBlock?.(e)));
    if (s.onUsage) offs.push(this.onUsage((e) => s.onUsage?.(e)));
    if (s.onStatus) offs.push(this.onStatus((e) => s.onStatus?.(e)));
    if (s.onError) offs.push(this.onError((e) => s.onError?.(e)));
    if (s.onTextComplete) offs.push(this.onTextComplete((t) => s.onTextComplete?.(t)));
    if (s.onToolCallComplete) offs.push(this.onToolCallComplete((c) => s.onToolCallComplete?.(c)));
    if (s.onTurnStart) offs.push(this.onTurnStart((t) => s.onTurnStart?.(t)));
    if (s.onTurnEnd) offs.push(this.onTurnEnd((t) => s.onTurnEnd?.(t)));
    if (s.onToolStart) offs.push(this.onToolStart((c) => s.onToolStart?.(c)));
    if (s.onToolEnd) offs.push(this.onToolEnd((c, r) => s.onToolEnd?.(c, r)));
    return () => {
      for (const off of offs) off();
    };
  }

  /** Every WorkerEvent from now on, for `for await`; breaking out of the loop unsubscribes. */
  events(): AsyncIterableIterator<WorkerEvent> {
    return this.hub.events();
  }
}
