import { type Item, type ToolCallItem, type Usage, userMessage } from "@yoake/llm-worker";
import { addUsage } from "@yoake/llm-worker/internal";
import { type EffortLevel, isEffortLevel } from "../effort/effort.js";
import type { Plan } from "../plan/plan.js";
import type { SessionKey } from "../session-log/chain.js";
import type { EntryOf, LogEntry } from "../session-log/entry.js";
import { readSessionLog } from "../session-log/read.js";

/**
 * How the last run of a session ended, as far as the log knows.
 * - `none`: no run was ever started;
 * - `finished` / `failed`: it ended on its own;
 * - `paused`: waiting (an approval, a hook); `resume` continues it, `pendingCallIds` are the calls it waits on;
 * - `cancelled`: stopped by the user or a hook; the history is consistent, a new run may follow;
 * - `interrupted`: it was running when the process died (no end marker): calls it made may be
 *   unanswered (`openToolCalls`), and the Pod decides whether to answer them and go on.
 */
export type LastRun =
  | { state: "none" }
  | { state: "finished" }
  | { state: "failed"; message?: string }
  | { state: "paused"; reason: string; by?: string; pendingCallIds: string[] }
  | { state: "cancelled"; reason: string; by?: string }
  | { state: "interrupted" };

/** A session rebuilt from its log alone. */
export interface RestoredSession {
  sessionId: string;
  start: EntryOf<"session_start">;
  /** The Worker's history: every `item` entry in order, from the last compaction on (which starts it with its summary). */
  history: Item[];
  lastRun: LastRun;
  /** Tool calls in `history` that no tool result answers yet. */
  openToolCalls: ToolCallItem[];
  /** Tool results prune has dropped content from (in `history`; cleared by a compaction). */
  prunedCallIds: string[];
  /** Usage summed over every model request of this session (compaction requests included). */
  usage: Usage;
  /** How many `usage` entries were summed: model requests made. */
  requests: number;
  /** The session this one continues from (line 1's `previous`). */
  previousSessionId?: string;
  /** The session this one was compacted into: the conversation goes on there. */
  continuedIn?: string;
  /** The latest plan (`todo_write`), if the model wrote one. */
  plan?: Plan;
  /** The effort level in force at the end of the log (see the `effort` entry); absent: the model's default. */
  effort?: EffortLevel;
  /** Number of entries read. */
  entryCount: number;
}

/**
 * Rebuilds a session from its entries (as `readSessionLog` returns them, verified).
 *
 * History is the `item` entries in order — `user_input` entries record what was typed and are not
 * history themselves (the Worker's own user message item is, as it entered history, with any file
 * references after it). A `compaction` entry that starts this session (its `sessionId` is this one)
 * replaces everything before it with one user message holding the summary verbatim; one that hands
 * this session over to a newer one only sets `continuedIn`.
 */
export function restoreSession(entries: readonly LogEntry[]): RestoredSession {
  const start = entries[0];
  if (start === undefined || start.type !== "session_start") {
    throw new Error("restoreSession: the entries do not begin with session_start");
  }
  const sessionId = start.sessionId;
  let history: Item[] = [];
  let pruned = new Set<string>();
  let usage: Usage = {};
  let requests = 0;
  let lastRun: LastRun = { state: "none" };
  let continuedIn: string | undefined;
  let plan: Plan | undefined;
  let effort = effortOf(start.config.generation);

  for (const entry of entries) {
    switch (entry.type) {
      case "item":
        history.push(entry.item);
        break;
      case "usage":
        usage = addUsage(usage, entry.usage);
        requests += 1;
        break;
      case "pruned":
        for (const callId of entry.callIds) pruned.add(callId);
        break;
      case "compaction":
        if (entry.sessionId === sessionId) {
          history = [compactionSummaryItem(entry.summary)];
          pruned = new Set();
        } else {
          continuedIn = entry.sessionId;
        }
        break;
      case "run_start":
      case "resumed":
        lastRun = { state: "interrupted" };
        break;
      case "paused":
        lastRun = {
          state: "paused",
          reason: entry.reason,
          ...(entry.by === undefined ? {} : { by: entry.by }),
          pendingCallIds: entry.pendingCallIds,
        };
        break;
      case "cancelled":
        lastRun = {
          state: "cancelled",
          reason: entry.reason,
          ...(entry.by === undefined ? {} : { by: entry.by }),
        };
        break;
      case "run_end":
        lastRun =
          entry.status === "finished"
            ? { state: "finished" }
            : { state: "failed", ...(entry.message === undefined ? {} : { message: entry.message }) };
        break;
      case "plan":
        plan = entry.plan;
        break;
      case "effort":
        effort = entry.level;
        break;
      case "session_start":
      case "user_input":
      case "alert":
        break;
    }
  }

  return {
    sessionId,
    start,
    history,
    lastRun,
    openToolCalls: openToolCallsOf(history),
    prunedCallIds: [...pruned],
    usage,
    requests,
    ...(start.previous === undefined ? {} : { previousSessionId: start.previous.sessionId }),
    ...(continuedIn === undefined ? {} : { continuedIn }),
    ...(plan === undefined ? {} : { plan }),
    ...(effort === undefined ? {} : { effort }),
    entryCount: entries.length,
  };
}

/** The effort level a session began with (its config is free-form in the log). */
function effortOf(generation: unknown): EffortLevel | undefined {
  const level = (generation as { effort?: unknown } | undefined)?.effort;
  return typeof level === "string" && isEffortLevel(level) ? level : undefined;
}

/** Reads, verifies (with the user's session `key`) and restores a log file (a torn tail is dropped: see `warnings`). */
export async function restoreSessionFile(
  path: string,
  key: SessionKey,
): Promise<RestoredSession & { warnings: string[] }> {
  const contents = await readSessionLog(path, key);
  return { ...restoreSession(contents.entries), warnings: contents.warnings };
}

/**
 * The item a compaction's summary becomes at the head of the new session's history: a user message,
 * verbatim (the compactor frames it), so every scheme can send it.
 */
export function compactionSummaryItem(summary: string): Item {
  return userMessage(summary);
}

function openToolCallsOf(history: readonly Item[]): ToolCallItem[] {
  const answered = new Set<string>();
  for (const item of history) if (item.type === "tool_result") answered.add(item.callId);
  return history.filter(
    (item): item is ToolCallItem => item.type === "tool_call" && !answered.has(item.callId),
  );
}
