export { type PruneInterceptor, type PruneOptions, pruneInterceptor } from "../context/prune-interceptor.js";
export * from "../tool/tool.js";
export { describeImages, type ImageToolOutput, imageOutput } from "../tool/tool-images.js";
export { BLOB_STORE_PRUNE_OPTIONS, BLOB_STORE_TOOL_OUTPUT } from "./context-policy.js";
export type * from "./events.js";
export { HookError } from "./hook-runner.js";
export type * from "./hooks.js";
export { listenerIterator } from "./listener-iterator.js";
export { addUsage, type WorkerError, type WorkerResult } from "./result.js";
export {
  type CacheLockedWorker,
  type GenerationSettings,
  type RunOptions,
  Worker,
  type WorkerApi,
  type WorkerOptions,
} from "./worker.js";
export { WorkerEvents, type WorkerSubscriber } from "./worker-events.js";
