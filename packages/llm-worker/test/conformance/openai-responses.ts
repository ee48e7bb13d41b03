/**
 * Type-level conformance of the openai-responses scheme's wire types with the official SDK. Nothing
 * here runs: `tsc -p tsconfig.json` proves it. The SDK is imported for its types only.
 *
 * Request side: the body our builder returns, and every input item, tool and option type in it,
 * must be assignable to the SDK's streaming request params. Stream side: each SDK event the
 * decoder reads must be assignable to our type for it, so a field we read exists on the wire.
 * (`providerOptions` are merged over the body untyped; they are the caller's own fields.)
 */
import type {
  FunctionTool,
  ResponseCompletedEvent,
  ResponseContentPartAddedEvent,
  ResponseCreateParamsStreaming,
  ResponseErrorEvent,
  ResponseFailedEvent,
  ResponseFormatTextJSONSchemaConfig,
  ResponseFunctionCallArgumentsDeltaEvent,
  ResponseFunctionCallArgumentsDoneEvent,
  ResponseIncludable,
  ResponseIncompleteEvent,
  ResponseInputItem,
  ResponseReasoningSummaryPartAddedEvent,
  ResponseReasoningSummaryTextDeltaEvent,
  ResponseRefusalDeltaEvent,
  ResponseTextDeltaEvent,
  ResponseTextDoneEvent,
  ResponseUsage,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from "openai/resources/responses/responses";
import type { Reasoning } from "openai/resources/shared";
import type { Request } from "../../src/llm-client/request.js";
import { buildOpenaiResponsesBody } from "../../src/llm-client/schemes/openai-responses/request.js";
import type {
  OpenaiResponsesBody,
  WireArgumentsDeltaEvent,
  WireArgumentsDoneEvent,
  WireBuiltinToolItem,
  WireContentPartEvent,
  WireErrorEvent,
  WireFunctionTool,
  WireIncludable,
  WireInputItem,
  WireJsonSchemaFormat,
  WireLifecycleEvent,
  WireReasoningConfig,
  WireReasoningDeltaEvent,
  WireSummaryPartEvent,
  WireTextDeltaEvent,
  WireTextDoneEvent,
  WireToolChoice,
  WireUsage,
} from "../../src/llm-client/schemes/openai-responses/wire.js";

/** Compiles only when `T` is assignable to `U`. */
type Assignable<T extends U, U> = T;

// The request wire types, piece by piece.
export type BodyConforms = Assignable<OpenaiResponsesBody, ResponseCreateParamsStreaming>;
export type InputItemsConform = Assignable<WireInputItem, ResponseInputItem>;
export type BuiltinToolItemsConform = Assignable<WireBuiltinToolItem, ResponseInputItem>;
export type ToolConforms = Assignable<WireFunctionTool, FunctionTool>;
export type ToolChoiceConforms = Assignable<WireToolChoice, ToolChoiceOptions | ToolChoiceFunction>;
export type ReasoningConforms = Assignable<WireReasoningConfig, Reasoning>;
export type IncludeConforms = Assignable<WireIncludable, ResponseIncludable>;
export type JsonSchemaFormatConforms = Assignable<WireJsonSchemaFormat, ResponseFormatTextJSONSchemaConfig>;

// The stream events the decoder reads, as the SDK describes them.
export type CompletedCovered = Assignable<ResponseCompletedEvent, WireLifecycleEvent>;
export type IncompleteCovered = Assignable<ResponseIncompleteEvent, WireLifecycleEvent>;
export type FailedCovered = Assignable<ResponseFailedEvent, WireLifecycleEvent>;
export type UsageCovered = Assignable<ResponseUsage, WireUsage>;
export type ContentPartCovered = Assignable<ResponseContentPartAddedEvent, WireContentPartEvent>;
export type TextDeltaCovered = Assignable<ResponseTextDeltaEvent, WireTextDeltaEvent>;
export type RefusalDeltaCovered = Assignable<ResponseRefusalDeltaEvent, WireTextDeltaEvent>;
export type TextDoneCovered = Assignable<ResponseTextDoneEvent, WireTextDoneEvent>;
export type SummaryPartCovered = Assignable<ResponseReasoningSummaryPartAddedEvent, WireSummaryPartEvent>;
export type SummaryDeltaCovered = Assignable<ResponseReasoningSummaryTextDeltaEvent, WireReasoningDeltaEvent>;
export type ArgumentsDeltaCovered = Assignable<
  ResponseFunctionCallArgumentsDeltaEvent,
  WireArgumentsDeltaEvent
>;
export type ArgumentsDoneCovered = Assignable<ResponseFunctionCallArgumentsDoneEvent, WireArgumentsDoneEvent>;
export type ErrorEventCovered = Assignable<ResponseErrorEvent, WireErrorEvent>;

/** The builder's return type, as the SDK's streaming request params. */
function builtBodyConforms(request: Request): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = buildOpenaiResponsesBody(request, "model");
  return body;
}

export type BuilderChecked = typeof builtBodyConforms;
