import type { CommandAsk } from "../shell/command-approval.js";
import type { TaskModelAsk } from "../subagents/task-model-approval.js";

/** A preview of what an approved write or edit would change, computed read-only. */
export type DiffPreview =
  /** `diff` is a unified diff (`--- a/<path>` / `+++ b/<path>`), cut by lines when long. */
  | { ok: true; path: string; diff: string; truncated: boolean; newFile: boolean }
  /** No diff: the call would fail (the scope refuses it, the old string is not there, ...), or the file is too big. */
  | { ok: false; path?: string; message: string };

/**
 * A tool call waiting for the user's approval. The run is paused until some client answers it
 * with `pod.respond(id, decision)`.
 */
export interface PermissionRequest {
  id: string;
  /** The tool call's id in history. */
  callId: string;
  tool: string;
  /** The call's arguments as the model wrote them (parsed JSON). */
  arguments: unknown;
  /** For `write_file` and `edit_file`: what the call would change. */
  preview?: DiffPreview;
  /**
   * For a `bash` command that asks although the tool needs no approval: why (no sandbox, an
   * always-ask pattern) and what `allow_session` would allow (a prefix such as `npm test`).
   */
  command?: CommandAsk;
  /**
   * For a `task` call that picks a model whose conversation goes elsewhere than this session's
   * model (another provider, a local endpoint): which, where, and why it asks. `allow_session`
   * allows that model for later `task` calls.
   */
  model?: TaskModelAsk;
}

/**
 * An answer to a permission request: run this call; run this call and every later call of the
 * same tool in this Pod without asking; or do not run it, the model reading `deny` as the reason.
 */
export type PermissionDecision = "allow_once" | "allow_session" | { deny: string };
