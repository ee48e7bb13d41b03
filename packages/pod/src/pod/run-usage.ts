import type { Usage, WorkerResult } from "@yoake/llm-worker";
import { addUsage } from "@yoake/llm-worker/internal";

/**
 * The usage `Pod.status()` reports: every run the Pod finished, plus what a paused run used so far.
 * A paused run's continuation reports the part before the pause again, so that part is replaced
 * when the continuation ends, never added to.
 */
export class RunUsage {
  private ofEndedRuns: Usage = {};
  private ofPausedRun: Usage = {};

  /** A new run replaces a paused one for good: what that one used is final. */
  closePausedRun(): void {
    this.ofEndedRuns = addUsage(this.ofEndedRuns, this.ofPausedRun);
    this.ofPausedRun = {};
  }

  /** Counts a run (or a continuation) that stopped with `result`. */
  record(result: WorkerResult): void {
    if (result.status === "paused") this.ofPausedRun = result.usage;
    else {
      this.ofEndedRuns = addUsage(this.ofEndedRuns, result.usage);
      this.ofPausedRun = {};
    }
  }

  get total(): Usage {
    return addUsage(this.ofEndedRuns, this.ofPausedRun);
  }
}
