export * from "./context/index.js";
export * from "./llm-client/client.js";
export { decodeStream } from "./llm-client/decode.js";
export * from "./llm-client/errors.js";
export type * from "./llm-client/event.js";
export {
  createFallbackClient,
  type FallbackClient,
  type FallbackClientOptions,
  type FallbackNotice,
  isFallbackError,
  type ModelRef,
} from "./llm-client/fallback.js";
export * from "./llm-client/item.js";
export type * from "./llm-client/request.js";
export * from "./llm-client/response.js";
export type { Endpoint, Frame, HttpRequest, Scheme, StreamDecoder } from "./llm-client/scheme.js";
export { getScheme, schemeNames, schemes } from "./llm-client/schemes/index.js";
export * from "./mcp/index.js";
export * from "./structured/index.js";
export * from "./timeline/index.js";
export * from "./tool-output/index.js";
export * from "./worker/index.js";
