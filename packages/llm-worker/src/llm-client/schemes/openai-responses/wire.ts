/**
 * Our own types for the OpenAI Responses API wire format (`POST /v1/responses`, `stream: true`),
 * written from the provider's API reference. Only what this scheme sends or reads is modelled;
 * `test/conformance/openai-responses.ts` proves the request side is assignable to the official SDK
 * types, so a field we get wrong here fails `tsc`, not a live call.
 */

// ---------------------------------------------------------------------------------------------
// Request body
// ---------------------------------------------------------------------------------------------

/** The JSON body of a streaming `POST /responses`. */
export interface OpenaiResponsesBody {
  model: string;
  /** The system prompt. */
  instructions?: string;
  input: WireInputItem[];
  tools?: Array<WireFunctionTool | WireWebSearchTool>;
  tool_choice?: WireToolChoice;
  max_output_tokens?: number;
  temperature?: number;
  top_p?: number;
  reasoning?: WireReasoningConfig;
  /** `reasoning.encrypted_content` lets reasoning round-trip while `store` is false. */
  include?: WireIncludable[];
  /** False by default here: every request carries its whole history (stateless). */
  store?: boolean;
  /** The answer's format: a JSON schema for structured output. */
  text?: { format: WireJsonSchemaFormat };
  stream: true;
}

export interface WireJsonSchemaFormat {
  type: "json_schema";
  name: string;
  schema: { [key: string]: unknown };
  description?: string;
  strict?: boolean;
}

export type WireIncludable = "reasoning.encrypted_content";

export type WireReasoningEffort = "minimal" | "low" | "medium" | "high";

export interface WireReasoningConfig {
  effort?: WireReasoningEffort;
  summary?: "auto" | "concise" | "detailed";
}

export interface WireFunctionTool {
  type: "function";
  name: string;
  description?: string;
  parameters: { [key: string]: unknown };
  strict: boolean;
}

/** The built-in web search, run by OpenAI: its calls come back as `web_search_call` items. */
export interface WireWebSearchTool {
  type: "web_search";
  filters?: { allowed_domains: string[] };
}

export type WireToolChoice = "auto" | "none" | "required" | { type: "function"; name: string };

export type WireInputItem =
  | WireInputMessage
  | WireAssistantTextMessage
  | WireAssistantOutputMessage
  | WireReasoningItem
  | WireFunctionCall
  | WireFunctionCallOutput
  | WireBuiltinToolItem;

/** A user, system or developer message. */
export interface WireInputMessage {
  type: "message";
  role: "user" | "system" | "developer";
  content: Array<WireInputText | WireInputImage>;
}

export interface WireInputText {
  type: "input_text";
  text: string;
}

/** An image: `image_url` is an `https:` URL or a `data:image/…;base64,` URL. */
export interface WireInputImage {
  type: "input_image";
  image_url: string;
  detail: "auto";
}

/** An earlier assistant answer we have no item id for: the API takes its text as a plain string. */
export interface WireAssistantTextMessage {
  type: "message";
  role: "assistant";
  content: string;
}

/** An earlier assistant message item of this API, sent back with its id. */
export interface WireAssistantOutputMessage {
  type: "message";
  id: string;
  role: "assistant";
  status: "completed";
  content: WireOutputText[];
}

export interface WireOutputText {
  type: "output_text";
  text: string;
  /** Always sent empty: annotations are not kept in history. */
  annotations: [];
}

export interface WireReasoningItem {
  type: "reasoning";
  id: string;
  summary: WireSummaryText[];
  encrypted_content?: string | null;
}

export interface WireSummaryText {
  type: "summary_text";
  text: string;
}

export interface WireFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  /** JSON text. */
  arguments: string;
  /** The output item id (`fc_…`), only for calls this API produced. */
  id?: string;
}

export interface WireFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  /** The result's text, or its text and images when the tool returned images. */
  output: string | Array<WireInputText | WireInputImage>;
}

/** Built-in (server-executed) tool call items that are sent back verbatim. */
export type WireBuiltinToolItem =
  | WireWebSearchCall
  | WireFileSearchCall
  | WireCodeInterpreterCall
  | WireImageGenerationCall
  | WireMcpCall;

export type WireBuiltinToolType = WireBuiltinToolItem["type"];

export interface WireWebSearchCall {
  type: "web_search_call";
  id: string;
  status: "in_progress" | "searching" | "completed" | "failed";
  action:
    | { type: "search"; query?: string; queries?: string[]; sources?: Array<{ type: "url"; url: string }> }
    | { type: "open_page"; url?: string | null }
    | { type: "find_in_page"; url: string; pattern: string };
}

export interface WireFileSearchCall {
  type: "file_search_call";
  id: string;
  queries: string[];
  status: "in_progress" | "searching" | "completed" | "incomplete" | "failed";
  results?: Array<{
    file_id?: string;
    filename?: string;
    score?: number;
    text?: string;
    attributes?: { [key: string]: string | number | boolean } | null;
  }> | null;
}

export interface WireCodeInterpreterCall {
  type: "code_interpreter_call";
  id: string;
  code: string | null;
  container_id: string;
  outputs: Array<{ type: "logs"; logs: string } | { type: "image"; url: string }> | null;
  status: "in_progress" | "completed" | "incomplete" | "interpreting" | "failed";
}

export interface WireImageGenerationCall {
  type: "image_generation_call";
  id: string;
  result: string | null;
  status: "in_progress" | "completed" | "generating" | "failed";
}

export interface WireMcpCall {
  type: "mcp_call";
  id: string;
  name: string;
  server_label: string;
  arguments: string;
  output?: string | null;
  error?: string | null;
  status?: "in_progress" | "completed" | "incomplete" | "calling" | "failed";
}

// ---------------------------------------------------------------------------------------------
// Stream events (the `data:` payloads; the SSE `event:` name equals `type`)
// ---------------------------------------------------------------------------------------------

/** The response object carried by the lifecycle events. */
export interface WireResponse {
  id: string;
  object?: "response";
  model: string;
  status?: "queued" | "in_progress" | "completed" | "incomplete" | "failed" | "cancelled";
  output?: WireOutputItem[];
  usage?: WireUsage | null;
  incomplete_details?: { reason?: "max_output_tokens" | "content_filter" | (string & {}) } | null;
  error?: { code?: string | null; message?: string } | null;
}

export interface WireUsage {
  /** The whole prompt, cached tokens included. */
  input_tokens: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  /** Reasoning tokens included. */
  output_tokens: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
  total_tokens?: number;
}

export type WireOutputItem =
  | WireOutputMessage
  | WireOutputReasoning
  | WireOutputFunctionCall
  | WireOutputOtherItem;

export interface WireOutputMessage {
  type: "message";
  id: string;
  role: "assistant";
  status?: string;
  content: WireOutputContentPart[];
}

export type WireOutputContentPart =
  | { type: "output_text"; text: string; annotations?: unknown[] }
  | { type: "refusal"; refusal: string };

export interface WireOutputReasoning {
  type: "reasoning";
  id: string;
  summary?: WireSummaryText[];
  encrypted_content?: string | null;
}

export interface WireOutputFunctionCall {
  type: "function_call";
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status?: string;
}

/** Built-in tool calls and any item type this scheme does not interpret (kept whole, as received). */
export interface WireOutputOtherItem {
  type: string;
  id?: string;
}

interface WireEventBase {
  sequence_number?: number;
}

export interface WireLifecycleEvent extends WireEventBase {
  type:
    | "response.created"
    | "response.in_progress"
    | "response.queued"
    | "response.completed"
    | "response.incomplete"
    | "response.failed";
  response: WireResponse;
}

export interface WireOutputItemEvent extends WireEventBase {
  type: "response.output_item.added" | "response.output_item.done";
  output_index: number;
  item: WireOutputItem;
}

export interface WireContentPartEvent extends WireEventBase {
  type: "response.content_part.added" | "response.content_part.done";
  item_id: string;
  output_index: number;
  content_index: number;
  /** Reasoning text parts belong to reasoning items; their text also arrives as reasoning deltas. */
  part: WireOutputContentPart | { type: "reasoning_text"; text: string };
}

export interface WireTextDeltaEvent extends WireEventBase {
  type: "response.output_text.delta" | "response.refusal.delta";
  item_id: string;
  output_index: number;
  content_index: number;
  delta: string;
}

export interface WireTextDoneEvent extends WireEventBase {
  type: "response.output_text.done";
  item_id: string;
  output_index: number;
  content_index: number;
  text: string;
}

export interface WireRefusalDoneEvent extends WireEventBase {
  type: "response.refusal.done";
  item_id: string;
  output_index: number;
  content_index: number;
  refusal: string;
}

export interface WireSummaryPartEvent extends WireEventBase {
  type: "response.reasoning_summary_part.added" | "response.reasoning_summary_part.done";
  item_id: string;
  output_index: number;
  summary_index: number;
  part: WireSummaryText;
}

export interface WireReasoningDeltaEvent extends WireEventBase {
  type: "response.reasoning_summary_text.delta" | "response.reasoning_text.delta";
  item_id: string;
  output_index: number;
  /** Set on summary deltas. */
  summary_index?: number;
  delta: string;
}

export interface WireArgumentsDeltaEvent extends WireEventBase {
  type: "response.function_call_arguments.delta";
  item_id: string;
  output_index: number;
  delta: string;
}

export interface WireArgumentsDoneEvent extends WireEventBase {
  type: "response.function_call_arguments.done";
  item_id: string;
  output_index: number;
  arguments: string;
}

/**
 * An error inside the stream. The API reference documents `code`/`message`/`param` at the top
 * level; recordings from the live API nest them in `error`. Decoders accept both.
 */
export interface WireErrorEvent extends WireEventBase {
  type: "error";
  code?: string | null;
  message?: string;
  param?: string | null;
  error?: { type?: string; code?: string | null; message?: string; param?: string | null };
}

/** Every stream event this scheme reads; others (annotations, tool progress, ...) are skipped. */
export type WireStreamEvent =
  | WireLifecycleEvent
  | WireOutputItemEvent
  | WireContentPartEvent
  | WireTextDeltaEvent
  | WireTextDoneEvent
  | WireRefusalDoneEvent
  | WireSummaryPartEvent
  | WireReasoningDeltaEvent
  | WireArgumentsDeltaEvent
  | WireArgumentsDoneEvent
  | WireErrorEvent;
