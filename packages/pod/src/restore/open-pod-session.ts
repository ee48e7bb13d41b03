import { uuidV7 as newSessionId } from "@yoake/llm-worker/internal";
import type { Manifest } from "../manifest/resolve.js";
import { sessionConfigFromManifest } from "../session-log/session-config.js";
import { SessionLogError } from "../session-log/session-log-error.js";
import type { LogSource } from "../session-log/session-recorder.js";
import type { SessionStore } from "../session-log/session-store.js";
import { latestOf, matchSession } from "../session-log/sessions.js";
import { type RestoredSession, restoreSession } from "./restore.js";

/**
 * Which session a Pod writes to: a new one, the one active last in the project (followed to its
 * newest continuation), or one by id or unambiguous id prefix.
 */
export type SessionChoice = "new" | "latest" | (string & {});

/** The log a Pod opened, and what it held when the Pod continues one. */
export interface OpenedPodSession {
  sessionId: string;
  /** The opened log, or (a new session) how to create it when its first entry comes. */
  log: LogSource;
  /** Absent for a new session. */
  restored?: RestoredSession;
  /** A torn last line dropped, a compaction whose new session never appeared, ... */
  warnings: string[];
}

/**
 * Creates or opens the Pod's session log in `store` (a new session appears with its first entry). An opened log is verified (a broken chain throws, a
 * torn last line is dropped with a warning) and restored. A session that was compacted into a
 * newer one is followed there: appending to the old one would fork the conversation. If that
 * newer one is missing (a crash between the two steps of a compaction), the old one continues.
 */
export async function openPodSession(
  manifest: Manifest,
  cwd: string,
  choice: SessionChoice,
  store: SessionStore,
): Promise<OpenedPodSession> {
  if (choice === "new") {
    const sessionId = newSessionId();
    const config = sessionConfigFromManifest(manifest, cwd);
    return { sessionId, log: () => store.create({ config, sessionId }), warnings: [] };
  }
  const warnings: string[] = [];
  // A whole id is opened as it is: listing every session of a shared store (the fleet's) to find
  // one would cost in proportion to all of them at every continued run.
  let opened = FULL_ID.test(choice)
    ? await store.open(choice.toLowerCase())
    : await store.open(await chooseListed(store, choice));
  const seen = new Set<string>();
  for (;;) {
    warnings.push(...opened.warnings);
    const restored = restoreSession(opened.entries);
    const next = restored.continuedIn;
    seen.add(restored.sessionId);
    if (next === undefined || seen.has(next)) {
      if (restored.lastRun.state === "interrupted") warnings.push(interruptedNotice(restored));
      const was = restored.start.config.model;
      if (was.scheme !== manifest.model.scheme || was.id !== manifest.model.id)
        warnings.push(
          `session ${restored.sessionId} began with ${was.scheme}/${was.id}; it continues with ${manifest.model.scheme}/${manifest.model.id}`,
        );
      // Against the level in force when the session stopped, not the one it began with: each
      // change is logged (an `effort` entry, see PodSession), so a change is told once.
      const effortWas = restored.effort;
      const effortNow = manifest.generation.effort;
      if (effortWas !== effortNow)
        warnings.push(
          `session ${restored.sessionId} was at effort ${effortWas ?? "default"}; it continues with effort ${effortNow ?? "default"}`,
        );
      return { sessionId: restored.sessionId, log: opened.writer, restored, warnings };
    }
    let following: Awaited<ReturnType<SessionStore["open"]>>;
    try {
      following = await store.open(next);
    } catch (error) {
      if (!(error instanceof SessionLogError && error.kind === "not_found")) throw error;
      warnings.push(
        `session ${restored.sessionId} was compacted into ${next}, which does not exist (the Pod stopped mid-compaction): continuing ${restored.sessionId}`,
      );
      return { sessionId: restored.sessionId, log: opened.writer, restored, warnings };
    }
    await opened.writer.close();
    opened = following;
  }
}

/** A session id written out whole (a UUID), not a prefix. */
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of the latest session, or of the one an id prefix names, from the store's list. */
async function chooseListed(store: SessionStore, choice: "latest" | (string & {})): Promise<string> {
  const listed = await store.list();
  const chosen = choice === "latest" ? latestOf(listed) : matchSession(listed, choice, store.location);
  if (chosen === undefined) throw new SessionLogError("not_found", store.location, "no sessions yet");
  return chosen.id;
}

/**
 * The one line a user continuing a session gets when its last run died with its process (no end
 * marker in the log): what was left unanswered, and what happens to it.
 */
function interruptedNotice({ sessionId, openToolCalls }: RestoredSession): string {
  const calls = openToolCalls.length;
  const left =
    calls === 0
      ? "before it finished"
      : `with ${calls} tool call${calls === 1 ? "" : "s"} unanswered (${openToolCalls.map((call) => call.name).join(", ")}): the next prompt tells the model ${calls === 1 ? "it was" : "they were"} interrupted`;
  return `the last run of session ${sessionId} was interrupted (the process crashed or was killed) ${left}`;
}
