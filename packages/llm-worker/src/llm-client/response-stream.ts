import { batchIterator } from "./batch-iterator.js";
import { BodyDecoder, pullEvents } from "./decode.js";
import type { ErrorPresenter } from "./error-presenter.js";
import { errorMessage, LlmError } from "./errors.js";
import type { BlockStartEvent, ErrorInfo, Event } from "./event.js";
import { EventWriter } from "./event-writer.js";
import { isRetryableError, Retrier, type RetryNotice, type RetryPolicy } from "./retry.js";
import type { HttpRequest, Scheme } from "./scheme.js";
import { type OpenResponse, sendWithRetries, type TransportOptions } from "./transport.js";

export interface StreamSetup {
  scheme: Scheme;
  /** The request to send, or why it could not be built. */
  http: HttpRequest | ErrorInfo;
  policy: RetryPolicy;
  transport: TransportOptions;
  onRetry?: (notice: RetryNotice) => void;
  signal?: AbortSignal;
  /** Applied to every error before it leaves: the provider's name, the key redacted (see `errorPresenter`). */
  present: ErrorPresenter;
}

/**
 * The events of one request, over as many attempts as the retry rule allows: a failure before any
 * event reached the consumer may be retried; once one was delivered, never.
 */
export function streamResponse(setup: StreamSetup): AsyncIterableIterator<Event> {
  const { scheme, http, signal, present, onRetry } = setup;
  const attemptOptions: TransportOptions = { ...setup.transport, ...(signal !== undefined && { signal }) };
  const retrier = new Retrier(setup.policy, {
    ...(signal !== undefined && { signal }),
    ...(onRetry !== undefined && {
      onRetry: (notice) => onRetry({ ...notice, error: present(notice.error) }),
    }),
  });
  let attempt: Attempt | undefined;
  let done = false;

  const finishWith = (info: ErrorInfo): Event[] => {
    done = true;
    return failureEvents(present(info));
  };

  const pull = async (): Promise<readonly Event[] | undefined> => {
    if (done) return undefined;
    if ("kind" in http) return finishWith(http);
    for (;;) {
      if (!attempt) {
        const sent = await sendWithRetries(http, attemptOptions, retrier);
        if (!sent.ok) return finishWith(sent.error.toInfo());
        attempt = new Attempt(scheme, sent.response, present);
      }
      const outcome = await attempt.pull();
      if (outcome === "end") {
        done = true;
        return undefined;
      }
      if (Array.isArray(outcome)) return outcome;
      await attempt.release();
      attempt = undefined;
      const error = outcome as ErrorInfo;
      const verdict = await retrier.afterFailure({
        error: new LlmError(error),
        retryable: isRetryableError(error),
      });
      if (verdict !== "retry") return finishWith(verdict.toInfo());
    }
  };
  return batchIterator(pull, async () => {
    await attempt?.release();
  });
}

/** Anything but a keep-alive restarts the idle clock. */
function isProgress(event: Event): boolean {
  return event.type !== "ping";
}

/**
 * Events that say nothing the caller must see yet: the start, keep-alives, and usage (Anthropic's
 * `message_start` reports the prompt's usage before any content). A failure while only these
 * arrived is a failure before delivery, retried like one that came before the headers.
 */
function isPreamble(event: Event): boolean {
  return (
    event.type === "ping" || event.type === "usage" || (event.type === "status" && event.status === "started")
  );
}

/**
 * One response body. The preamble (see `isPreamble`) is held back until the first event that says
 * something: if that is an error, the attempt is handed back undelivered so the caller may retry.
 * Also keeps the stream contract should a decoder break it.
 */
class Attempt {
  private readonly decoder: BodyDecoder;
  private readonly body: AsyncIterator<Uint8Array>;
  private held: Event[] = [];
  private delivered = false;
  private finished = false;
  private openBlock: BlockStartEvent | undefined;

  constructor(
    private readonly scheme: Scheme,
    private readonly response: OpenResponse,
    private readonly present: ErrorPresenter,
  ) {
    this.decoder = new BodyDecoder(scheme, response.status);
    this.body = response.body[Symbol.asyncIterator]();
  }

  /** Events to deliver, an undelivered error, or "end" once the stream is complete. */
  async pull(): Promise<Event[] | ErrorInfo | "end"> {
    let events: Event[] | undefined;
    try {
      events = await pullEvents(this.decoder, this.body);
    } catch (err) {
      const info: ErrorInfo = {
        kind: "stream",
        message: `the ${this.scheme.name} decoder failed: ${errorMessage(err)}`,
      };
      return this.delivered ? this.brokenEnd(info) : info;
    }
    if (events === undefined) {
      if (this.finished) return "end";
      return this.brokenEnd({ kind: "stream", message: "the stream ended without a final status" });
    }
    if (!events.some(isProgress)) this.response.markKeepAlive();
    if (!this.delivered) {
      const first = events.find((e) => !isPreamble(e));
      if (first === undefined) {
        this.held.push(...events);
        return [];
      }
      if (first.type === "error") {
        const { type: _type, ...error } = first;
        return error.requestId === undefined && this.response.requestId !== undefined
          ? { ...error, requestId: this.response.requestId }
          : error;
      }
      this.delivered = true;
      if (this.held.length > 0) events = this.held.concat(events);
      this.held = [];
    }
    for (const event of events) this.track(event);
    return events;
  }

  async release(): Promise<void> {
    await this.body.return?.();
  }

  private track(event: Event): void {
    if (event.type === "block_start") this.openBlock = event;
    else if (event.type === "block_stop" || event.type === "block_abort") this.openBlock = undefined;
    else if (event.type === "status") this.finished ||= event.status !== "started";
    else if (event.type === "error") {
      if (event.requestId === undefined && this.response.requestId !== undefined)
        event.requestId = this.response.requestId;
      Object.assign(event, this.present(event));
    }
  }

  /** Ends a stream whose decoder broke the contract, as the contract wants it ended. */
  private brokenEnd(info: ErrorInfo): Event[] {
    const events: Event[] = this.delivered ? [] : this.held;
    this.delivered = true;
    this.finished = true;
    const open = this.openBlock;
    if (open)
      events.push({
        type: "block_abort",
        index: open.index,
        blockType: open.blockType,
        reason: info.message,
      });
    events.push(
      { type: "error", ...this.present(info) },
      { type: "status", status: "failed", stopReason: "error", rawStopReason: null },
    );
    return events;
  }
}

/** A whole stream for a failure before any event: `started`, the error, the final status. */
function failureEvents(info: ErrorInfo): Event[] {
  const events: Event[] = [];
  new EventWriter((event) => events.push(event)).fail(info);
  return events;
}
