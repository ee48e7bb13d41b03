import { isRetryable, LlmError } from "./errors.js";
import type { ErrorInfo } from "./event.js";
import { describeErrorResponse, requestIdOf } from "./http-error.js";
import type { HttpRequest } from "./scheme.js";

/**
 * How failed attempts are retried: exponential backoff with full jitter (the wait before retry `n`
 * is drawn from `[0, min(maxDelayMs, baseDelayMs * 2^n))`), unless the server said how long to wait.
 */
export interface RetryPolicy {
  /** Attempts after the first one (default 2; 0 disables retries). */
  maxRetries: number;
  /** Upper bound of the first backoff, doubled for each further retry (default 500 ms). */
  baseDelayMs: number;
  /** Upper bound of every wait, one asked for by `retry-after` included (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/**
 * Default wait for the response headers. Hosted APIs answer the headers at once, before the model
 * has produced anything, so a silence this long means the provider is not answering; schemes that
 * may take longer (Ollama loads the model first) set their own (`Scheme.headersTimeoutMs`).
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
/** Default longest time without progress in a response body (keep-alives are not progress). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/**
 * Default longest time of one attempt, from sending the request to the end of its body: room for
 * the longest answers (tens of thousands of tokens), a bound on a stream that never ends.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30 * 60_000;

/** Options of one HTTP attempt. A timeout of 0 disables that clock. */
export interface TransportOptions {
  /** Ends the request, the body and any backoff wait at once (kind `aborted`). */
  signal?: AbortSignal;
  /** Longest wait from sending the request to the response headers (default 30 s). */
  headersTimeoutMs?: number;
  /**
   * Longest time without progress in the body (default 60 s): a stall fails the body with kind
   * `timeout`. A chunk the consumer marks as keep-alive only (`OpenResponse.markKeepAlive`) is no
   * progress, so a provider that sends nothing but pings still times out.
   */
  idleTimeoutMs?: number;
  /**
   * Longest time of the whole attempt, headers and body (default 30 min): a deadline no stream of
   * keep-alives or trickling data can push back. Fails with kind `timeout`.
   */
  attemptTimeoutMs?: number;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** A response with a 2xx status whose body is still to be read. */
export interface OpenResponse {
  status: number;
  headers: Headers;
  /** From `request-id` (Anthropic) or `x-request-id` (OpenAI). */
  requestId?: string;
  /**
   * The body, chunk by chunk; iterate it once. An abort, an idle timeout or a broken connection is
   * thrown from the iterator as an `LlmError`. Stopping early releases the connection.
   */
  body: AsyncIterable<Uint8Array>;
  /**
   * Says that the chunk just read carried nothing but keep-alives (pings, SSE comments, a partial
   * frame): the idle clock goes on from the last progress instead of restarting.
   */
  markKeepAlive(): void;
}

/** Why an attempt failed and whether another one may succeed. */
export interface AttemptFailure {
  error: LlmError;
  retryable: boolean;
  /** The wait the server asked for (`retry-after-ms` / `retry-after`). */
  retryAfterMs?: number;
}

export type AttemptOutcome = { ok: true; response: OpenResponse } | ({ ok: false } & AttemptFailure);

/** Told before each retry's wait, e.g. to show "retrying in 2 s". */
export interface RetryNotice {
  /** 1 for the first retry (the second attempt). */
  retry: number;
  /** The policy's retries: `retry` never exceeds it. */
  maxRetries: number;
  /** The wait before the next attempt. */
  delayMs: number;
  /** Why the last attempt failed; `status` when the provider answered with an HTTP error. */
  error: ErrorInfo;
}

export interface RetrierOptions {
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  /** Source of jitter in [0, 1); tests pin it. */
  random?: () => number;
}

/**
 * Holds one request's retry budget across its attempts, so that failures of the HTTP exchange and of
 * the start of the body (see the client) draw on the same count.
 */
export class Retrier {
  private retries = 0;

  constructor(
    private readonly policy: RetryPolicy,
    private readonly options: RetrierOptions = {},
  ) {}

  /**
   * After a failed attempt: waits the backoff and resolves `"retry"`, or resolves the error to report
   * (the failure's own when it is final or the budget is spent, `aborted` when the wait was cut short).
   */
  async afterFailure(failure: AttemptFailure): Promise<"retry" | LlmError> {
    if (!failure.retryable || this.retries >= this.policy.maxRetries) return failure.error;
    const { signal, onRetry, random = Math.random } = this.options;
    const delayMs = retryDelayMs(this.policy, this.retries, failure.retryAfterMs, random);
    this.retries++;
    try {
      onRetry?.({
        retry: this.retries,
        maxRetries: this.policy.maxRetries,
        delayMs,
        error: failure.error.toInfo(),
      });
    } catch {
      // A notice is informational; a broken listener must not break the request.
    }
    const waited = await sleep(delayMs, signal);
    return waited ? "retry" : abortedError(signal?.reason);
  }
}

/** The wait before retry number `retryIndex` (0-based): the server's wish if any, else jittered backoff. */
export function retryDelayMs(
  policy: RetryPolicy,
  retryIndex: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
}

/** The wait a response asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = nonNegative(headers.get("retry-after-ms"));
  if (ms !== undefined) return ms;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  const seconds = nonNegative(value);
  if (seconds !== undefined) return seconds * 1000;
  // A negative number is no wait, and Date.parse would read it as a year.
  if (!Number.isNaN(Number(value))) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function nonNegative(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Whether a failure reported as `ErrorInfo` (an HTTP error, a broken body, an error event) may pass on retry. */
export function isRetryableError(info: ErrorInfo): boolean {
  // A spent quota comes as a 429 but does not refill within any backoff.
  if (info.kind === "quota_exhausted" || info.code === "insufficient_quota") return false;
  if (info.status !== undefined) return isRetryableStatus(info.status);
  return isRetryable(info.kind);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** One attempt, retried on retryable failures while the retrier's budget lasts. */
export async function sendWithRetries(
  http: HttpRequest,
  options: TransportOptions,
  retrier: Retrier,
): Promise<AttemptOutcome> {
  for (;;) {
    const outcome = await sendOnce(http, options);
    if (outcome.ok) return outcome;
    const verdict = await retrier.afterFailure(outcome);
    if (verdict !== "retry") return { ok: false, error: verdict, retryable: false };
  }
}

/** Sends one request. Never throws: a failure is an outcome, with the provider's error as an `LlmError`. */
export async function sendOnce(http: HttpRequest, options: TransportOptions = {}): Promise<AttemptOutcome> {
  const signal = options.signal;
  if (signal?.aborted) return { ok: false, error: abortedError(signal.reason), retryable: false };
  let body: string;
  try {
    body = JSON.stringify(http.body);
  } catch (err) {
    const message = `the request body is not JSON: ${(err as Error)?.message ?? String(err)}`;
    return { ok: false, error: new LlmError({ kind: "invalid_request", message }), retryable: false };
  }
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const guard = new AttemptGuard(signal, options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS);
  guard.setClock(headersTimeoutMs, `no response headers within ${headersTimeoutMs} ms`);
  guard.beginWait();
  let response: globalThis.Response;
  try {
    response = await (options.fetch ?? fetch)(http.url, {
      method: "POST",
      headers: withJsonContentType(http.headers),
      body,
      signal: guard.signal,
    });
  } catch (err) {
    guard.release();
    const error = guard.failure ?? networkError("the request failed", err);
    return { ok: false, error, retryable: isRetryableError(error) };
  } finally {
    guard.endWait();
  }
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  guard.setClock(idleTimeoutMs, `no progress from the provider for ${idleTimeoutMs} ms`);
  if (!response.ok) {
    const text = await readErrorText(readBody(response.body, guard));
    if (guard.failure?.kind === "aborted") return { ok: false, error: guard.failure, retryable: false };
    const { error, retryDelayMs } = describeErrorResponse(
      response.status,
      response.statusText,
      response.headers,
      text,
    );
    const retryAfterMs = parseRetryAfter(response.headers) ?? retryDelayMs;
    return {
      ok: false,
      error,
      retryable: shouldRetryResponse(response.headers, error),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    };
  }
  const requestId = requestIdOf(response.headers);
  return {
    ok: true,
    response: {
      status: response.status,
      headers: response.headers,
      ...(requestId !== undefined && { requestId }),
      body: readBody(response.body, guard),
      markKeepAlive: () => guard.markKeepAlive(),
    },
  };
}

function shouldRetryResponse(headers: Headers, error: LlmError): boolean {
  if (error.kind === "quota_exhausted") return false;
  // Anthropic and OpenAI state their own verdict; it overrides the status.
  const hint = headers.get("x-should-retry");
  if (hint === "true") return true;
  if (hint === "false") return false;
  return isRetryableError(error);
}

function withJsonContentType(headers: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(headers)) if (name.toLowerCase() === "content-type") return headers;
  return { ...headers, "content-type": "application/json" };
}

/** The error text, up to a bound: an error page may be large and only its start is useful. */
async function readErrorText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const utf8 = new TextDecoder();
  let text = "";
  try {
    for await (const chunk of body) {
      text += utf8.decode(chunk, { stream: true });
      if (text.length > 65_536) break;
    }
  } catch {
    // A broken error body still leaves the status, which says enough.
  }
  return text;
}

/**
 * Our body wrapper over the fetch body: the clock runs only while we wait for a chunk (a slow
 * consumer is not a stalled provider), and a failure the guard recorded (abort, timeout) wins over
 * whatever the cancelled read reports.
 */
async function* readBody(
  body: ReadableStream<Uint8Array> | null,
  guard: AttemptGuard,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (!body) {
    guard.release();
    return;
  }
  const reader = body.getReader();
  let complete = false;
  try {
    for (;;) {
      guard.beginWait();
      let result: Awaited<ReturnType<typeof reader.read>>;
      try {
        result = await reader.read();
      } catch (err) {
        throw guard.failure ?? networkError("the connection broke while reading the response", err);
      } finally {
        guard.endWait();
      }
      if (guard.failure) throw guard.failure;
      if (result.done) {
        complete = true;
        return;
      }
      yield result.value;
    }
  } finally {
    guard.release();
    // Stopped early (consumer gone, failure): cancelling frees the connection.
    if (!complete) reader.cancel().catch(() => undefined);
  }
}

/**
 * One attempt's abort wiring and clocks. One timer per phase, re-armed with `refresh()` when a wait
 * starts after progress, so reading a chunk costs no timer allocation; and one deadline for the
 * whole attempt.
 */
class AttemptGuard {
  failure: LlmError | undefined;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly deadline: ReturnType<typeof setTimeout> | undefined;
  private clockMessage = "";
  private waiting = false;
  /** The last chunk was progress (the default): the next wait restarts the clock. */
  private progressed = true;
  /** The clock ran out while the consumer held a keep-alive chunk: the next wait fails at once. */
  private expired = false;
  private released = false;
  private readonly onAbort = (): void => this.fail(abortedError(this.external?.reason));

  constructor(
    private readonly external: AbortSignal | undefined,
    attemptTimeoutMs: number,
  ) {
    external?.addEventListener("abort", this.onAbort, { once: true });
    if (isTimerDelay(attemptTimeoutMs)) {
      const message = `the attempt took longer than its deadline of ${attemptTimeoutMs} ms`;
      this.deadline = setTimeout(
        () => this.fail(new LlmError({ kind: "timeout", message })),
        attemptTimeoutMs,
      );
      this.deadline.unref();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  fail(error: LlmError): void {
    if (this.failure) return;
    this.failure = error;
    this.controller.abort(error);
  }

  /** A clock of `ms` (0 = none) for each later wait; expiring during a wait fails with kind `timeout`. */
  setClock(ms: number, message: string): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.expired = false;
    this.clockMessage = message;
    if (this.released || !isTimerDelay(ms)) return;
    this.timer = setTimeout(() => {
      if (this.waiting) this.failClock();
      else this.expired = true;
    }, ms);
    this.timer.unref();
  }

  markKeepAlive(): void {
    this.progressed = false;
  }

  beginWait(): void {
    this.waiting = true;
    if (this.progressed) {
      this.expired = false;
      this.timer?.refresh();
    } else if (this.expired) {
      this.failClock();
    }
    this.progressed = true;
  }

  endWait(): void {
    this.waiting = false;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
    this.external?.removeEventListener("abort", this.onAbort);
  }

  private failClock(): void {
    this.fail(new LlmError({ kind: "timeout", message: this.clockMessage }));
  }
}

/** A delay `setTimeout` honours; 0 (and nonsense) means no clock. */
function isTimerDelay(ms: number): boolean {
  return ms > 0 && ms <= 2_147_483_647;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function abortedError(reason?: unknown): LlmError {
  return new LlmError({ kind: "aborted", message: "the request was aborted" }, { cause: reason });
}

/** fetch reports connection failures as `TypeError("fetch failed")` with the system error as `cause`. */
function networkError(context: string, err: unknown): LlmError {
  const e = err as { message?: string; code?: unknown; cause?: { message?: string; code?: unknown } };
  const code =
    typeof e?.cause?.code === "string" ? e.cause.code : typeof e?.code === "string" ? e.code : undefined;
  const detail = e?.cause?.message ?? e?.message ?? String(err);
  return new LlmError(
    { kind: "network", message: `${context}: ${detail}`, ...(code !== undefined && { code }) },
    { cause: err },
  );
}
