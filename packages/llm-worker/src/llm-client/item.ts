/**
 * Items: the unit of history. A conversation is a flat list of items in order; each scheme groups
 * them into its own messages (consecutive assistant-side items form one assistant message, tool
 * results one user/tool message). Every block of a response becomes exactly one item.
 *
 * Items that only their own provider understands (reasoning signatures, encrypted reasoning,
 * server tool payloads) record their `origin` scheme; a request to another scheme leaves their
 * opaque parts out instead of sending something the provider would reject.
 */
export type Item =
  | MessageItem
  | ReasoningItem
  | RedactedReasoningItem
  | ToolCallItem
  | ToolResultItem
  | ServerToolItem;

export type SchemeName = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "ollama";

export type Role = "user" | "assistant" | "system";

export interface MessageItem {
  type: "message";
  role: Role;
  text: string;
  /** Gemini `thoughtSignature` attached to an assistant text part. */
  signature?: string;
  /** OpenAI Responses message item id. */
  itemId?: string;
  /** Anthropic citations of an assistant text block, as received. */
  citations?: unknown[];
  origin?: SchemeName;
}

export interface ReasoningItem {
  type: "reasoning";
  /** The visible reasoning (for OpenAI Responses: the summary parts concatenated). */
  text: string;
  /** Anthropic thinking signature, or Gemini thought signature. */
  signature?: string;
  /** OpenAI Responses: the reasoning item id, its summary parts and encrypted content. */
  itemId?: string;
  summary?: string[];
  encryptedContent?: string | null;
  origin?: SchemeName;
}

/** Anthropic `redacted_thinking`: opaque, sent back as it came. */
export interface RedactedReasoningItem {
  type: "redacted_reasoning";
  data: string;
  origin?: SchemeName;
}

export interface ToolCallItem {
  type: "tool_call";
  callId: string;
  name: string;
  /** The arguments as the model wrote them (JSON text; "" means no arguments). */
  arguments: string;
  /** Gemini `thoughtSignature` on the functionCall part. */
  signature?: string;
  /** OpenAI Responses function_call item id (`fc_…`); `callId` is its `call_id`. */
  itemId?: string;
  /** The wire had no id; `callId` was made up and is not sent back to the provider. */
  synthesizedId?: true;
  origin?: SchemeName;
}

/**
 * A tool result. `summary` is short and kept forever; `content` is what the model sees while the
 * result is fresh, and prune may drop it from a request (seed 003). With no content the summary is
 * sent instead.
 */
export interface ToolResultItem {
  type: "tool_result";
  callId: string;
  /** The tool's name (Gemini's functionResponse needs it). */
  name: string;
  summary: string;
  content?: string;
  isError?: boolean;
}

/** A provider-executed tool call or its result (web search, code execution, ...). */
export interface ServerToolItem {
  type: "server_tool";
  role: "call" | "result";
  /** The server tool use id (for a result: the id of the call it answers). */
  id: string;
  /** Call: the tool name. Result: the result block type (`web_search_tool_result`, ...). */
  name: string;
  /** Call: the arguments as JSON text, when streamed. */
  arguments?: string;
  /** The provider's own block or item, sent back verbatim to the same scheme. */
  payload: unknown;
  origin: SchemeName;
}

export const userMessage = (text: string): MessageItem => ({ type: "message", role: "user", text });
export const systemMessage = (text: string): MessageItem => ({ type: "message", role: "system", text });
export const assistantMessage = (text: string): MessageItem => ({ type: "message", role: "assistant", text });

export function isUserMessage(item: Item): item is MessageItem & { role: "user" } {
  return item.type === "message" && item.role === "user";
}

/** The text a tool result shows the model: its content while it has one, else its summary. */
export function toolResultText(item: ToolResultItem): string {
  return item.content ?? item.summary;
}
