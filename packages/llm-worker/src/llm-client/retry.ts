import { abortedError, isRetryable, type LlmError } from "./errors.js";
import type { ErrorInfo } from "./event.js";

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
  /**
   * The request's total deadline for retrying (default 2 min; 0 = none): a failure once this long
   * has passed since the request was first sent, or whose wait would end past it, is final. A
   * provider that never answers costs a bounded silence, not the sum of every attempt's clocks.
   */
  retryDeadlineMs?: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<Required<RetryPolicy>> = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  retryDeadlineMs: 120_000,
};

/** Why an attempt failed and whether another one may succeed. */
export interface AttemptFailure {
  error: LlmError;
  retryable: boolean;
  /** The wait the server asked for (`retry-after-ms` / `retry-after`). */
  retryAfterMs?: number;
}

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
  /** When the request was first sent: the retry deadline counts from here. */
  private readonly startedAt = Date.now();

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
    if (this.pastDeadline(delayMs)) return failure.error;
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

  private pastDeadline(delayMs: number): boolean {
    const deadline = this.policy.retryDeadlineMs ?? 0;
    return deadline > 0 && Date.now() - this.startedAt + delayMs >= deadline;
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
