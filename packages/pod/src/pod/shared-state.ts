import type { Item } from "@yoake/llm-worker";
import type { Approvals } from "../approval/approvals.js";
import type { ReadTracker } from "../tools/read-tracker.js";

/**
 * What the Pod and its interceptor share (seed 004's `PodSharedState`). The file-reference stash
 * is filled by `Pod.run` just before it submits and drained by the Pod interceptor's
 * `onPromptSubmit` in that same submit, so it only ever holds the references of the prompt being
 * submitted.
 */
export class PodSharedState {
  private fileRefStash: Item[] = [];

  constructor(
    readonly approvals: Approvals,
    /** The files the model has seen whole this session (shared with the file tools). */
    readonly readTracker: ReadTracker,
  ) {}

  /** Replaces the stash: whatever a failed earlier submit left is never sent with this one. */
  stashFileRefs(items: readonly Item[]): void {
    this.fileRefStash = [...items];
  }

  /** Takes everything stashed, leaving the stash empty. */
  drainFileRefs(): Item[] {
    const items = this.fileRefStash;
    this.fileRefStash = [];
    return items;
  }
}
