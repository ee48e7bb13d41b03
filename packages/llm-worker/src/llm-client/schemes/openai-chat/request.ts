import type { ReasoningConfig, Request, ToolChoice } from "../../request.js";
import { toOpenaiChatMessages } from "./messages.js";
import type { OpenaiChatBody, OpenaiChatReasoningEffort, OpenaiChatToolChoice } from "./wire.js";

/**
 * A `Request` as a streaming Chat Completions body.
 *
 * Choices made here (see also `messages.ts` for the history):
 * - The output limit is sent as `max_completion_tokens`, the current field: OpenAI's reasoning
 *   models reject the deprecated `max_tokens`, and Groq, xAI and vLLM accept the new name. For a
 *   server that only knows `max_tokens` (DeepSeek), pass
 *   `providerOptions: { max_tokens: n, max_completion_tokens: undefined }` (undefined fields vanish
 *   from the JSON).
 * - `reasoning.effort` becomes `reasoning_effort`. Chat has no token budget, so a `budgetTokens`
 *   without an effort is mapped to the nearest effort (see `effortForBudget`).
 * - `tool_choice` is sent only with tools: the API rejects it without them.
 * - `stream_options.include_usage` is always on, so the stream ends with the usage.
 * - `providerOptions` are spread over the body last (shallow), so they can replace anything above.
 *   The return type describes the fields we build; extra provider fields ride along at runtime.
 */
export function buildOpenaiChatBody(request: Request, model: string): OpenaiChatBody {
  const body: OpenaiChatBody = {
    model,
    messages: toOpenaiChatMessages(request.system, request.items),
    stream: true,
    stream_options: { include_usage: true },
  };
  const tools = request.tools;
  if (tools !== undefined && tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: "function",
      function: {
        name: tool.name,
        ...(tool.description !== "" && { description: tool.description }),
        parameters: tool.inputSchema,
        ...(tool.strict && { strict: true }),
      },
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceOf(request.toolChoice);
  }
  if (request.maxOutputTokens !== undefined) body.max_completion_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    body.stop = [...request.stopSequences];
  const format = request.responseFormat;
  if (format !== undefined) {
    body.response_format = {
      type: "json_schema",
      json_schema: {
        name: format.name,
        schema: format.schema,
        ...(format.description !== undefined && { description: format.description }),
        strict: format.strict !== false,
      },
    };
  }
  const effort = reasoningEffortOf(request.reasoning);
  if (effort !== undefined) body.reasoning_effort = effort;
  if (request.providerOptions === undefined) return body;
  return { ...body, ...request.providerOptions } as OpenaiChatBody;
}

function toolChoiceOf(choice: ToolChoice): OpenaiChatToolChoice {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}

function reasoningEffortOf(reasoning: ReasoningConfig | undefined): OpenaiChatReasoningEffort | undefined {
  if (reasoning === undefined) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort;
  if (reasoning.budgetTokens !== undefined) return effortForBudget(reasoning.budgetTokens);
  return undefined;
}

/**
 * The effort closest to a thinking budget. The bounds follow the budgets Anthropic and Gemini
 * suggest for light, ordinary and deep thinking; there is no exact correspondence.
 */
export function effortForBudget(budgetTokens: number): OpenaiChatReasoningEffort {
  if (budgetTokens < 4096) return "low";
  if (budgetTokens < 16384) return "medium";
  return "high";
}
