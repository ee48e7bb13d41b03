import type { PruneOptions } from "../context/prune-interceptor.js";
import type { HistoryResultOptions } from "../tool-output/history-result.js";

/**
 * The context policy for a Worker with a BlobStore, as the Pod runs it. Seed 003's defaults
 * (`DEFAULT_PRUNE_CONFIG`, 3 protected turns) and seed 000's 800-byte inline limit stay the
 * library's defaults; this is the combination that meets the context benchmark's targets
 * (`bench:context`, table in the README) in one-turn and short-turn sessions, and why each
 * differs from the seed:
 *
 * - `protectedTurns: 0`, `protectedTailTokens: 4096`: a one-turn headless run protects everything
 *   by turns, so prune never fired there; a 4k-token tail of results keeps what the model is
 *   working on whole in every shape of session. (Stored summaries are small: 4k tokens are many.)
 * - `minSavings: 2048`: with summaries, candidates are small; at 4,096 a short-turn session
 *   waited for savings it rarely collected.
 * - `futureRequests: "session"`: per turn (~6 requests), a prune in a session of short turns
 *   never paid for its cache rewrite; the session has many more requests to come than a turn.
 *
 * The Pod also runs `recallInterceptor` after this one (seed 003 only drops): a user message
 * naming something a stored output held is sent with the lines naming it, and a recall is cut to
 * its references only where a prune has already broken the cached prefix.
 */
export const BLOB_STORE_PRUNE_OPTIONS: Readonly<PruneOptions> = Object.freeze({
  config: Object.freeze({ protectedTurns: 0, protectedTailTokens: 4_096, minSavings: 2_048 }),
  accounting: Object.freeze({ futureRequests: "session" as const }),
});

/**
 * How tool outputs become history in the Pod (see `HistoryResultOptions`):
 *
 * - inline up to 1,536 estimated tokens, not 800 bytes: at 800 bytes almost every output of a
 *   short turn became a summary, and each fact outside it cost an `inspect` round trip;
 * - summaries of 1,536 bytes, not 400, with the lines matching the call's query and the value
 *   ranges of JSON arrays: more of what the model asked for, fewer round trips. At 1,024 bytes a
 *   file's head showed about 10 lines of code, short of the imports and constants a later turn
 *   asks for; 1,536 shows about 15–20 (one request fewer in the rounds and short-turn sessions,
 *   for 3–10% more input tokens; 2 KB and more added tokens and no fewer requests).
 */
export const BLOB_STORE_TOOL_OUTPUT: Readonly<HistoryResultOptions> = Object.freeze({
  inlineLimitTokens: 1_536,
  summaryLimitBytes: 1_536,
  valueRanges: true,
  summarizeQuery: true,
});
