/** When and how often a server that died is started again. */
export interface RestartPolicy {
  /** The wait before the first restart; each further try doubles it. */
  initialDelayMs: number;
  /** The longest wait between tries. */
  maxDelayMs: number;
  /** Tries in a row before giving up (the server then stays `failed` until the Pod restarts). */
  maxRestarts: number;
  /** A server that ran this long before dying starts again from the first, shortest wait. */
  stableAfterMs: number;
}

/**
 * Half a second, doubling to 30 s, five tries: a server that crashes at once gives up after
 * about 8 s of tries, while one that dies now and then after running a minute is always restarted.
 */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxRestarts: 5,
  stableAfterMs: 60_000,
};

/** The wait before try `attempt` (1 for the first restart): exponential, capped. */
export function restartDelayMs(attempt: number, policy: RestartPolicy): number {
  // The exponent is capped too, so a large attempt count cannot overflow to Infinity.
  const doubled = policy.initialDelayMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(doubled, policy.maxDelayMs);
}
