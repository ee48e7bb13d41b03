import type { ImagePart, Item } from "@yoake/llm-worker";
import type { Unsubscribe } from "@yoake/llm-worker/internal";
import type { PermissionDecision, PermissionRequest } from "../approval/permission.js";
import type { CompactionResult } from "../compaction/compaction-result.js";
import type { Segment } from "../file-ref/segments.js";
import type { PodEvent } from "../pod/events.js";
import type { NoteOutcome, NoteRole, PodStatus } from "../pod/status.js";
import type { PodRunResult } from "../pod.js";

/**
 * What the protocol server needs of a Pod (`Pod` has all of it). Its events reach every client
 * through `listen`; a compaction announces the new history itself (`history_changed`). `compact`
 * and `close` are optional: without compaction the method answers `not_supported`; `close`, when
 * present, runs at shutdown (it flushes and closes the session log). `manifest.warnings`, when
 * present, is what the Pod warned about as it started: every client is told in `hello`.
 */
export interface ServedPod {
  readonly history: readonly Item[];
  readonly pendingPermission: PermissionRequest | undefined;
  readonly manifest?: { readonly warnings: readonly string[] };
  listen(listener: (event: PodEvent) => void): Unsubscribe;
  run(input: readonly Segment[], options?: { images?: readonly ImagePart[] }): Promise<PodRunResult>;
  respond(id: string, decision: PermissionDecision): Promise<PodRunResult>;
  resume(): Promise<PodRunResult>;
  cancel(): boolean;
  notify(text: string, role?: NoteRole): NoteOutcome;
  status(): PodStatus;
  compact?(): Promise<CompactionResult>;
  close?(): Promise<void>;
}
