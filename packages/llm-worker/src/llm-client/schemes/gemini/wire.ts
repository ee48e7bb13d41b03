/**
 * Our own types for the Gemini API wire format (`models.streamGenerateContent`, v1beta), written
 * from Google's REST reference. Request types say exactly what we send; response types say what we
 * read and stay loose where the server varies: under `enum-encoding=int` every enum is a number.
 * `test/conformance/gemini.ts` checks both sides against the official SDK's types.
 */

/** A conversation turn. Gemini knows only these two roles; system text travels apart. */
export type GeminiRole = "user" | "model";

// ---------------------------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------------------------

/** The JSON body of `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`. */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: GeminiSystemInstruction;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
}

export interface GeminiContent {
  role: GeminiRole;
  parts: GeminiRequestPart[];
}

/** The system prompt: a content without a role. */
export interface GeminiSystemInstruction {
  parts: GeminiTextPart[];
}

/** One part of a request turn; exactly one of the payload fields is set. */
export type GeminiRequestPart =
  | GeminiTextPart
  | GeminiInlineDataPart
  | GeminiFileDataPart
  | GeminiFunctionCallPart
  | GeminiFunctionResponsePart
  | GeminiExecutableCodePart
  | GeminiCodeExecutionResultPart;

/** Text, or with `thought: true` a thought summary the model wrote earlier. */
export interface GeminiTextPart {
  text: string;
  thought?: boolean;
  /** Opaque, base64; sent back exactly as received, on the part it came on. */
  thoughtSignature?: string;
}

/** Bytes (base64) with their media type: an image of a user turn. */
export interface GeminiInlineDataPart {
  inlineData: { mimeType: string; data: string };
}

/** A file by URI (an uploaded file, a `gs://` or `https:` URL). */
export interface GeminiFileDataPart {
  fileData: { fileUri: string; mimeType?: string };
}

export interface GeminiFunctionCallPart {
  functionCall: GeminiFunctionCallRequest;
  thoughtSignature?: string;
}

export interface GeminiFunctionCallRequest {
  /** Only when the model gave one (Gemini 3); matched by the response's `id`. */
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiFunctionResponsePart {
  functionResponse: GeminiFunctionResponse;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** The API reads `output` for a result and `error` for a failure. */
  response: { output: string } | { error: string };
  /** Images the tool returned (Gemini 3: multimodal function responses). */
  parts?: Array<GeminiInlineDataPart | GeminiFileDataPart>;
}

/** Code the model ran with the built-in code execution tool; sent back as received. */
export interface GeminiExecutableCodePart {
  executableCode: { language?: "LANGUAGE_UNSPECIFIED" | "PYTHON"; code?: string; id?: string };
  thoughtSignature?: string;
}

/** The result of the built-in code execution tool; sent back as received. */
export interface GeminiCodeExecutionResultPart {
  codeExecutionResult: {
    outcome?: "OUTCOME_UNSPECIFIED" | "OUTCOME_OK" | "OUTCOME_FAILED" | "OUTCOME_DEADLINE_EXCEEDED";
    output?: string;
    id?: string;
  };
  thoughtSignature?: string;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** Plain JSON Schema (the API's alternative to its OpenAPI-subset `parameters`). */
  parametersJsonSchema: Record<string, unknown>;
}

export interface GeminiToolConfig {
  functionCallingConfig: GeminiFunctionCallingConfig;
}

export interface GeminiFunctionCallingConfig {
  mode: "AUTO" | "ANY" | "NONE";
  /** Only with mode `ANY`. */
  allowedFunctionNames?: string[];
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  thinkingConfig?: GeminiThinkingConfig;
  /** Structured output: `application/json` with `responseJsonSchema` (full JSON Schema). */
  responseMimeType?: string;
  responseJsonSchema?: { [key: string]: unknown };
}

/** `thinkingBudget` (Gemini 2.5) and `thinkingLevel` (Gemini 3) are exclusive. */
export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";
}

// ---------------------------------------------------------------------------------------------
// Response stream
// ---------------------------------------------------------------------------------------------

/**
 * One streamed `GenerateContentResponse` (an SSE `data:` payload, or one element of the JSON
 * array), or an error element in its place.
 */
export interface GeminiStreamChunk {
  candidates?: GeminiCandidate[];
  promptFeedback?: GeminiPromptFeedback;
  /** Cumulative: each chunk repeats the totals so far. */
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  /** Present instead of the rest when the server fails mid-stream. */
  error?: GeminiError;
}

export interface GeminiCandidate {
  content?: { parts?: GeminiResponsePart[]; role?: string };
  /** A FinishReason name, or its number under `enum-encoding=int`. Set on the last chunk. */
  finishReason?: string | number;
  finishMessage?: string;
  index?: number;
}

export interface GeminiResponsePart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCallResponse;
  executableCode?: { language?: string | number; code?: string; id?: string };
  codeExecutionResult?: { outcome?: string | number; output?: string; id?: string };
}

/**
 * A function call as streamed. Whole (`name` and `args`), or with streamed arguments: an opening
 * part with `willContinue: true`, continuations carrying `partialArgs`, and a last part without
 * `willContinue` (often an empty `functionCall`).
 */
export interface GeminiFunctionCallResponse {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
  partialArgs?: GeminiPartialArg[];
  willContinue?: boolean;
}

/** One streamed argument value at a JSON path (`$.location`, `$.items[0].name`). */
export interface GeminiPartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: string | number;
  /** More `stringValue` pieces for the same path follow. */
  willContinue?: boolean;
}

export interface GeminiPromptFeedback {
  /** Set when the prompt itself was blocked; the response then has no candidates. */
  blockReason?: string | number;
}

export interface GeminiUsageMetadata {
  /** The whole prompt, cached content included. */
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  /** Tokens of server-side tool results fed back to the model (input, billed as prompt). */
  toolUsePromptTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

/** Google's error shape (`google.rpc.Status` as JSON). */
export interface GeminiError {
  /** The HTTP status code. */
  code?: number;
  message?: string;
  /** The canonical status name: `RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`, ... */
  status?: string;
  details?: unknown[];
}
