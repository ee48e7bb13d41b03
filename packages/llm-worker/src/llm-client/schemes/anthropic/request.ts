import {
  type ImagePart,
  type Item,
  type MessageItem,
  messageImages,
  type SchemeName,
  type ToolCallItem,
  type ToolResultItem,
  toolResultImages,
  toolResultText,
} from "../../item.js";
import type { ReasoningConfig, Request, ToolChoice, ToolDefinition, WebSearchConfig } from "../../request.js";
import type {
  AnthropicAssistantBlockParam,
  AnthropicCacheControl,
  AnthropicEchoedBlock,
  AnthropicImageBlockParam,
  AnthropicMessageParam,
  AnthropicMessagesBody,
  AnthropicTextBlockParam,
  AnthropicThinkingConfig,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicToolResultBlockParam,
  AnthropicToolUseBlockParam,
  AnthropicUserBlockParam,
  AnthropicWebSearchTool,
} from "./wire.js";

/** `max_tokens` is required by the API; this is the answer's room when the request sets none. */
export const DEFAULT_MAX_TOKENS = 8192;

/** The smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Thinking budgets for an effort level. Anthropic takes a token budget, not an effort; these keep
 * the default `max_tokens` (budget + 8192) within the output limit of every Claude 4 model.
 */
export const THINKING_BUDGET_BY_EFFORT: Readonly<Record<NonNullable<ReasoningConfig["effort"]>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** The lowest `top_p` the API accepts while thinking is on. */
const MIN_TOP_P_WITH_THINKING = 0.95;

/**
 * The body of a streaming Messages request.
 *
 * - `max_tokens`: `request.maxOutputTokens`, else 8192 (plus the thinking budget when thinking is on,
 *   since thinking counts toward it).
 * - Thinking: `reasoning.budgetTokens`, else the budget of `reasoning.effort`
 *   (`THINKING_BUDGET_BY_EFFORT`), raised to 1024 at least. With an explicit `maxOutputTokens` the
 *   budget is lowered below it; if that leaves less than 1024, thinking stays off. Thinking also stays
 *   off when the request forces a tool (`toolChoice` `required` or a name: the API rejects forced tool
 *   use with thinking) and when the last assistant turn has tool calls but no leading thinking block
 *   (history from another provider: the API would reject the request).
 * - While thinking is on, `temperature` is only sent when it is 1 and `top_p` is raised to 0.95 at
 *   least: the API rejects other values.
 * - `request.webSearch` adds the `web_search_20250305` server tool after the client tools.
 * - Prompt caching (unless `request.cache === false`): breakpoints on the last tool, the last system
 *   block and the last block of the latest user message.
 * - `request.providerOptions` is merged over the body last (shallow) and is trusted as is.
 */
export function buildAnthropicBody(request: Request, model: string): AnthropicMessagesBody {
  const cache = request.cache !== false;
  const { leadingSystem, messages } = convertHistory(request.items);

  const systemTexts = request.system !== undefined && request.system !== "" ? [request.system] : [];
  systemTexts.push(...leadingSystem);
  const system: AnthropicTextBlockParam[] = systemTexts.map((text) => ({ type: "text", text }));

  const tools: Array<AnthropicTool | AnthropicWebSearchTool> = request.tools?.map(toolOf) ?? [];
  if (request.webSearch !== undefined) tools.push(webSearchTool(request.webSearch));
  const forcedTool = request.toolChoice === "required" || typeof request.toolChoice === "object";
  let budget = thinkingBudget(request.reasoning, request.maxOutputTokens);
  if (budget !== undefined && (forcedTool || lastToolTurnLacksThinking(messages))) budget = undefined;
  const maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS + (budget ?? 0);

  if (cache) {
    markLast(system);
    markLast(tools);
    markLatestUserMessage(messages);
  }

  const body: AnthropicMessagesBody = { model, max_tokens: maxTokens, messages, stream: true };
  if (system.length > 0) body.system = system;
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  if (budget !== undefined)
    body.thinking = { type: "enabled", budget_tokens: budget } satisfies AnthropicThinkingConfig;
  setSampling(body, request, budget !== undefined);
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    body.stop_sequences = [...request.stopSequences];
  if (request.responseFormat !== undefined)
    body.output_config = { format: { type: "json_schema", schema: request.responseFormat.schema } };
  return request.providerOptions === undefined ? body : { ...body, ...request.providerOptions };
}

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
 * - empty text blocks are dropped (the API rejects them), and so is the whitespace that ends a
 *   final assistant turn (`trimFinalAssistantText`);
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
  trimFinalAssistantText(messages);
  return { leadingSystem, messages };
}

/**
 * History that ends with the model's own turn (a `pause_turn` sent back to be continued) ends the
 * request with it, and the API rejects final assistant content that ends with whitespace: its last
 * text block is trimmed at the end, and dropped if nothing is left.
 */
function trimFinalAssistantText(messages: AnthropicMessageParam[]): void {
  const last = messages[messages.length - 1];
  if (last?.role !== "assistant" || last.content[last.content.length - 1]?.type !== "text") return;
  // Echoed blocks are server tool blocks: a text block of an assistant turn is one we built.
  const block = last.content[last.content.length - 1] as AnthropicTextBlockParam;
  const text = block.text.trimEnd();
  if (text !== "") {
    block.text = text;
    return;
  }
  last.content.pop();
  if (last.content.length === 0) messages.pop();
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

function toolOf(tool: ToolDefinition): AnthropicTool {
  return {
    name: tool.name,
    ...(tool.description !== "" && { description: tool.description }),
    // The API requires an object schema; a schema without `type` is one by JSON Schema's own reading.
    input_schema: { ...tool.inputSchema, type: "object" },
  };
}

function webSearchTool(config: WebSearchConfig): AnthropicWebSearchTool {
  return {
    type: "web_search_20250305",
    name: "web_search",
    ...(config.maxUses !== undefined && { max_uses: config.maxUses }),
    ...(config.allowedDomains !== undefined &&
      config.allowedDomains.length > 0 && { allowed_domains: [...config.allowedDomains] }),
  };
}

function toolChoiceOf(choice: ToolChoice): AnthropicToolChoice {
  if (typeof choice === "object") return { type: "tool", name: choice.name };
  if (choice === "required") return { type: "any" };
  return { type: choice };
}

function thinkingBudget(reasoning: ReasoningConfig | undefined, maxOutputTokens: number | undefined) {
  if (reasoning === undefined) return undefined;
  let budget = reasoning.budgetTokens ?? (reasoning.effort && THINKING_BUDGET_BY_EFFORT[reasoning.effort]);
  if (budget === undefined) return undefined;
  budget = Math.max(MIN_THINKING_BUDGET, Math.floor(budget));
  if (maxOutputTokens !== undefined && budget >= maxOutputTokens) budget = maxOutputTokens - 1;
  return budget >= MIN_THINKING_BUDGET ? budget : undefined;
}

/**
 * With thinking on, the API requires the last assistant turn of a tool loop to start with its
 * thinking block. A turn from another provider has none to send, so thinking is left off instead.
 */
function lastToolTurnLacksThinking(messages: readonly AnthropicMessageParam[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "assistant") continue;
    if (!message.content.some((block) => block.type === "tool_use")) return false;
    const first = message.content[0]?.type;
    return first !== "thinking" && first !== "redacted_thinking";
  }
  return false;
}

function setSampling(body: AnthropicMessagesBody, request: Request, thinking: boolean): void {
  if (request.temperature !== undefined && (!thinking || request.temperature === 1))
    body.temperature = request.temperature;
  if (request.topP !== undefined)
    body.top_p = thinking ? Math.max(MIN_TOP_P_WITH_THINKING, request.topP) : request.topP;
}

function markLast(blocks: Array<{ cache_control?: AnthropicCacheControl }>): void {
  const last = blocks[blocks.length - 1];
  if (last) last.cache_control = { type: "ephemeral" };
}

function markLatestUserMessage(messages: AnthropicMessageParam[]): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "user") {
      markLast(message.content);
      return;
    }
  }
}
