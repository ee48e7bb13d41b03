/**
 * The interactive terminal UI of `yoake`: `runInteractive({ pod })` on an in-process Pod or
 * anything else that implements `PodLike` (a protocol client).
 */
export type {
  FileTree,
  FileTreeEntry,
  ModelSummary,
  PodLike,
  RunOutcome,
  SessionSummary,
} from "./pod-like.js";
export { type InteractiveOptions, runInteractive } from "./run-interactive.js";
export { runTrustPrompt } from "./trust-prompt-runner.js";
