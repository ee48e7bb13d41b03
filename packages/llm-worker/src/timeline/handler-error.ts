import { errorMessage } from "../llm-client/errors.js";

/** One handler that threw while the Timeline dispatched an event. */
export interface HandlerFailure {
  /** The handler's `name`, its class or function name, or its kind and registration number. */
  readonly handler: string;
  /** The registration method's kind: `usage`, `text_block`, `raw_block`, ... */
  readonly kind: string;
  /** The event kind being delivered (`start`, `text`, `stop`, `usage`, ...). */
  readonly event: string;
  readonly error: unknown;
}

/**
 * Thrown by `Timeline.dispatch` / `abortCurrentBlock` after a handler threw. The event was still
 * delivered to every other handler and the scopes were opened and closed as if nothing had happened,
 * so the Timeline stays usable; the caller (the Worker) decides whether the turn fails.
 */
export class TimelineHandlerError extends Error {
  /** Every handler that threw during that one dispatch, in dispatch order (at least one). */
  readonly failures: readonly HandlerFailure[];

  constructor(failures: readonly HandlerFailure[]) {
    const first = failures[0] as HandlerFailure;
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : "";
    super(
      `${first.kind} handler ${first.handler} threw on event "${first.event}": ${errorMessage(first.error)}${more}`,
      { cause: first.error },
    );
    this.name = "TimelineHandlerError";
    this.failures = failures;
  }

  /** The first handler that threw. */
  get handler(): string {
    return (this.failures[0] as HandlerFailure).handler;
  }
}
