/**
 * `@yoake/llm-worker`: what an application embedding the library uses. Stream or complete a
 * request on any of five providers (`createClient`), run agent turns with tools (`Worker`, `tool`),
 * keep large tool outputs out of the context (`BlobStore`, `inspect`), prune old results
 * (`pruneInterceptor`), attach MCP servers (`connectMcp`) and ask for typed answers
 * (`outputSchema`, `completeObject`). The mock provider is `@yoake/llm-worker/testing`; what only
 * this project's other packages share is `@yoake/llm-worker/internal`.
 */

// ── Provider clients ────────────────────────────────────────────────────────────────────────────

/** One provider and model behind `stream()` (events) and `complete()` (the whole response). */
export { type CallOptions, type ClientOptions, createClient, type LlmClient } from "./llm-client/client.js";
/** A failure `createClient` or `complete()` throws, with its `kind`. */
export { LlmError } from "./llm-client/errors.js";
/** A stream's events (one flat union), the usage they report and why a response stopped. */
export type { ErrorKind, Event, StopReason, Usage } from "./llm-client/event.js";
/** An `LlmClient` over a chain of models: a request the first cannot serve goes to the next. */
export { createFallbackClient, type FallbackClientOptions, type ModelRef } from "./llm-client/fallback.js";
/** The conversation: a flat list of items, and the helpers that make the common ones. */
export {
  type ImagePart,
  type Item,
  type MessageItem,
  type SchemeName,
  systemMessage,
  type ToolCallItem,
  type ToolResultItem,
  userMessage,
} from "./llm-client/item.js";
/** What one request sends: system prompt, items, tools and the generation settings. */
export type { Request, WebSearchConfig } from "./llm-client/request.js";
/** A whole response: text, items to append to history, tool calls, usage and stop reason. */
export type { Response, ToolCall } from "./llm-client/response.js";

// ── Tools ───────────────────────────────────────────────────────────────────────────────────────

/** A tool the model can call, made from a zod schema (`tool`) or an object's methods (`toolsFrom`). */
export { type Tool, type ToolContext, tool, toolsFrom } from "./tool/tool.js";
/** A tool result of images, with an optional text beside them. */
export { imageOutput } from "./tool/tool-images.js";
/** What a tool may return instead of a string: kept `inline`, or `stored` in the BlobStore. */
export { type Content, inline, stored, type ToolOutput } from "./tool/tool-output.js";

// ── The Worker ──────────────────────────────────────────────────────────────────────────────────

/** The Pod's policy for a Worker with a BlobStore: how results are stored and when prune runs. */
export { BLOB_STORE_PRUNE_OPTIONS, BLOB_STORE_TOOL_OUTPUT } from "./worker/context-policy.js";
/** What a Worker tells its listeners while it runs: `worker.on(type, fn)`, `worker.subscribe(subscriber)`. */
export type { WorkerEvent } from "./worker/events.js";
/** The two tiers of extension: interceptors see the live context, hooks read-only summaries. */
export type { Hook, Interceptor } from "./worker/hooks.js";
/** How a run ended: finished (with the answer), paused, cancelled or failed. */
export type { WorkerResult } from "./worker/result.js";
/**
 * The agent turn loop: requests, tool calls, hooks, pause and resume over one history;
 * `worker.lock()` gives the `CacheLockedWorker`, which cannot change the cached prefix.
 */
export { type CacheLockedWorker, type RunOptions, Worker, type WorkerOptions } from "./worker/worker.js";
export type { WorkerSubscriber } from "./worker/worker-events.js";

// ── Timeline ────────────────────────────────────────────────────────────────────────────────────

/** A stream's events with block structure: kinds, handlers with per-block scopes (seed 002). */
export { Timeline } from "./timeline/timeline.js";

// ── Large tool outputs (seed 000) ───────────────────────────────────────────────────────────────

/** Where stored tool outputs live, and why one could not be read. */
export { type BlobStore, BlobStoreError } from "./tool-output/blob-store.js";
/** A BlobStore in a directory, one file per blob, written atomically. */
export { FsBlobStore } from "./tool-output/fs-blob-store.js";
/** The `inspect` tool, which reads a stored output piece by piece (a Worker with a store adds it). */
export { createInspectTool } from "./tool-output/inspect-tool.js";
/** A BlobStore in memory, for tests and applications that keep nothing on disk. */
export { MemoryBlobStore } from "./tool-output/memory-blob-store.js";

// ── Context pruning (seed 003) ──────────────────────────────────────────────────────────────────

/** Projects the context before a request when dropping old tool results' content pays. */
export { ContextPruner } from "./context/context-pruner.js";
/** The prune interceptor for a Worker's `interceptors`. */
export { type PruneInterceptor, type PruneOptions, pruneInterceptor } from "./context/prune-interceptor.js";
/** Recall at the turn boundary: a message's names looked up in earlier outputs, for a Worker's `interceptors`. */
export {
  type RecallInterceptor,
  type RecallInterceptorOptions,
  recallInterceptor,
} from "./context/recall-interceptor.js";
/** Token estimates anchored on the usage each provider reported. */
export { TokenAccountant } from "./context/token-accounting.js";

// ── MCP ─────────────────────────────────────────────────────────────────────────────────────────

/** How to start or reach an MCP server. */
export type { McpServerConfig } from "./mcp/mcp-config.js";
/** A server that could not be started or reached: `kind`, the server's name and its stderr. */
export { McpConnectError } from "./mcp/mcp-connect-error.js";
/** Connects an MCP server (stdio or HTTP) and gives its tools as `Tool`s. */
export { connectMcp, McpConnection } from "./mcp/mcp-connection.js";

// ── Structured output ───────────────────────────────────────────────────────────────────────────

/** One typed object from a model, checked against a schema and repaired once when it is not. */
export { completeObject } from "./structured/complete-object.js";
/** The answer did not match the schema, even after the repair request. */
export { StructuredOutputError } from "./structured/errors.js";
/** An output schema from zod or JSON Schema, for `completeObject` and `worker.run(…, { output })`. */
export { type OutputSchema, outputSchema } from "./structured/output-schema.js";
