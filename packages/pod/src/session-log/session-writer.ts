import type { AppendableEntry } from "./entry.js";
import type { AppendReceipt } from "./session-log.js";

/**
 * The one writer of a session, wherever its log is kept (a JSONL file, a database). Appends are
 * serialized in call order: `seq` and `prev` are fixed when `append` is called. While a writer is
 * open no other writer of the same session may append; one that tries gets a `SessionLogError`
 * (`locked` when it opens, `conflict` when a store finds it stale at append), so a session never forks.
 * After a failed append the writer refuses every later one; reopening the session recovers.
 */
export interface SessionWriter {
  readonly id: string;
  /** The `seq` of the last entry appended (acknowledged or not). */
  readonly seq: number;
  /** The MAC of the last entry appended: the next entry's `prev`. */
  readonly lastHash: string;
  /** Resolves once the entry is durable in the store. */
  append(entry: AppendableEntry): Promise<AppendReceipt>;
  /** Waits for pending appends, then gives up the right to append. */
  close(): Promise<void>;
}
