import type { PodRunResult } from "@yoake/pod";

/** The wait when the provider refused on its rate limit without saying how long. */
export const DEFAULT_RATE_LIMIT_DELAY_SECONDS = 10;
/**
 * The longest wait taken from a provider: a `retry-after` of hours (a daily limit) or a clock far
 * off would otherwise park the run out of sight; it is tried again and, still limited, waits again.
 */
export const MAX_RATE_LIMIT_DELAY_SECONDS = 15 * 60;

/**
 * For a run that failed on the provider's rate limit (kind `rate_limit`, after the client's own retries):
 * how many seconds the queue should hold it before a worker takes it again. The provider's own
 * word wins: the error's `resetAt`, from `retry-after-ms`, `retry-after` (seconds or an HTTP date)
 * or the provider's rate-limit reset headers, counted from `now`; at least 1 s, at most 15 min.
 * Undefined for any other ending.
 */
export function rateLimitDelay(result: PodRunResult, now: number = Date.now()): number | undefined {
  if (result.status !== "failed" || result.error.kind !== "llm") return undefined;
  const error = result.error.error;
  // A spent quota (also a 429) is not waited out: it lifts at the next bill, not in minutes.
  if (error.kind !== "rate_limit") return undefined;
  const resetAt = error.resetAt === undefined ? Number.NaN : Date.parse(error.resetAt);
  if (Number.isNaN(resetAt)) return DEFAULT_RATE_LIMIT_DELAY_SECONDS;
  return Math.min(MAX_RATE_LIMIT_DELAY_SECONDS, Math.max(1, Math.ceil((resetAt - now) / 1000)));
}
