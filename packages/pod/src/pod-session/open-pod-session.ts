import { stat } from "node:fs/promises";
import { join } from "node:path";
import { v7 as newSessionId } from "uuid";
import type { Manifest } from "../manifest/resolve.js";
import { type RestoredSession, restoreSession } from "../session/restore.js";
import { sessionConfigFromManifest } from "../session/session-config.js";
import type { SessionLogOptions } from "../session/session-log.js";
import { createSession, openSession, sessionsDir } from "../session/sessions.js";
import type { LogSource } from "./session-recorder.js";

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
 * Creates or opens the Pod's session log (a new session's file appears with its first entry). An opened log is verified (a broken chain throws, a
 * torn last line is dropped with a warning) and restored. A session that was compacted into a
 * newer one is followed there: appending to the old one would fork the conversation. If that
 * newer one is missing (a crash between the two steps of a compaction), the old one continues.
 */
export async function openPodSession(
  manifest: Manifest,
  cwd: string,
  choice: SessionChoice,
  options: SessionLogOptions,
): Promise<OpenedPodSession> {
  const root = manifest.projectRoot;
  if (choice === "new") {
    const sessionId = newSessionId();
    const config = sessionConfigFromManifest(manifest, cwd);
    return { sessionId, log: () => createSession(root, { config, sessionId }, options), warnings: [] };
  }
  const warnings: string[] = [];
  let opened = await openSession(root, choice, options);
  const seen = new Set<string>();
  for (;;) {
    warnings.push(...opened.contents.warnings);
    const restored = restoreSession(opened.contents.entries);
    const next = restored.continuedIn;
    seen.add(restored.sessionId);
    if (next === undefined || seen.has(next)) {
      if (restored.lastRun.state === "interrupted") warnings.push(interruptedNotice(restored));
      const was = restored.start.config.model;
      if (was.scheme !== manifest.model.scheme || was.id !== manifest.model.id)
        warnings.push(
          `session ${restored.sessionId} began with ${was.scheme}/${was.id}; it continues with ${manifest.model.scheme}/${manifest.model.id}`,
        );
      const effortWas = (restored.start.config.generation as { effort?: string } | undefined)?.effort;
      const effortNow = manifest.generation.effort;
      if (effortWas !== effortNow)
        warnings.push(
          `session ${restored.sessionId} began with effort ${effortWas ?? "default"}; it continues with effort ${effortNow ?? "default"}`,
        );
      return { sessionId: restored.sessionId, log: opened.log, restored, warnings };
    }
    const nextPath = join(sessionsDir(root), `${next}.jsonl`);
    if (!(await exists(nextPath))) {
      warnings.push(
        `session ${restored.sessionId} was compacted into ${next}, which does not exist (the Pod stopped mid-compaction): continuing ${restored.sessionId}`,
      );
      return { sessionId: restored.sessionId, log: opened.log, restored, warnings };
    }
    await opened.log.close();
    opened = await openSession(root, next, options);
  }
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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
