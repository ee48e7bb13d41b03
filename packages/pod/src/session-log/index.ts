/**
 * `@yoake/pod/session-log`: the session log for a program that keeps logs somewhere else (a
 * `SessionStore` of its own, like `@yoake/fleet`'s PostgreSQL one) or writes one itself: the store
 * contract, the entries, sealing and verifying lines with the user's key, linking a continuation,
 * and the log's errors. An embedder that only runs Pods needs `@yoake/pod` alone.
 */

/** What a log restores to: the history, the last run, the usage and the pruned calls (see the README, "Restoring a log by hand"). */
export { type LastRun, type RestoredSession, restoreSession } from "../restore/restore.js";
/** The user's key, and a line sealed with it (the MAC chain every log line carries). */
export { type SealedLine, SessionKey } from "./chain.js";
/** The entries of a log, and `itemEntry` to log one history item. */
export {
  type AppendableEntry,
  type EntryType,
  itemEntry,
  type LogEntry,
  type SessionConfig,
  type SessionLink,
} from "./entry.js";
/** Where a Pod's logs are kept by default: `<projectRoot>/.yoake/sessions/<id>.jsonl`. */
export { FileSessionStore } from "./file-session-store.js";
/** Links a new session to the one it continues (what compaction writes in both logs). */
export { type ContinuationInput, linkContinuation } from "./link.js";
/** Verifies one line against the key and the previous line's hash, as every reader of a log must. */
export { verifyLogLine } from "./read.js";
/** The user's session key (kept outside the project), loaded or made on first use. */
export { loadSessionKey } from "./session-key.js";
/**
 * Sealing a store's lines the way the file log does (`sealEntry`, `sealFirstLines`), and
 * `refuseSessionStart`, which refuses an appended `session_start` (only `create` writes one).
 */
export {
  type AppendReceipt,
  type Durability,
  refuseSessionStart,
  type SessionStartInput,
  sealEntry,
  sealFirstLines,
} from "./session-log.js";
/** Every failure of a log (not found, locked, tampered, ...), with its kind. */
export { SessionLogError, type SessionLogErrorKind } from "./session-log-error.js";
/** The contract of a session store, and what it lists and opens. */
export type { OpenedStoredSession, SessionStore, StoredSessionInfo } from "./session-store.js";
/** The writer a store hands out for one session (one writer at a time per session). */
export type { SessionWriter } from "./session-writer.js";
/** A project's session files by hand: create one, or open one (`"latest"`, an id or a prefix) with its contents. */
export { createSession, openSession, type SessionInfo } from "./sessions.js";
