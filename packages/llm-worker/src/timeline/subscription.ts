/**
 * Registered handlers as the Timeline keeps them (the seed's type-erased `HandlerWrapper`): the
 * handler, its scope while one is open, and whether it is still registered. Internal to the layer.
 */
import type { AnyHandler, Handler, Kind } from "./handler.js";

export class Subscription<E> {
  /** False once unsubscribed: a dispatch already under way skips it from then on. */
  active = true;
  /** Whether `scope` holds a live scope (a scope may legitimately be `undefined`). */
  open = false;
  scope: unknown = undefined;

  constructor(
    readonly handler: Handler<Kind<E>, unknown>,
    /** How errors name it: the handler's name, else `#<registration number>`. */
    readonly label: string,
    /** The registration kind (`text_block`, `usage`, ...). */
    readonly kind: string,
  ) {}

  /** Opens a fresh scope, dropping any stale one. */
  openScope(): void {
    this.scope = this.handler.createScope();
    this.open = true;
  }

  closeScope(): void {
    this.open = false;
    this.scope = undefined;
  }
}

/**
 * The handlers of one kind, in registration order. Copy on write: (un)registering replaces the
 * array, so a dispatch iterates a snapshot with no copy per event and never sees indices shift.
 */
export class SubscriberList<E> {
  items: readonly Subscription<E>[] = [];

  add(subscription: Subscription<E>): void {
    this.items = [...this.items, subscription];
  }

  remove(subscription: Subscription<E>): void {
    this.items = this.items.filter((s) => s !== subscription);
  }
}

/** A plain function handler as a handler with no scope. */
export function asHandler<E, S>(handler: AnyHandler<Kind<E>, S>): Handler<Kind<E>, unknown> {
  if (typeof handler !== "function") return handler as Handler<Kind<E>, unknown>;
  return {
    createScope: () => undefined,
    onEvent: (_scope, event) => handler(event),
  };
}

/** A name for error messages: `name`, the class name, or the registration number. */
export function labelOf(handler: object, registration: number): string {
  if (typeof handler === "function") return handler.name || `#${registration}`;
  const own = (handler as { name?: unknown }).name;
  if (typeof own === "string" && own !== "") return own;
  const className = (Object.getPrototypeOf(handler) as { constructor?: { name?: string } } | null)
    ?.constructor?.name;
  return className && className !== "Object" ? className : `#${registration}`;
}
