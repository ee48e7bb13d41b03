import { ResponseCollector } from "../timeline/response-collector.js";
import { Timeline } from "../timeline/timeline.js";
import { carryHistory } from "./carry-history.js";
import type { CallOptions, LlmClient } from "./client.js";
import type { ErrorInfo, ErrorKind, Event } from "./event.js";
import { isUserMessage, type SchemeName } from "./item.js";
import type { Request } from "./request.js";
import type { Response } from "./response.js";

/**
 * Errors that retrying will not fix soon, so the next model of a chain is asked instead. The
 * client has already retried the retryable ones (its retry policy) before they get here. One
 * line per kind: the typed `quota_exhausted` error belongs here once it exists.
 */
const FALLBACK_KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  "overloaded", // still overloaded after the retries
  "server", // 5xx after the retries
  "not_found", // no such model at this provider
  "quota_exhausted", // spent until its reset time: another provider answers now
]);

/** Whether a failed request should go to the next model of a chain (the default `fallBackOn`). */
export function isFallbackError(error: ErrorInfo): boolean {
  return FALLBACK_KINDS.has(error.kind);
}

/** A model of a chain, as notices name it. */
export interface ModelRef {
  scheme: SchemeName;
  model: string;
}

/**
 * The chain moved to another model for a request. `error`: `from` failed with `error`, before any
 * of its answer was delivered. `primary_probe`: a new turn tries an earlier model of the chain
 * again (the first, normally), its cool-down over. Either way `to` reads the whole prompt without
 * a cache.
 */
export interface FallbackNotice {
  from: ModelRef;
  to: ModelRef;
  reason: "error" | "primary_probe";
  error?: ErrorInfo;
}

/** The chain of clients, first preferred, and when to leave a model and come back to it. */
export interface FallbackClientOptions {
  /** The chain, first choice first. */
  clients: readonly LlmClient[];
  /**
   * How long a model that failed is passed over (default 60 s). After it, the next turn (a
   * request with a new user message) tries the first model again; requests within a turn stay
   * where they are, since switching mid-turn would throw away a warm prompt cache.
   */
  coolDownMs?: number;
  /** Which failures move to the next model; `isFallbackError` by default. */
  fallBackOn?: (error: ErrorInfo) => boolean;
  /** Told of every switch (after the call's own `onFallback`). */
  onFallback?: (notice: FallbackNotice) => void;
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number;
}

/** An `LlmClient` over a chain of models; `scheme` and `model` are those of the one in use. */
export interface FallbackClient extends LlmClient {
  readonly clients: readonly LlmClient[];
}

const DEFAULT_COOL_DOWN_MS = 60_000;

/**
 * A client that asks the next model of a chain when a request fails with an error retrying will
 * not fix soon (`isFallbackError`), never once any of the answer was delivered: events other than
 * blocks (`started`, pings, usage) are held back until the stream either fails (then the next model is asked)
 * or shows its first block or usage (then it is committed to).
 *
 * Every request goes through `carryHistory` (tool-call ids every scheme takes, no call left
 * unanswered), so a history begun with one provider continues with another; `request.model` and
 * `providerOptions` are meant for the first model and are not sent to the others.
 */
export function createFallbackClient(options: FallbackClientOptions): FallbackClient {
  const clients = options.clients;
  const first = clients[0];
  if (first === undefined) throw new TypeError("createFallbackClient: the chain has no client");
  const coolDownMs = options.coolDownMs ?? DEFAULT_COOL_DOWN_MS;
  const fallBackOn = options.fallBackOn ?? isFallbackError;
  const now = options.now ?? Date.now;
  /** When each model may be tried again (0: healthy). */
  const passedOverUntil = clients.map(() => 0);
  let current = 0;
  let userMessages = -1;

  const refOf = (index: number): ModelRef => {
    const client = clients[index] as LlmClient;
    return { scheme: client.scheme, model: client.model };
  };

  /** The models to try for this request, in order: the one to start with first. */
  const plan = (request: Request): number[] => {
    const count = request.items.reduce((n, item) => (isUserMessage(item) ? n + 1 : n), 0);
    const newTurn = count !== userMessages;
    userMessages = count;
    const at = now();
    const healthy = clients.map((_, i) => i).filter((i) => (passedOverUntil[i] as number) <= at);
    const start = newTurn ? (healthy[0] ?? current) : current;
    return [start, ...healthy.filter((i) => i !== start)];
  };

  async function* run(request: Request, call: CallOptions | undefined, onStart: (index: number) => void) {
    const notify = (notice: FallbackNotice): void => {
      call?.onFallback?.(notice);
      options.onFallback?.(notice);
    };
    const order = plan(request);
    for (let n = 0; n < order.length; n++) {
      const index = order[n] as number;
      if (index !== current) {
        const from = current;
        current = index;
        if (n === 0) notify({ from: refOf(from), to: refOf(index), reason: "primary_probe" });
      }
      onStart(index);
      const held: Event[] = [];
      let failure: ErrorInfo | undefined;
      let committed = false;
      for await (const event of (clients[index] as LlmClient).stream(requestFor(index, request), call)) {
        if (committed) {
          yield event;
          continue;
        }
        if (event.type === "error") failure = event;
        if (!startsAnswer(event)) {
          held.push(event);
          continue;
        }
        committed = true;
        yield* held;
        yield event;
      }
      if (committed) return;
      const next = order[n + 1];
      if (failure === undefined || next === undefined || call?.signal?.aborted || !fallBackOn(failure)) {
        yield* held;
        return;
      }
      passedOverUntil[index] = now() + coolDownMs;
      notify({ from: refOf(index), to: refOf(next), reason: "error", error: failure });
      current = next;
    }
  }

  const requestFor = (index: number, request: Request): Request => {
    const items = carryHistory(request.items);
    if (index === 0) return items === request.items ? request : { ...request, items };
    const { model: _firstModel, providerOptions: _firstOptions, ...rest } = request;
    return { ...rest, items };
  };

  return {
    clients,
    get scheme() {
      return (clients[current] as LlmClient).scheme;
    },
    get model() {
      return (clients[current] as LlmClient).model;
    },
    stream: (request, call) => run(request, call, () => {}),
    async complete(request, call): Promise<Response> {
      // Nothing of a failed model's answer was delivered: the answer is the next model's alone.
      const collector = new ResponseCollector(new Timeline(), first.scheme);
      const events = run(request, call, (index) => collector.begin((clients[index] as LlmClient).scheme));
      for await (const event of events) collector.dispatch(event);
      return collector.result();
    },
  };
}

/** The first event that is part of the answer (a block): from here on there is no going back. */
function startsAnswer(event: Event): boolean {
  return event.type.startsWith("block_");
}
