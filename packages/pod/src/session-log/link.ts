import { uuidV7 as newSessionId } from "@yoake/llm-worker/internal";
import type { AppendableEntry, SessionConfig } from "./entry.js";
import { SessionLog, type SessionLogOptions, type SessionStartInput } from "./session-log.js";
import type { SessionWriter } from "./session-writer.js";

/** What the new session of a compaction needs. */
export interface ContinuationInput {
  /** The directory of the new log (usually the old one's). */
  dir: string;
  /** The summary the new history starts from (becomes a user message, verbatim). */
  summary: string;
  /** The configuration now (redacted like any `session_start`). */
  config: SessionConfig;
  /** Its key must be the old log's, or the chain would not verify across the two files. */
  options: SessionLogOptions;
}

/**
 * Ends `previous` with a compaction and starts the session that continues it, linked both ways:
 * the old log's last entry names the new session; the new log's line 1 names the old one and
 * carries, as its `prev`, the MAC of that last entry, so the chain runs on across the two files.
 * The new log is created with its compaction boundary in one atomic step; `previous` is closed.
 *
 * A crash between the two steps leaves the old log ending with a compaction whose session does not
 * exist: `restoreSession` on the old log then reports `continuedIn` naming a missing session, and
 * the Pod can compact again from the old history.
 */
export async function continueInNewSession(
  previous: SessionLog,
  input: ContinuationInput,
): Promise<SessionLog> {
  return linkContinuation(previous, input.summary, input.config, (start) =>
    SessionLog.create(input.dir, start, input.options),
  );
}

/**
 * The same link in any store: appends the compaction boundary to `previous`, closes it, and has
 * `create` start the new session with the boundary and the link (in one atomic step, as
 * `SessionStartInput.firstEntries` promises).
 */
export async function linkContinuation<W extends SessionWriter>(
  previous: SessionWriter,
  summary: string,
  config: SessionConfig,
  create: (start: SessionStartInput) => Promise<W>,
): Promise<W> {
  const sessionId = newSessionId();
  const boundary: AppendableEntry = {
    type: "compaction",
    summary,
    sessionId,
    previousSessionId: previous.id,
  };
  const { hash } = await previous.append(boundary);
  await previous.close();
  return create({
    sessionId,
    config,
    previous: { sessionId: previous.id, lastHash: hash },
    firstEntries: [boundary],
  });
}
