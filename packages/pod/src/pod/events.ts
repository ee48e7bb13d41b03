import type { MessageItem, WorkerEvent } from "@yoake/llm-worker";
import {
  listenerIterator,
  type Unsubscribe,
  type WorkerEvents,
  type WorkerEventType,
} from "@yoake/llm-worker/internal";
import type { PermissionDecision, PermissionRequest } from "../approval/permission.js";
import type { Plan } from "../plan/plan.js";
import type { SubagentActivity } from "../subagents/task-tool.js";
import type { Alert } from "./alert.js";

/** The Pod's own events, beside its Worker's. Plain data: the protocol broadcasts them as they are. */
export type PodOwnEvent =
  | ({ type: "alert" } & Alert)
  /** A tool call waits for approval; the run is paused until `pod.respond(id, ...)`. */
  | ({ type: "permission_request" } & PermissionRequest)
  /** A request was answered, or dropped because a new run replaced the paused one (`abandoned`). */
  | {
      type: "permission_resolved";
      id: string;
      callId: string;
      tool: string;
      decision: PermissionDecision | "abandoned";
    }
  /** History grew outside a run: `added` are the notes (`pod.notify`) appended at its end. */
  | { type: "history_changed"; reason: "notify"; added: MessageItem[] }
  /**
   * History was replaced by a compaction's summary (and the files read again): the Pod now writes
   * to session `sessionId`, which continues `previousSessionId`. `auto`: the Pod compacted on its
   * own, before a request, because the prompt neared the window.
   */
  | {
      type: "history_changed";
      reason: "compact";
      auto: boolean;
      sessionId: string;
      previousSessionId: string;
    }
  /** The model wrote its plan (`todo_write`): the whole plan as kept. */
  | { type: "plan_changed"; plan: Plan }
  /**
   * A sub-agent of the `task` call `callId` started (with its session), began a tool call (`tool`,
   * a short label), or ended (`status`: finished, failed, cancelled, paused).
   */
  | ({ type: "subagent"; callId: string; description: string } & SubagentActivity);

/** Everything a Pod tells its clients: its Worker's events and its own, in the order they happen. */
export type PodEvent = WorkerEvent | PodOwnEvent;
export type PodEventType = PodEvent["type"];
export type PodEventOf<T extends PodEventType> = Extract<PodEvent, { type: T }>;

type Listener = (event: PodEvent) => void;

/** Every WorkerEvent type, checked by the compiler: a type added to WorkerEvent must be added here. */
const WORKER_EVENT_TYPES: Readonly<Record<WorkerEventType, true>> = {
  run_start: true,
  turn_start: true,
  text_delta: true,
  text_complete: true,
  thinking_delta: true,
  thinking_complete: true,
  tool_call_start: true,
  tool_call_delta: true,
  tool_call_complete: true,
  tool_progress: true,
  usage: true,
  error: true,
  retry: true,
  fallback: true,
  turn_end: true,
  tool_start: true,
  tool_end: true,
  run_end: true,
};

const isWorkerEventType = (type: string): type is WorkerEventType => Object.hasOwn(WORKER_EVENT_TYPES, type);

/**
 * One stream of Pod events, delivered synchronously, in order. Worker events are bridged only
 * while someone listens for them (the Worker converts provider events only when it has
 * listeners), and only the types someone listens for.
 */
export class PodEventHub {
  private listeners: Array<{ type: PodEventType | undefined; listener: Listener }> = [];
  private readonly bridges = new Map<WorkerEventType, Unsubscribe>();

  constructor(private readonly worker: WorkerEvents) {}

  /** Listens for one event type; returns the function that stops it. */
  on<T extends PodEventType>(type: T, handler: (event: PodEventOf<T>) => void): Unsubscribe {
    return this.add(type, handler as Listener);
  }

  /** Listens for every event. */
  listen(listener: Listener): Unsubscribe {
    return this.add(undefined, listener);
  }

  /**
   * Every event from now on as an async iterable; breaking out of the loop stops it. Events queue
   * while the consumer is busy, so none are lost.
   */
  events(): AsyncIterableIterator<PodEvent> {
    return listenerIterator((push) => this.listen(push));
  }

  /**
   * Delivers one of the Pod's own events. Every listener is called; if any threw, the first error
   * is thrown afterwards (as the Worker does: a failing listener must not pass unnoticed).
   */
  emit(event: PodOwnEvent): void {
    this.deliver(event);
  }

  private deliver(event: PodEvent): void {
    let failure: { error: unknown } | undefined;
    for (const { type, listener } of this.listeners) {
      if (type !== undefined && type !== event.type) continue;
      try {
        listener(event);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }

  private add(type: PodEventType | undefined, listener: Listener): Unsubscribe {
    const entry = { type, listener };
    this.listeners = [...this.listeners, entry];
    this.updateBridges();
    return () => {
      this.listeners = this.listeners.filter((e) => e !== entry);
      this.updateBridges();
    };
  }

  /** Subscribes to the Worker event types someone listens for, and only those. */
  private updateBridges(): void {
    const wanted = new Set<WorkerEventType>();
    for (const { type } of this.listeners) {
      if (type === undefined) {
        for (const workerType of Object.keys(WORKER_EVENT_TYPES) as WorkerEventType[]) wanted.add(workerType);
        break;
      }
      if (isWorkerEventType(type)) wanted.add(type);
    }
    for (const [type, off] of this.bridges) {
      if (wanted.has(type)) continue;
      off();
      this.bridges.delete(type);
    }
    for (const type of wanted) {
      if (!this.bridges.has(type))
        this.bridges.set(
          type,
          this.worker.on(type, (event) => this.deliver(event)),
        );
    }
  }
}
