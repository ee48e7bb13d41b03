/**
 * Type-level conformance with the official SDK (`ollama`): `tsc` proves that the body our builder
 * returns is a valid streaming `chat` request. Type-only imports; nothing here runs.
 */
import type { ChatRequest, ErrorResponse } from "ollama";
import type { Request } from "../../src/llm-client/request.js";
import { buildOllamaBody } from "../../src/llm-client/schemes/ollama/request.js";
import type {
  OllamaChatRequest,
  OllamaErrorLine,
  OllamaMessage,
  OllamaTool,
  OllamaToolCall,
} from "../../src/llm-client/schemes/ollama/wire.js";

/** The parameter type of the SDK's streaming `chat` overload. */
type SdkStreamingChatRequest = ChatRequest & { stream: true };
type SdkMessage = NonNullable<ChatRequest["messages"]>[number];
type SdkTool = NonNullable<ChatRequest["tools"]>[number];
type SdkToolCall = NonNullable<SdkMessage["tool_calls"]>[number];

/** Compiles only when `T` is assignable to `U`. */
type Assignable<T extends U, U> = T;

export type OllamaWireConformance = [
  Assignable<OllamaChatRequest, SdkStreamingChatRequest>,
  Assignable<OllamaMessage, SdkMessage>,
  Assignable<OllamaTool, SdkTool>,
  Assignable<OllamaToolCall, SdkToolCall>,
  Assignable<ErrorResponse, OllamaErrorLine>,
  Assignable<NonNullable<OllamaChatRequest["format"]>, NonNullable<ChatRequest["format"]>>,
];

// biome-ignore lint/correctness/noUnusedVariables: exists only to be type-checked.
function builtBodyConforms(request: Request): SdkStreamingChatRequest {
  const body: SdkStreamingChatRequest = buildOllamaBody(request, "model");
  return body;
}
