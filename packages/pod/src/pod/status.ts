import type { SchemeName, Usage } from "@yoake/llm-worker";
import type { PermissionRequest } from "../approval/permission.js";

/**
 * What a Pod is doing: a run is going (`running`), a run stopped part-way and waits for an answer
 * or `resume()` (`paused`), or nothing (`idle`).
 */
export type PodRunState = "idle" | "running" | "paused";

/** A snapshot of a Pod for a client's status line (`pod.status()`). */
export interface PodStatus {
  state: PodRunState;
  projectRoot: string;
  /** The session log this Pod writes to, once it has one. */
  sessionId?: string;
  model: { ref?: string; scheme: SchemeName; id: string; contextWindow?: number };
  /** Summed over this Pod's runs: those that ended and a paused one (a run going counts once it stops). */
  usage: Usage;
  /** The request a paused run waits on. */
  pendingPermission?: PermissionRequest;
  /** Messages given to `notify` during a run, waiting to enter history when it stops. */
  queuedNotes: number;
}

/** Who a note added with `pod.notify` speaks as. */
export type NoteRole = "user" | "system";

/**
 * Where a note went: into history now, or queued because a run is going (or paused) and history
 * can only grow at the end of a step; it is added when the run stops, or right after the prompt of
 * the next run if that run replaces a paused one.
 */
export type NoteOutcome = "added" | "queued";
