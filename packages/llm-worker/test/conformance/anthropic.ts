/**
 * Type-level conformance of the anthropic scheme's wire types with the official SDK. Nothing here
 * runs: `tsc -p tsconfig.json` proves it. The SDK is imported for its types only.
 *
 * One part cannot be checked: blocks the API produced and we send back byte-exact (server tool
 * calls and results, `AnthropicEchoedBlock`) are the provider's own JSON, typed only by their
 * `type`. Everything this scheme builds itself is checked against the SDK.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  OutputConfig,
  RawMessageStreamEvent,
  TextBlockParam,
  ThinkingConfigParam,
  ToolChoice,
  ToolUnion,
} from "@anthropic-ai/sdk/resources/messages";
import type { Request } from "../../src/llm-client/request.js";
import { buildAnthropicBody } from "../../src/llm-client/schemes/anthropic/request.js";
import type {
  AnthropicAssistantMessage,
  AnthropicEchoedBlock,
  AnthropicImageBlockParam,
  AnthropicMessagesBody,
  AnthropicOutputConfig,
  AnthropicOwnAssistantBlockParam,
  AnthropicStreamEvent,
  AnthropicTextBlockParam,
  AnthropicThinkingConfig,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicUserBlockParam,
} from "../../src/llm-client/schemes/anthropic/wire.js";

/** Compiles only when `T` is assignable to `U`. */
type Assignable<T extends U, U> = T;

/** A body with the echoed blocks taken out of the assistant turns: what the SDK can check. */
type Checkable<Body extends AnthropicMessagesBody> = Omit<Body, "messages"> & {
  messages: Array<
    | Exclude<Body["messages"][number], AnthropicAssistantMessage>
    | { role: "assistant"; content: AnthropicOwnAssistantBlockParam[] }
  >;
};

// The wire types, piece by piece.
export type BodyConforms = Assignable<Checkable<AnthropicMessagesBody>, MessageCreateParamsStreaming>;
export type UserBlocksConform = Assignable<AnthropicUserBlockParam, ContentBlockParam>;
export type AssistantBlocksConform = Assignable<AnthropicOwnAssistantBlockParam, ContentBlockParam>;
export type ImageConforms = Assignable<AnthropicImageBlockParam, ImageBlockParam>;
export type SystemConforms = Assignable<AnthropicTextBlockParam, TextBlockParam>;
export type ToolConforms = Assignable<AnthropicTool, ToolUnion>;
export type ToolChoiceConforms = Assignable<AnthropicToolChoice, ToolChoice>;
export type ThinkingConforms = Assignable<AnthropicThinkingConfig, ThinkingConfigParam>;
/** Structured output: the SDK's own `output_config.format` (JSON schema), not a forced tool. */
export type OutputConfigConforms = Assignable<AnthropicOutputConfig, OutputConfig>;

/** Every event the SDK says the server streams is one the decoder's wire types accept. */
export type StreamEventsCovered = Assignable<RawMessageStreamEvent, AnthropicStreamEvent>;

/** The builder's return type, as the SDK's streaming request params. */
function builtBodyConforms(request: Request): MessageCreateParamsStreaming {
  const body: Checkable<ReturnType<typeof buildAnthropicBody>> = withoutEchoedBlocks(
    buildAnthropicBody(request, "model"),
  );
  const params: MessageCreateParamsStreaming = body;
  return params;
}

function withoutEchoedBlocks(body: AnthropicMessagesBody): Checkable<AnthropicMessagesBody> {
  return {
    ...body,
    messages: body.messages.map((message) =>
      message.role === "user" ? message : { role: "assistant", content: message.content.filter(isOwnBlock) },
    ),
  };
}

const OWN_ASSISTANT_TYPES: ReadonlySet<string> = new Set([
  "text",
  "thinking",
  "redacted_thinking",
  "tool_use",
]);

function isOwnBlock(
  block: AnthropicOwnAssistantBlockParam | AnthropicEchoedBlock,
): block is AnthropicOwnAssistantBlockParam {
  return OWN_ASSISTANT_TYPES.has(block.type);
}

export const conformanceChecks = [builtBodyConforms];
