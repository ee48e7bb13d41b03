/**
 * `@yoake/llm-worker/testing`: test utilities for this package and the layers above it — the mock
 * provider server, scripted responses, and each provider's encoder of a scripted response.
 */
/** A recorded response body decoded into events with no network, as a client would stream them. */
export { decodeStream } from "../llm-client/decode.js";
export { encodeAnthropic } from "./encoders/anthropic.js";
export { encodeGemini } from "./encoders/gemini.js";
export { encodeOllama } from "./encoders/ollama.js";
export { encodeOpenaiChat } from "./encoders/openai-chat.js";
export { encodeOpenaiResponses } from "./encoders/openai-responses.js";
export { limitFault } from "./limit-faults.js";
export {
  encodeScripted,
  type MockFault,
  type MockHandler,
  type MockProvider,
  type MockProviderOptions,
  type MockReply,
  type RawReply,
  type RecordedRequest,
  startMockProvider,
} from "./mock-provider.js";
export { type RecordedImage, recordedImages } from "./recorded-images.js";
export {
  pieces,
  type ScriptedBlock,
  type ScriptedResponse,
  type ScriptedUsage,
  stopReasonOf,
} from "./script.js";
