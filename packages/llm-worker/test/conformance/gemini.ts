/**
 * Type-level conformance of the gemini scheme's wire types with the official SDK (@google/genai).
 * Nothing here runs: `tsc -p tsconfig.json` proves it. The SDK is imported for its types only.
 *
 * Two differences are bridged, not ignored:
 * - The SDK's enums are TypeScript string enums, which a string literal never satisfies; the JSON
 *   carries their string values, so the SDK types are compared through `Json<T>`, which turns each
 *   enum into the union of its values.
 * - The SDK's `GenerateContentParameters` is the argument of its method, not the REST body: it
 *   nests `systemInstruction`, `tools`, `toolConfig` and the generation settings in `config`. The
 *   body is checked field by field against the SDK's wire-level types (`SdkRestBody`), and then
 *   rearranged into the SDK's params to check that shape too.
 *
 * Not checkable: code-execution parts are sent back as the server sent them (typed only as far as
 * our wire types say), and the in-stream error element, which the SDK has no type for.
 */
import type {
  Candidate,
  Content,
  FunctionCall,
  FunctionCallingConfig,
  FunctionDeclaration,
  FunctionResponse,
  GenerateContentParameters,
  GenerateContentResponse,
  GenerateContentResponsePromptFeedback,
  GenerateContentResponseUsageMetadata,
  GenerationConfig,
  Part,
  PartialArg,
  ThinkingConfig,
  Tool,
  ToolConfig,
} from "@google/genai";
import type { Request } from "../../src/llm-client/request.js";
import { buildGeminiBody } from "../../src/llm-client/schemes/gemini/request.js";
import type {
  GeminiCandidate,
  GeminiContent,
  GeminiFunctionCallingConfig,
  GeminiFunctionCallPart,
  GeminiFunctionCallRequest,
  GeminiFunctionCallResponse,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiFunctionResponsePart,
  GeminiGenerationConfig,
  GeminiPartialArg,
  GeminiPromptFeedback,
  GeminiRequestBody,
  GeminiRequestPart,
  GeminiResponsePart,
  GeminiStreamChunk,
  GeminiSystemInstruction,
  GeminiTextPart,
  GeminiThinkingConfig,
  GeminiTool,
  GeminiToolConfig,
  GeminiUsageMetadata,
} from "../../src/llm-client/schemes/gemini/wire.js";

/** Compiles only when `T` is assignable to `U`. */
type Assignable<T extends U, U> = T;

/** An SDK type as JSON: string enums become the union of their values. */
type Json<T> = T extends string
  ? `${T}`
  : T extends readonly (infer E)[]
    ? Json<E>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** Field names of `T` (each member of a union) that `U` does not have: a misspelt optional field. */
type ExtraKeys<T, U> = T extends unknown ? Exclude<keyof T, keyof U> : never;

/** The REST body of `models.streamGenerateContent`, built from the SDK's wire-level types. */
interface SdkRestBody {
  contents: Json<Content>[];
  systemInstruction?: Json<Content>;
  tools?: Json<Tool>[];
  toolConfig?: Json<ToolConfig>;
  generationConfig?: Json<GenerationConfig>;
}

// ---- Request: everything we send is what the SDK's types allow, under their names. ----

export type BodyConforms = Assignable<GeminiRequestBody, SdkRestBody>;
export type BodyFields = Assignable<ExtraKeys<GeminiRequestBody, SdkRestBody>, never>;
export type ContentConforms = Assignable<GeminiContent, Json<Content>>;
export type ContentFields = Assignable<ExtraKeys<GeminiContent, Content>, never>;
export type SystemConforms = Assignable<GeminiSystemInstruction, Json<Content>>;
export type PartsConform = Assignable<GeminiRequestPart, Json<Part>>;
export type PartFields = Assignable<ExtraKeys<GeminiRequestPart, Part>, never>;
export type TextPartConforms = Assignable<GeminiTextPart, Json<Part>>;
export type FunctionCallPartConforms = Assignable<GeminiFunctionCallPart, Json<Part>>;
export type FunctionCallConforms = Assignable<GeminiFunctionCallRequest, Json<FunctionCall>>;
export type FunctionCallFields = Assignable<ExtraKeys<GeminiFunctionCallRequest, FunctionCall>, never>;
export type FunctionResponsePartConforms = Assignable<GeminiFunctionResponsePart, Json<Part>>;
export type FunctionResponseConforms = Assignable<GeminiFunctionResponse, Json<FunctionResponse>>;
export type FunctionResponseFields = Assignable<ExtraKeys<GeminiFunctionResponse, FunctionResponse>, never>;
export type ToolConforms = Assignable<GeminiTool, Json<Tool>>;
export type ToolFields = Assignable<ExtraKeys<GeminiTool, Tool>, never>;
export type DeclarationConforms = Assignable<GeminiFunctionDeclaration, Json<FunctionDeclaration>>;
export type DeclarationFields = Assignable<ExtraKeys<GeminiFunctionDeclaration, FunctionDeclaration>, never>;
export type ToolConfigConforms = Assignable<GeminiToolConfig, Json<ToolConfig>>;
export type ToolConfigFields = Assignable<ExtraKeys<GeminiToolConfig, ToolConfig>, never>;
export type CallingConfigConforms = Assignable<GeminiFunctionCallingConfig, Json<FunctionCallingConfig>>;
export type CallingConfigFields = Assignable<
  ExtraKeys<GeminiFunctionCallingConfig, FunctionCallingConfig>,
  never
>;
export type GenerationConfigConforms = Assignable<GeminiGenerationConfig, Json<GenerationConfig>>;
export type GenerationConfigFields = Assignable<ExtraKeys<GeminiGenerationConfig, GenerationConfig>, never>;
export type ThinkingConforms = Assignable<GeminiThinkingConfig, Json<ThinkingConfig>>;
export type ThinkingFields = Assignable<ExtraKeys<GeminiThinkingConfig, ThinkingConfig>, never>;

// ---- Response: every chunk the SDK says the server streams is one our decoder's types accept. ----

export type ChunkCovered = Assignable<Json<GenerateContentResponse>, GeminiStreamChunk>;
/** Only the error element is ours alone. */
export type ChunkFields = Assignable<
  Exclude<ExtraKeys<GeminiStreamChunk, GenerateContentResponse>, "error">,
  never
>;
export type CandidateCovered = Assignable<Json<Candidate>, GeminiCandidate>;
export type CandidateFields = Assignable<ExtraKeys<GeminiCandidate, Candidate>, never>;
export type PartCovered = Assignable<Json<Part>, GeminiResponsePart>;
export type ResponsePartFields = Assignable<ExtraKeys<GeminiResponsePart, Part>, never>;
export type StreamedCallCovered = Assignable<Json<FunctionCall>, GeminiFunctionCallResponse>;
export type StreamedCallFields = Assignable<ExtraKeys<GeminiFunctionCallResponse, FunctionCall>, never>;
export type PartialArgCovered = Assignable<Json<PartialArg>, GeminiPartialArg>;
export type PartialArgFields = Assignable<ExtraKeys<GeminiPartialArg, PartialArg>, never>;
export type FeedbackCovered = Assignable<Json<GenerateContentResponsePromptFeedback>, GeminiPromptFeedback>;
export type FeedbackFields = Assignable<
  ExtraKeys<GeminiPromptFeedback, GenerateContentResponsePromptFeedback>,
  never
>;
export type UsageCovered = Assignable<Json<GenerateContentResponseUsageMetadata>, GeminiUsageMetadata>;
export type UsageFields = Assignable<
  ExtraKeys<GeminiUsageMetadata, GenerateContentResponseUsageMetadata>,
  never
>;

// ---- The builder's return value, as the REST body and as the SDK's streaming request params. ----

function builtBodyConforms(request: Request): SdkRestBody {
  const body: SdkRestBody = buildGeminiBody(request, "model");
  return body;
}

function builtBodyAsSdkParams(request: Request): Json<GenerateContentParameters> {
  const { contents, systemInstruction, tools, toolConfig, generationConfig } = buildGeminiBody(
    request,
    "model",
  );
  return {
    model: "model",
    contents,
    config: {
      ...generationConfig,
      ...(systemInstruction !== undefined && { systemInstruction }),
      ...(tools !== undefined && { tools }),
      ...(toolConfig !== undefined && { toolConfig }),
    },
  };
}

export const conformanceChecks = [builtBodyConforms, builtBodyAsSdkParams];
