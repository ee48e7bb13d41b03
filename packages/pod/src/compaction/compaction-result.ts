import type { Usage } from "@yoake/llm-worker";

/** What a compaction did (`pod.compact()`, or automatically before a request). */
export interface CompactionResult {
  /** Started by the Pod because the prompt neared the window, not by `pod.compact()`. */
  auto: boolean;
  /** The new session, which the Pod writes to from now on. */
  sessionId: string;
  /** The session that was compacted; it ends with a `compaction` entry naming the new one. */
  previousSessionId: string;
  /** The user message the new history starts with: the model's summary, framed. */
  summary: string;
  /** Files read again into the new session, as `[File: <path>]` system messages, in this order. */
  rereadFiles: string[];
  itemsBefore: number;
  itemsAfter: number;
  /** What the summary request cost, when the provider said. */
  usage?: Usage;
}

/** A compaction that did not happen (the summary request failed, nothing to compact, ...). */
export class CompactionError extends Error {
  override readonly name = "CompactionError";
}
