import { type RetryPolicy, retryTransient } from "../database/retry.js";

/**
 * What git prints when the remote could not be reached or dropped the connection: a failure that
 * may pass (the server restarting, a network outage). Anything else (no such repository, refused
 * credentials, a ref that does not exist, a push refused) fails the same way again.
 */
const TRANSIENT_GIT = [
  /unable to connect/i,
  /connection (refused|reset|timed out|closed)/i,
  /could not resolve host/i,
  /temporary failure in name resolution/i,
  /the remote end hung up unexpectedly/i,
  /early EOF/i,
  /RPC failed/i,
  /operation timed out/i,
  /failed to connect/i,
  /network is unreachable/i,
  /no route to host/i,
  /The requested URL returned error: 5\d\d/i,
  /HTTP 5\d\d/i,
  /unexpected disconnect/i,
];

/** Whether git's failure `error` says the remote could not be reached (see `TRANSIENT_GIT`). */
export function isTransientGitFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return TRANSIENT_GIT.some((pattern) => pattern.test(message));
}

/** A git step that still could not reach the repository after the retry time: the run waits. */
export class RepositoryUnreachableError extends Error {}

/**
 * Runs a git step that talks to a run's repository (fetch, clone, push) again while it fails for
 * a reason that may pass, with backoff, for `policy.retryMs`, then rejects with a
 * `RepositoryUnreachableError`; a permanent failure is rethrown at once with git's own words.
 */
export async function retryGit<T>(step: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  try {
    return await retryTransient(step, policy, isTransientGitFailure);
  } catch (error) {
    if (!isTransientGitFailure(error)) throw error;
    throw new RepositoryUnreachableError((error as Error).message, { cause: error });
  }
}
