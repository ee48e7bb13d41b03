import type { LogEntry, SessionConfig } from "./entry.js";
import type { SessionStartInput } from "./session-log.js";
import type { SessionWriter } from "./session-writer.js";

/** One session as a store lists it (without verifying its chain). */
export interface StoredSessionInfo {
  id: string;
  /** `ts` of entry 1 (ISO 8601); empty when `problem` says it is unreadable. */
  started: string;
  /** `ts` of the last entry. */
  lastActivity: string;
  entryCount: number;
  /** The first input the user submitted, cut at 200 characters. */
  firstUserText?: string;
  /** The session this one continues (it started from that one's compaction). */
  previous?: string;
  /** The session this one was compacted into. */
  next?: string;
  /** Damage seen while listing; opening the session reports it in full. */
  problem?: string;
}

/** A session opened for appending, and its verified entries at that moment. */
export interface OpenedStoredSession {
  writer: SessionWriter;
  entries: LogEntry[];
  /** Things worth telling the user that did not stop the open (a dropped torn line). */
  warnings: string[];
}

/**
 * Where session logs are kept: JSONL files in the project (`FileSessionStore`) or a database shared
 * by many machines (`@yoake/fleet`'s PostgreSQL store). Every store holds the same sealed,
 * HMAC-chained entries and verifies them with the same rules (`verifyLogLine`), and every store
 * keeps one writer per session: `open` takes the session's lock (or lease) and refuses a second
 * writer with a `SessionLogError` of kind `locked`. Errors are `SessionLogError`s (`not_found`,
 * `already_exists`, `conflict`, damage kinds).
 */
export interface SessionStore {
  /** Where the sessions are, for messages (a directory, `postgres:<database>`). */
  readonly location: string;
  /** Starts a session (see `SessionStartInput`) and returns its writer. */
  create(start: SessionStartInput): Promise<SessionWriter>;
  /** Opens a session for appending: verifies it, takes the lock, returns the writer. */
  open(id: string): Promise<OpenedStoredSession>;
  /** The verified entries with `seq >= fromSeq` (default 1), without taking the lock. */
  read(id: string, fromSeq?: number): Promise<LogEntry[]>;
  /** Every session, oldest first, with the `previous`/`next` links of compactions. */
  list(): Promise<StoredSessionInfo[]>;
  /**
   * Ends `previous` with a compaction boundary and starts the session that continues it from
   * `summary`, linked both ways (the new session's chain starts at the old one's last MAC).
   */
  link(previous: SessionWriter, summary: string, config: SessionConfig): Promise<SessionWriter>;
  /** Releases what the store holds (connections); open writers should be closed first. */
  close(): Promise<void>;
}
