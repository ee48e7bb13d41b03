import type { ReasoningConfig, Request, ToolChoice, ToolDefinition, WebSearchConfig } from "../../request.js";
import { convertHistory } from "./messages.js";
import type {
  AnthropicCacheControl,
  AnthropicMessageParam,
  AnthropicMessagesBody,
  AnthropicTextBlockParam,
  AnthropicThinkingConfig,
  AnthropicTool,
  AnthropicToolChoice,
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
