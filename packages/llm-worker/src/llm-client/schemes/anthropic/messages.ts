import type { ImagePart, Item, MessageItem, SchemeName, ToolCallItem, ToolResultItem } from "../../item.js";
import { messageImages, toolResultImages, toolResultText } from "../../item.js";
import type {
  AnthropicAssistantBlockParam,
  AnthropicEchoedBlock,
  AnthropicImageBlockParam,
  AnthropicMessageParam,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam,
  AnthropicUserBlockParam,
} from "./wire.js";

const ORIGIN: SchemeName = "anthropic";

/** History items as Anthropic messages, plus the system-role items that lead the conversation. */
export interface ConvertedHistory {
  /** Texts of `system` items that come before any other item: they join the top-level `system`. */
  leadingSystem: string[];
  messages: AnthropicMessageParam[];
}

/**
 * Groups history items into alternating user / assistant messages:
 * - consecutive assistant-side items (text, reasoning, tool calls, server tool blocks) form one
 *   assistant turn in their order; tool results and user text form user turns; consecutive
 *   same-role messages are merged (the API requires alternation);
 * - `tool_result` blocks lead their user message, since the API rejects a turn answering tool
 *   calls that starts with anything else;
 * - a `system` item after the conversation has begun becomes user text wrapped in
 *   `<system>…</system>`: the Messages API has one top-level system prompt, and changing it
 *   mid-conversation would also break the prompt cache prefix;
 * - reasoning, redacted reasoning and server tool blocks are only sent back when they came from
 *   this scheme (or have no recorded origin), byte-exact; thinking without a signature is dropped
 *   because the API rejects it;
 * - empty text blocks are dropped (the API rejects them);
 * - assistant citations are not sent back: the response form of a citation carries fields the
 *   request form rejects (`file_id`), and the cited text is already in the block.
 */
export function convertHistory(items: readonly Item[]): ConvertedHistory {
  const leadingSystem: string[] = [];
  const messages: AnthropicMessageParam[] = [];
  let conversationStarted = false;

  const pushUser = (block: AnthropicUserBlockParam): void => {
    const last = messages[messages.length - 1];
    if (last?.role !== "user") {
      messages.push({ role: "user", content: [block] });
      return;
    }
    if (block.type === "tool_result") {
      // After the results already there, before any text.
      let at = 0;
      while (at < last.content.length && last.content[at]?.type === "tool_result") at++;
      last.content.splice(at, 0, block);
      return;
    }
    last.content.push(block);
  };
  const pushAssistant = (block: AnthropicAssistantBlockParam): void => {
    const last = messages[messages.length - 1];
    if (last?.role === "assistant") last.content.push(block);
    else messages.push({ role: "assistant", content: [block] });
  };

  for (const item of items) {
    if (!conversationStarted && item.type === "message" && item.role === "system") {
      if (item.text !== "") leadingSystem.push(item.text);
      continue;
    }
    conversationStarted = true;
    switch (item.type) {
      case "message":
        pushMessage(item, pushUser, pushAssistant);
        break;
      case "reasoning":
        // Thinking from another provider cannot be verified by Anthropic; unsigned thinking is rejected.
        if (isOwn(item.origin) && item.signature !== undefined && item.signature !== "")
          pushAssistant({ type: "thinking", thinking: item.text, signature: item.signature });
        break;
      case "redacted_reasoning":
        if (isOwn(item.origin)) pushAssistant({ type: "redacted_thinking", data: item.data });
        break;
      case "tool_call":
        pushAssistant(toolUseBlock(item));
        break;
      case "tool_result":
        pushUser(toolResultBlock(item));
        break;
      case "server_tool":
        if (item.origin === ORIGIN && isBlock(item.payload)) pushAssistant(item.payload);
        break;
    }
  }
  return { leadingSystem, messages };
}

function pushMessage(
  item: MessageItem,
  pushUser: (block: AnthropicUserBlockParam) => void,
  pushAssistant: (block: AnthropicAssistantBlockParam) => void,
): void {
  if (item.role === "user") {
    if (item.text !== "") pushUser({ type: "text", text: item.text });
    for (const image of messageImages(item)) pushUser(imageBlock(image));
    return;
  }
  if (item.text === "") return;
  if (item.role === "assistant") pushAssistant({ type: "text", text: item.text });
  else pushUser({ type: "text", text: `<system>\n${item.text}\n</system>` });
}

/** Items without a recorded origin were built by the caller for whichever scheme it uses. */
function isOwn(origin: SchemeName | undefined): boolean {
  return origin === undefined || origin === ORIGIN;
}

function isBlock(payload: unknown): payload is AnthropicEchoedBlock {
  return (
    typeof payload === "object" &&
    payload !== null &&
    typeof (payload as { type?: unknown }).type === "string"
  );
}

function toolUseBlock(item: ToolCallItem): AnthropicToolUseBlockParam {
  return { type: "tool_use", id: toolUseId(item.callId), name: item.name, input: toolInput(item.arguments) };
}

function toolResultBlock(item: ToolResultItem): AnthropicToolResultBlockParam {
  const text = toolResultText(item);
  const images = toolResultImages(item);
  const content =
    images.length === 0
      ? text
      : [...(text === "" ? [] : [{ type: "text" as const, text }]), ...images.map(imageBlock)];
  return {
    type: "tool_result",
    tool_use_id: toolUseId(item.callId),
    ...(content !== "" && { content }),
    ...(item.isError === true && { is_error: true }),
  };
}

function imageBlock(image: ImagePart): AnthropicImageBlockParam {
  return {
    type: "image",
    source:
      "url" in image
        ? { type: "url", url: image.url }
        : { type: "base64", media_type: image.mediaType, data: image.data },
  };
}

/**
 * The input object of a tool call. Anthropic requires an object; arguments that are not a JSON
 * object (invalid JSON the model streamed, which the worker answered with an error result) go
 * back as `{}` so that the history stays valid and the error result explains what happened.
 */
function toolInput(args: string): Record<string, unknown> {
  if (args.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // Falls through to the empty input.
  }
  return {};
}

/**
 * Anthropic tool ids must match `^[a-zA-Z0-9_-]+$`. Ids made by other providers (or synthesized
 * ones, which have no provider id to send back) may not; the call and its result go through the
 * same mapping, so they still pair up.
 */
export function toolUseId(callId: string): string {
  let clean = true;
  for (let i = 0; i < callId.length; i++) {
    if (!isIdChar(callId.charCodeAt(i))) {
      clean = false;
      break;
    }
  }
  if (clean && callId !== "") return callId;
  let out = "";
  for (let i = 0; i < callId.length; i++) {
    const c = callId.charCodeAt(i);
    out += isIdChar(c) ? callId[i] : "_";
  }
  return out === "" ? "toolu_empty" : out;
}

function isIdChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || // 0-9
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x61 && c <= 0x7a) || // a-z
    c === 0x5f || // _
    c === 0x2d // -
  );
}
