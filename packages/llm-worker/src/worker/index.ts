export { BLOB_STORE_PRUNE_OPTIONS, BLOB_STORE_TOOL_OUTPUT } from "./context-policy.js";
export type * from "./events.js";
export { HookError } from "./hook-runner.js";
export type * from "./hooks.js";
export { listenerIterator } from "./listener-iterator.js";
export { type PruneInterceptor, type PruneOptions, pruneInterceptor } from "./prune-interceptor.js";
export { addUsage, type WorkerError, type WorkerResult } from "./result.js";
export * from "./tool.js";
export { describeImages, type ImageToolOutput, imageOutput } from "./tool-images.js";
export {
  type CacheLockedWorker,
  type GenerationSettings,
  type RunOptions,
  Worker,
  type WorkerApi,
  type WorkerOptions,
} from "./worker.js";
export { WorkerEvents, type WorkerSubscriber } from "./worker-events.js";
