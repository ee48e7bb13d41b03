/**
 * The Timeline (seed 002): receives the flat event stream and dispatches it to handlers, turning
 * block events into per-kind lifecycles with a scope per handler and block. Rules are in DESIGN.md.
 */
import type {
  BlockAbortEvent,
  BlockDeltaEvent,
  BlockStartEvent,
  BlockStopEvent,
  BlockType,
} from "../llm-client/event.js";
import type {
  ErrorEvent,
  PingEvent,
  RawBlockEvent,
  StatusEvent,
  TextBlockEvent,
  ThinkingBlockEvent,
  TimelineEvent,
  ToolUseBlockEvent,
  ToolUseIdentity,
  UsageEvent,
} from "./event.js";
import type {
  AnyHandler,
  ErrorEventKind,
  Kind,
  PingKind,
  RawBlockKind,
  StatusKind,
  TextBlockKind,
  ThinkingBlockKind,
  ToolUseBlockKind,
  Unsubscribe,
  UsageKind,
} from "./handler.js";
import { type HandlerFailure, TimelineHandlerError } from "./handler-error.js";
import { asHandler, labelOf, SubscriberList, Subscription } from "./subscription.js";

/** Which seed kind a block type goes to; `undefined`: none (raw block handlers only). */
type Route = "text" | "thinking" | "tool_use" | undefined;

/** The one block open at a time (seed: `current_block`). */
interface OpenBlock {
  readonly index: number;
  readonly blockType: BlockType;
  readonly route: Route;
  /** For `tool_use`: what stop and abort repeat to handlers. */
  readonly tool: ToolUseIdentity | undefined;
}

/** Where a scope stands when an event is delivered. */
type Phase = "start" | "within" | "end";

const ROUTES: Readonly<Record<BlockType, Route>> = {
  text: "text",
  tool_result: "text",
  thinking: "thinking",
  tool_use: "tool_use",
  redacted_thinking: undefined,
  server_tool_use: undefined,
  server_tool_result: undefined,
};

export class Timeline {
  private readonly usage = new SubscriberList<UsageEvent>();
  private readonly ping = new SubscriberList<PingEvent>();
  private readonly status = new SubscriberList<StatusEvent>();
  private readonly error = new SubscriberList<ErrorEvent>();
  private readonly text = new SubscriberList<TextBlockEvent>();
  private readonly thinking = new SubscriberList<ThinkingBlockEvent>();
  private readonly toolUse = new SubscriberList<ToolUseBlockEvent>();
  private readonly raw = new SubscriberList<RawBlockEvent>();

  private block: OpenBlock | undefined;
  /** Handlers that threw during the dispatch under way; thrown together at its end. */
  private failures: HandlerFailure[] | undefined;
  private registrations = 0;

  /** The open block, if any. */
  get currentBlock(): { readonly index: number; readonly blockType: BlockType } | undefined {
    return this.block;
  }

  onUsage<S = undefined>(handler: AnyHandler<UsageKind, S>): Unsubscribe {
    return this.addMeta(this.usage, "usage", handler);
  }

  onPing<S = undefined>(handler: AnyHandler<PingKind, S>): Unsubscribe {
    return this.addMeta(this.ping, "ping", handler);
  }

  onStatus<S = undefined>(handler: AnyHandler<StatusKind, S>): Unsubscribe {
    return this.addMeta(this.status, "status", handler);
  }

  onError<S = undefined>(handler: AnyHandler<ErrorEventKind, S>): Unsubscribe {
    return this.addMeta(this.error, "error", handler);
  }

  /** Text blocks, and `tool_result` blocks (the seed routes them as text). */
  onTextBlock<S = undefined>(handler: AnyHandler<TextBlockKind, S>): Unsubscribe {
    return this.add(this.text, "text_block", handler);
  }

  onThinkingBlock<S = undefined>(handler: AnyHandler<ThinkingBlockKind, S>): Unsubscribe {
    return this.add(this.thinking, "thinking_block", handler);
  }

  onToolUseBlock<S = undefined>(handler: AnyHandler<ToolUseBlockKind, S>): Unsubscribe {
    return this.add(this.toolUse, "tool_use_block", handler);
  }

  /**
   * Every block of every type as the flat llm-client events, after the block's own kind handlers:
   * the way to see `redacted_thinking` and server tool blocks, which have no seed kind.
   */
  onRawBlock<S = undefined>(handler: AnyHandler<RawBlockKind, S>): Unsubscribe {
    return this.add(this.raw, "raw_block", handler);
  }

  /**
   * Delivers one event. Meta events go out at once, in arrival order with the block events around
   * them. If handlers threw, the event still reached every other handler and scopes were kept
   * straight; then this throws a `TimelineHandlerError` naming them.
   */
  dispatch(event: TimelineEvent): void {
    const outer = this.failures;
    this.failures = undefined;
    switch (event.type) {
      case "usage":
        this.deliver(this.usage.items, event, "usage", "within");
        break;
      case "ping":
        this.deliver(this.ping.items, event, "ping", "within");
        break;
      case "status":
        this.deliver(this.status.items, event, "status", "within");
        break;
      case "error":
        this.deliver(this.error.items, event, "error", "within");
        break;
      case "block_start":
        this.startBlock(event);
        break;
      case "block_delta":
        this.continueBlock(event);
        break;
      case "block_stop":
        this.stopBlock(event);
        break;
      case "block_abort":
        this.abortBlock(event.reason, event);
        break;
    }
    this.throwFailures(outer);
  }

  /**
   * Aborts the open block (cancellation, a failed turn): its handlers get an abort event and lose
   * their scopes. Returns whether a block was open.
   */
  abortCurrentBlock(reason = "aborted"): boolean {
    const outer = this.failures;
    this.failures = undefined;
    const aborted = this.abortBlock(reason, undefined);
    this.throwFailures(outer);
    return aborted;
  }

  private startBlock(event: BlockStartEvent): void {
    if (this.block) {
      this.abortBlock(
        `block ${this.block.index} was still open when block ${event.index} started`,
        undefined,
      );
    }
    const route = ROUTES[event.blockType];
    const index = event.index;
    let tool: ToolUseIdentity | undefined;
    if (event.blockType === "tool_use") {
      tool = { index, id: event.id, name: event.name, synthesizedId: event.synthesizedId };
    }
    this.block = { index, blockType: event.blockType, route, tool };
    const providerData = event.providerData;
    if (route === "text" && this.text.items.length > 0) {
      const blockType = event.blockType === "tool_result" ? "tool_result" : "text";
      const toolUseId = event.blockType === "tool_result" ? event.toolUseId : undefined;
      const start: TextBlockEvent = { kind: "start", index, blockType, toolUseId, providerData };
      this.deliver(this.text.items, start, "start", "start");
    } else if (route === "thinking" && this.thinking.items.length > 0) {
      this.deliver(this.thinking.items, { kind: "start", index, providerData }, "start", "start");
    } else if (tool && this.toolUse.items.length > 0) {
      this.deliver(this.toolUse.items, { kind: "start", ...tool, providerData }, "start", "start");
    }
    this.deliver(this.raw.items, event, "block_start", "start");
  }

  // The hot path: a delta is handed on as the decoder's own object, to the open block's kind only.
  private continueBlock(event: BlockDeltaEvent): void {
    const block = this.block ?? this.openImplicitly(event);
    const delta = event.delta;
    const kind = delta.kind;
    switch (block.route) {
      case "text":
        if (kind === "text" || kind === "citation" || kind === "signature") {
          this.deliver(this.text.items, delta, kind, "within");
        }
        break;
      case "thinking":
        if (kind === "thinking" || kind === "signature") {
          this.deliver(this.thinking.items, delta, kind, "within");
        }
        break;
      case "tool_use":
        if (kind === "input_json" || kind === "signature") {
          this.deliver(this.toolUse.items, delta, kind, "within");
        }
        break;
    }
    this.deliver(this.raw.items, event, "block_delta", "within");
  }

  /** A delta with no start (seed: implicit scope start): the block's type follows the delta. */
  private openImplicitly(event: BlockDeltaEvent): OpenBlock {
    const kind = event.delta.kind;
    const blockType: BlockType =
      kind === "thinking" || kind === "signature" ? "thinking" : kind === "input_json" ? "tool_use" : "text";
    const index = event.index;
    const tool = blockType === "tool_use" ? { index, id: "", name: "" } : undefined;
    const block: OpenBlock = { index, blockType, route: ROUTES[blockType], tool };
    this.block = block;
    return block;
  }

  private stopBlock(event: BlockStopEvent): void {
    const block = this.block;
    // A stop with nothing open (a repeated stop) has no scope to end: ignored.
    if (!block) return;
    this.block = undefined;
    const index = block.index;
    const providerData = event.providerData;
    if (block.route === "text" && this.text.items.length > 0) {
      const stop: TextBlockEvent = { kind: "stop", index, stopReason: event.stopReason, providerData };
      this.deliver(this.text.items, stop, "stop", "end");
    } else if (block.route === "thinking" && this.thinking.items.length > 0) {
      this.deliver(this.thinking.items, { kind: "stop", index, providerData }, "stop", "end");
    } else if (block.tool && this.toolUse.items.length > 0) {
      this.deliver(this.toolUse.items, { kind: "stop", ...block.tool, providerData }, "stop", "end");
    }
    this.deliver(this.raw.items, event, "block_stop", "end");
  }

  private abortBlock(reason: string, event: BlockAbortEvent | undefined): boolean {
    const block = this.block;
    if (!block) return false;
    this.block = undefined;
    const index = block.index;
    if (block.route === "text" && this.text.items.length > 0) {
      this.deliver(this.text.items, { kind: "abort", index, reason }, "abort", "end");
    } else if (block.route === "thinking" && this.thinking.items.length > 0) {
      this.deliver(this.thinking.items, { kind: "abort", index, reason }, "abort", "end");
    } else if (block.tool && this.toolUse.items.length > 0) {
      this.deliver(this.toolUse.items, { kind: "abort", ...block.tool, reason }, "abort", "end");
    }
    if (this.raw.items.length > 0) {
      const raw = event ?? { type: "block_abort", index, blockType: block.blockType, reason };
      this.deliver(this.raw.items, raw, "block_abort", "end");
    }
    return true;
  }

  /**
   * Hands one event to every live handler of a kind, in registration order, opening a scope where
   * the phase or an implicit start calls for one and closing it at the end. A handler that throws
   * is recorded and the others still get the event.
   */
  private deliver<E>(subs: readonly Subscription<E>[], event: E, eventName: string, phase: Phase): void {
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[i] as Subscription<E>;
      if (!sub.active) continue;
      try {
        if (phase === "start" || !sub.open) sub.openScope();
        sub.handler.onEvent(sub.scope, event);
      } catch (error) {
        this.recordFailure({ handler: sub.label, kind: sub.kind, event: eventName, error });
      }
      if (phase === "end") sub.closeScope();
    }
  }

  private recordFailure(failure: HandlerFailure): void {
    if (this.failures) this.failures.push(failure);
    else this.failures = [failure];
  }

  private throwFailures(outer: HandlerFailure[] | undefined): void {
    const failures = this.failures;
    this.failures = outer;
    if (failures) throw new TimelineHandlerError(failures);
  }

  private addMeta<E, S>(list: SubscriberList<E>, kind: string, handler: AnyHandler<Kind<E>, S>): Unsubscribe {
    const sub = this.subscription(kind, handler);
    // Meta scopes live as long as the registration (seed: started at registration).
    sub.openScope();
    return this.register(list, sub);
  }

  private add<E, S>(list: SubscriberList<E>, kind: string, handler: AnyHandler<Kind<E>, S>): Unsubscribe {
    return this.register(list, this.subscription(kind, handler));
  }

  private subscription<E, S>(kind: string, handler: AnyHandler<Kind<E>, S>): Subscription<E> {
    const registration = ++this.registrations;
    return new Subscription(asHandler(handler), labelOf(handler, registration), kind);
  }

  private register<E>(list: SubscriberList<E>, sub: Subscription<E>): Unsubscribe {
    list.add(sub);
    return () => {
      if (!sub.active) return;
      sub.active = false;
      sub.closeScope();
      list.remove(sub);
    };
  }
}
