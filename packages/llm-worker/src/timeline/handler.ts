/**
 * Kind and Handler (seed 002, `handler.rs`): a Kind fixes the event type, a Handler decides what to
 * do with it and what it keeps between events of one block (its scope).
 */
import type {
  ErrorEvent,
  PingEvent,
  RawBlockEvent,
  StatusEvent,
  TextBlockEvent,
  ThinkingBlockEvent,
  ToolUseBlockEvent,
  UsageEvent,
} from "./event.js";

/**
 * A kind of event a handler subscribes to. It exists only in types: it names the event type
 * (seed: `trait Kind { type Event }`), so `Handler<TextBlockKind, S>` receives `TextBlockEvent`s.
 * Layers above define their own kinds the same way (`Kind<string>` for "text complete").
 */
export interface Kind<E = unknown> {
  readonly event: E;
}

/** The event type of a kind. */
export type EventOf<K extends Kind> = K["event"];

// Meta kinds: one-off events, dispatched the moment they arrive.
export type UsageKind = Kind<UsageEvent>;
export type PingKind = Kind<PingEvent>;
export type StatusKind = Kind<StatusEvent>;
/** The seed's `ErrorKind`, renamed: llm-client's `ErrorKind` already names the error categories. */
export type ErrorEventKind = Kind<ErrorEvent>;
export type MetaKind = UsageKind | PingKind | StatusKind | ErrorEventKind;

// Block kinds: a lifecycle (start, deltas, stop or abort) with a scope per block.
export type TextBlockKind = Kind<TextBlockEvent>;
export type ThinkingBlockKind = Kind<ThinkingBlockEvent>;
export type ToolUseBlockKind = Kind<ToolUseBlockEvent>;
/** Every block of every type, as the flat llm-client events (not a seed kind; see DESIGN.md). */
export type RawBlockKind = Kind<RawBlockEvent>;
export type BlockKind = TextBlockKind | ThinkingBlockKind | ToolUseBlockKind | RawBlockKind;

/**
 * Handles the events of kind `K`, keeping state of type `S` (its scope) between them.
 *
 * A block handler gets a fresh scope from `createScope()` at every block start (or at the first
 * event of a block that had no start) and loses it at the block's stop or abort. A meta handler
 * gets one scope at registration, for as long as it stays registered. A scope is handed over by
 * reference, so it must be an object for the handler to change it (`{ text: "" }`, not `""`).
 *
 * `name` (or the class name) identifies the handler when it throws.
 */
export interface Handler<K extends Kind, S = undefined> {
  readonly name?: string;
  createScope(): S;
  onEvent(scope: S, event: EventOf<K>): void;
}

/** The short form of a handler that keeps no scope. */
export type HandlerFunction<K extends Kind> = (event: EventOf<K>) => void;

/** A handler in either form, as the registration methods accept it. */
export type AnyHandler<K extends Kind, S> = Handler<K, S> | HandlerFunction<K>;

/** Removes the registration it came from; calling it again does nothing. */
export type Unsubscribe = () => void;
