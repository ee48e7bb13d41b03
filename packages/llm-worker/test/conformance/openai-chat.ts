/**
 * Type-level conformance of the openai-chat scheme with the official `openai` SDK: `tsc` fails if
 * the body we build stops being one the SDK would send, or if our chunk type cannot hold what the
 * SDK says the server streams. Only types are imported; nothing here runs.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { ResponseFormatJSONSchema } from "openai/resources/shared";
import type { Request } from "../../src/llm-client/request.js";
import { buildOpenaiChatBody } from "../../src/llm-client/schemes/openai-chat/request.js";
import type {
  OpenaiChatBody,
  OpenaiChatChunk,
  OpenaiChatMessage,
  OpenaiChatResponseFormat,
  OpenaiChatTool,
  OpenaiChatToolChoice,
  OpenaiChatUsage,
} from "../../src/llm-client/schemes/openai-chat/wire.js";

/** Compiles only when `T` is `true`. */
type Assert<T extends true> = T;

// Our request types are assignable to the SDK's, part by part (a failure names the part).
export type BodyConforms = Assert<OpenaiChatBody extends ChatCompletionCreateParamsStreaming ? true : false>;
export type MessageConforms = Assert<OpenaiChatMessage extends ChatCompletionMessageParam ? true : false>;
export type ToolConforms = Assert<OpenaiChatTool extends ChatCompletionTool ? true : false>;
export type ResponseFormatConforms = Assert<
  OpenaiChatResponseFormat extends ResponseFormatJSONSchema ? true : false
>;
export type ToolChoiceConforms = Assert<
  OpenaiChatToolChoice extends ChatCompletionToolChoiceOption ? true : false
>;

// What the SDK says the server streams fits our chunk and usage types.
export type ChunkConforms = Assert<ChatCompletionChunk extends OpenaiChatChunk ? true : false>;
export type UsageConforms = Assert<CompletionUsage extends OpenaiChatUsage ? true : false>;

// The builder's return value, as a value.
function builtBodyIsSdkParams(request: Request): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = buildOpenaiChatBody(request, "model");
  return body;
}
void builtBodyIsSdkParams;
