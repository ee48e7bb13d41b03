/**
 * `@yoake/llm-worker/internal`: what `@yoake/pod`, `@yoake/fleet` and `yoake` share with this
 * package beyond its public face (`@yoake/llm-worker`). These are building blocks of those layers,
 * not an API: they change with them, without notice. An application uses the public face.
 */

/** Token estimates of text and items, without a provider's count. */
export {
  estimateItemTokens,
  estimateTextTokens,
  itemTokensAtMost,
  sumItemTokens,
  textTokensAtMost,
} from "./context/tokens.js";
/** The message of an unknown thrown value, one line. */
export { errorMessage } from "./llm-client/errors.js";
export type { ErrorInfo } from "./llm-client/event.js";
/** Whether an item is the user's message (a turn starts there). */
export { type ImageMediaType, isUserMessage } from "./llm-client/item.js";
/** The request-side shapes of a tool and of reasoning settings. */
export type { ReasoningConfig, ToolDefinition } from "./llm-client/request.js";
/** A tool call's arguments text parsed the way the response assembler parses it. */
export { parseToolArguments } from "./llm-client/response.js";
/** Scheme lookup by name, for code that checks a configured scheme or reads its keys. */
export { getScheme, schemes } from "./llm-client/schemes/index.js";
/** How an MCP connection ended. */
export type { McpCloseInfo } from "./mcp/mcp-connection.js";
/** The removal function every `on…` subscription returns. */
export type { Unsubscribe } from "./timeline/handler.js";
/** A tool as the provider sees it (name, description, JSON Schema), and what `execute` may return. */
export { type ToolResultValue, toolDefinition } from "./tool/tool.js";
/** Blob ids (UUID v7) and the `not_found` error, for BlobStores written outside this package. */
export { type BlobId, isBlobId, newBlobId, notFound as blobNotFoundError } from "./tool-output/blob-store.js";
/** A time-ordered UUID (v7). */
export { uuidV7 } from "./tool-output/uuid-v7.js";
/** Worker events as an async iterator, and the event types by name. */
export type { WorkerEventOf, WorkerEventType } from "./worker/events.js";
/** The actions a hook or interceptor returns at a stage, named for code that builds them. */
export type { BeforeToolAction, InterceptorPromptAction, PromptAction } from "./worker/hooks.js";
export { listenerIterator } from "./worker/listener-iterator.js";
/** Adds one usage to a running total (token counts summed, absent ones kept absent). */
export { addUsage } from "./worker/result.js";
/** A Worker's request settings other than the conversation. */
export type { GenerationSettings } from "./worker/worker.js";
export { WorkerEvents } from "./worker/worker-events.js";
