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

/** The five wire formats: the provider a client speaks to, and the origin of what it produced. */
export type SchemeName = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "ollama";

export type Role = "user" | "assistant" | "system";

/** Text (and for a user, images) from the user, the assistant, or the system in mid-conversation. */
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
  /** Images of a user message, after its text (see `ImagePart`). Other roles ignore them. */
  images?: ImagePart[];
  origin?: SchemeName;
}

/** The image formats every scheme takes as bytes. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/**
 * An image shown to the model: its bytes (base64, no `data:` prefix) with their media type, or a
 * URL the provider fetches itself. Bytes work with every scheme; a URL with Anthropic, OpenAI
 * (both) and Gemini (`fileData`, where `mediaType` should be given), while Ollama cannot fetch one
 * and is sent a line of text naming it instead.
 */
export type ImagePart =
  | { type: "image"; mediaType: ImageMediaType; data: string }
  | { type: "image"; url: string; mediaType?: ImageMediaType };

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

/** A call the model made to one of the request's tools; a `tool_result` with its `callId` answers it. */
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
  /**
   * Images the tool returned, part of the fresh content: once prune drops `content` they are not
   * sent either (`toolResultImages`), the summary saying what they were.
   */
  images?: ImagePart[];
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

/** A user message; `images` (when any) follow its text. */
export const userMessage = (text: string, images?: readonly ImagePart[]): MessageItem =>
  images !== undefined && images.length > 0
    ? { type: "message", role: "user", text, images: [...images] }
    : { type: "message", role: "user", text };
/** A system instruction in mid-conversation (each scheme delivers it its own way). */
export const systemMessage = (text: string): MessageItem => ({ type: "message", role: "system", text });
export const assistantMessage = (text: string): MessageItem => ({ type: "message", role: "assistant", text });

export function isUserMessage(item: Item): item is MessageItem & { role: "user" } {
  return item.type === "message" && item.role === "user";
}

/** The text a tool result shows the model: its content while it has one, else its summary. */
export function toolResultText(item: ToolResultItem): string {
  return item.content ?? item.summary;
}

/** The images a tool result shows the model: none once prune has dropped its content. */
export function toolResultImages(item: ToolResultItem): readonly ImagePart[] {
  return item.content === undefined ? [] : (item.images ?? []);
}

/** The images of a user message (other roles carry none to send). */
export function messageImages(item: MessageItem): readonly ImagePart[] {
  return item.role === "user" ? (item.images ?? []) : [];
}

/** A `data:` URL of an image's bytes, or its URL: what the OpenAI APIs take. */
export function imageUrl(image: ImagePart): string {
  return "url" in image ? image.url : `data:${image.mediaType};base64,${image.data}`;
}
