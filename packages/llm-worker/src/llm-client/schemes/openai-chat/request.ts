import {
  type ImagePart,
  type Item,
  imageUrl,
  messageImages,
  toolResultImages,
  toolResultText,
} from "../../item.js";
import type { ReasoningConfig, Request, ToolChoice } from "../../request.js";
import type {
  OpenaiChatAssistantMessage,
  OpenaiChatBody,
  OpenaiChatMessage,
  OpenaiChatReasoningEffort,
  OpenaiChatSystemMessage,
  OpenaiChatToolCall,
  OpenaiChatToolChoice,
  OpenaiChatUserMessage,
} from "./wire.js";

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

/**
 * History items → Chat Completions messages.
 *
 * - Consecutive assistant-side items form one `assistant` message: the texts concatenated (Chat has
 *   one content string per message, so text written after a tool call moves before the calls) and
 *   the `tool_calls` in order. Content is `null` when the turn only called tools.
 * - Reasoning, redacted reasoning and server-tool items are left out, whatever their origin. The
 *   official API has no field for reasoning in a request (it rejects unknown message fields), and
 *   DeepSeek's reasoner documents a 400 when `reasoning_content` is sent back; the model does not
 *   need its old reasoning to continue. They do not split the assistant turn they sit in.
 * - Each `tool_result` is one `tool` message with `tool_call_id`; Chat has no error flag, so an error
 *   result is told by its text alone.
 * - A tool call whose id was synthesized by a decoder still needs an id here (Chat requires one to
 *   pair the call with its `tool` message): the synthesized id is sent, which pairs them correctly.
 * - Empty tool arguments are sent as `{}`: servers that parse the arguments (vLLM chat templates)
 *   fail on an empty string.
 * - `system` items become `system` messages where they stand (OpenAI accepts them anywhere). One
 *   that falls between an assistant's tool calls and their results is held back until the results
 *   have been given, because the API requires the `tool` messages to follow the call directly.
 * - Images of a user message are `image_url` parts (bytes as `data:` URLs) after its text. A `tool`
 *   message cannot carry images in Chat, so a result's images go in a `user` message held back like
 *   a system item (after all results of the turn), which names the call they came from.
 */
export function toOpenaiChatMessages(
  system: string | undefined,
  items: readonly Item[],
): OpenaiChatMessage[] {
  const builder = new MessageListBuilder();
  if (system !== undefined && system !== "") builder.pushSystem(system);
  for (const item of items) builder.add(item);
  return builder.finish();
}

class MessageListBuilder {
  private readonly messages: OpenaiChatMessage[] = [];
  /** The assistant turn being gathered, with its text pieces. */
  private turn: { texts: string[]; calls: OpenaiChatToolCall[] } | undefined;
  /** Tool results may still follow: the last message is an assistant with calls or a `tool` message. */
  private awaitingResults = false;
  private readonly heldBack: Array<OpenaiChatSystemMessage | OpenaiChatUserMessage> = [];

  add(item: Item): void {
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          const turn = this.openTurn();
          if (item.text !== "") turn.texts.push(item.text);
        } else if (item.role === "user") {
          this.closeTurn();
          this.releaseHeld();
          this.push(userMessage(item.text, messageImages(item)));
        } else {
          this.closeTurn();
          if (this.awaitingResults) this.heldBack.push({ role: "system", content: item.text });
          else this.pushSystem(item.text);
        }
        return;
      case "tool_call":
        this.openTurn().calls.push({
          id: item.callId,
          type: "function",
          function: { name: item.name, arguments: item.arguments === "" ? "{}" : item.arguments },
        });
        return;
      case "tool_result":
        this.closeTurn();
        this.messages.push({ role: "tool", tool_call_id: item.callId, content: toolResultText(item) });
        if (toolResultImages(item).length > 0)
          this.heldBack.push(
            userMessage(`The images returned by ${item.name} (${item.callId}):`, toolResultImages(item)),
          );
        return;
      case "reasoning":
      case "redacted_reasoning":
      case "server_tool":
        return;
    }
  }

  pushSystem(text: string): void {
    this.push({ role: "system", content: text });
  }

  finish(): OpenaiChatMessage[] {
    this.closeTurn();
    this.releaseHeld();
    return this.messages;
  }

  private openTurn(): { texts: string[]; calls: OpenaiChatToolCall[] } {
    if (this.turn) return this.turn;
    this.releaseHeld();
    this.turn = { texts: [], calls: [] };
    return this.turn;
  }

  private closeTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    if (turn.texts.length === 0 && turn.calls.length === 0) return;
    const message: OpenaiChatAssistantMessage = {
      role: "assistant",
      content: turn.texts.length === 0 ? null : turn.texts.join(""),
    };
    if (turn.calls.length > 0) message.tool_calls = turn.calls;
    this.messages.push(message);
    this.awaitingResults = turn.calls.length > 0;
  }

  private releaseHeld(): void {
    this.awaitingResults = false;
    if (this.heldBack.length === 0) return;
    this.messages.push(...this.heldBack);
    this.heldBack.length = 0;
  }

  private push(message: OpenaiChatMessage): void {
    this.messages.push(message);
    this.awaitingResults = false;
  }
}

function userMessage(text: string, images: readonly ImagePart[]): OpenaiChatUserMessage {
  if (images.length === 0) return { role: "user", content: text };
  return {
    role: "user",
    content: [
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...images.map((image) => ({ type: "image_url" as const, image_url: { url: imageUrl(image) } })),
    ],
  };
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
