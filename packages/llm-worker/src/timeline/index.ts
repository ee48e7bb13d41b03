/** The Timeline layer (seed 002): Kind / Handler dispatch with per-block scopes, and collectors. */
export { collectResponse } from "./collect-response.js";
export type * from "./event.js";
export type * from "./handler.js";
export { type HandlerFailure, TimelineHandlerError } from "./handler-error.js";
export {
  type CollectedText,
  type OnTextCollected,
  TextBlockCollector,
  type TextCollectorScope,
} from "./text-block-collector.js";
export {
  type CollectedThinking,
  type OnThinkingCollected,
  ThinkingBlockCollector,
  type ThinkingCollectorScope,
} from "./thinking-block-collector.js";
export { Timeline } from "./timeline.js";
export {
  type CollectedToolCall,
  ToolCallCollector,
  type ToolCallCollectorScope,
} from "./tool-call-collector.js";
