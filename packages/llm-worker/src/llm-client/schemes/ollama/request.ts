import type { ImagePart, Item, ToolCallItem } from "../../item.js";
import { messageImages, toolResultImages, toolResultText } from "../../item.js";
import type { JsonSchema, ReasoningConfig, Request, ToolDefinition } from "../../request.js";
import { argumentsObject, isRecord, isStringArray } from "../wire-json.js";
import type {
  OllamaChatRequest,
  OllamaMessage,
  OllamaOptions,
  OllamaPropertySchema,
  OllamaThink,
  OllamaTool,
  OllamaToolCall,
  OllamaToolParameters,
} from "./wire.js";

/**
 * The `/api/chat` body for a request.
 *
 * Choices where Ollama has no direct equivalent:
 * - `system` items in the middle of the conversation stay `system` messages in place: the API takes
 *   system messages at any position and the model's template renders them there.
 * - `toolChoice`: Ollama cannot force or forbid a call. `none` sends no tools (the model cannot call
 *   what it is not shown); `{ name }` sends only that tool; `auto` and `required` send them all
 *   (`required` is not enforced).
 * - `reasoning`: an effort becomes `think: "low" | "medium" | "high"` (`minimal` → `low`); a token
 *   budget becomes `think: true` (Ollama has no budget), or `false` for a budget of 0.
 * - `isError` on a tool result has no field; the result text is sent as it is.
 * - Images go in a message's `images` (base64), on user messages and on tool messages (the server
 *   renders them wherever they are). Ollama cannot fetch a URL: an image given by URL becomes a
 *   line of text naming it, so the model at least knows it was there.
 * - `cache` is ignored: Ollama reuses its KV cache by prompt prefix on its own.
 */
export function buildOllamaBody(request: Request, model: string): OllamaChatRequest {
  const body: OllamaChatRequest = { model, messages: toMessages(request), stream: true };
  const tools = selectTools(request);
  if (tools.length > 0) body.tools = tools.map(toTool);
  const think = toThink(request.reasoning);
  if (think !== undefined) body.think = think;
  if (request.responseFormat !== undefined) body.format = request.responseFormat.schema;
  const options = toOptions(request);
  if (options !== undefined) body.options = options;
  // Shallow and unchecked by design: the caller asked for exactly these fields (format, keep_alive, ...).
  if (request.providerOptions) Object.assign(body, request.providerOptions);
  return body;
}

function toMessages(request: Request): OllamaMessage[] {
  const messages: OllamaMessage[] = [];
  if (request.system !== undefined && request.system !== "") {
    messages.push({ role: "system", content: request.system });
  }
  const synthesizedCallIds = collectSynthesizedCallIds(request.items);
  // The assistant message the current run of assistant-side items fills; made on first use so that a
  // run of items that are all left out (another provider's reasoning) sends no empty message.
  let assistant: OllamaMessage | undefined;
  const assistantTurn = (): OllamaMessage => {
    if (!assistant) {
      assistant = { role: "assistant", content: "" };
      messages.push(assistant);
    }
    return assistant;
  };

  for (const item of request.items) {
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          assistantTurn().content += item.text;
        } else {
          assistant = undefined;
          messages.push(withImages({ role: item.role, content: item.text }, messageImages(item)));
        }
        break;
      case "reasoning":
        // Only our own reasoning goes back: another model's thoughts would read as this model's.
        if (item.origin === undefined || item.origin === "ollama") {
          const turn = assistantTurn();
          turn.thinking = (turn.thinking ?? "") + item.text;
        }
        break;
      case "redacted_reasoning":
      case "server_tool":
        // Ollama produces neither; another provider's opaque payloads mean nothing here.
        break;
      case "tool_call": {
        const turn = assistantTurn();
        if (turn.tool_calls) turn.tool_calls.push(toToolCall(item));
        else turn.tool_calls = [toToolCall(item)];
        break;
      }
      case "tool_result": {
        assistant = undefined;
        const message = withImages(
          { role: "tool", tool_name: item.name, content: toolResultText(item) },
          toolResultImages(item),
        );
        if (!synthesizedCallIds.has(item.callId)) message.tool_call_id = item.callId;
        messages.push(message);
        break;
      }
    }
  }
  return messages;
}

function withImages(message: OllamaMessage, images: readonly ImagePart[]): OllamaMessage {
  const bytes: string[] = [];
  for (const image of images) {
    if ("url" in image) message.content += `\n[image: ${image.url}]`;
    else bytes.push(image.data);
  }
  if (bytes.length > 0) message.images = bytes;
  return message;
}

function collectSynthesizedCallIds(items: readonly Item[]): Set<string> {
  const ids = new Set<string>();
  for (const item of items) if (item.type === "tool_call" && item.synthesizedId) ids.add(item.callId);
  return ids;
}

function toToolCall(item: ToolCallItem): OllamaToolCall {
  const call: OllamaToolCall = { function: { name: item.name, arguments: argumentsObject(item.arguments) } };
  // A made-up id was never the provider's: sending it back would pair results with nothing.
  if (!item.synthesizedId) call.id = item.callId;
  return call;
}

function selectTools(request: Request): readonly ToolDefinition[] {
  const tools = request.tools ?? [];
  const choice = request.toolChoice;
  if (choice === "none") return [];
  if (typeof choice === "object") {
    const named = tools.filter((tool) => tool.name === choice.name);
    return named.length > 0 ? named : tools;
  }
  return tools;
}

function toTool(tool: ToolDefinition): OllamaTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: toParameters(tool.inputSchema) },
  };
}

/**
 * Types the documented fields of a tool schema without changing it: keys keep their order and every
 * value passes through, except a documented field of the wrong type (not valid JSON Schema anyway),
 * which is left out.
 */
function toParameters(schema: JsonSchema): OllamaToolParameters {
  const parameters: OllamaToolParameters = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === "type") {
      if (typeof value === "string") parameters.type = value;
    } else if (key === "required") {
      if (isStringArray(value)) parameters.required = value;
    } else if (key === "properties") {
      if (isRecord(value)) parameters.properties = toProperties(value);
    } else {
      parameters[key] = value;
    }
  }
  return parameters;
}

function toProperties(properties: Record<string, unknown>): Record<string, OllamaPropertySchema> {
  const out: Record<string, OllamaPropertySchema> = {};
  for (const name of Object.keys(properties)) {
    const schema = properties[name];
    // A boolean schema (`true`: anything) has no object form but `{}`.
    out[name] = isRecord(schema) ? toPropertySchema(schema) : {};
  }
  return out;
}

function toPropertySchema(schema: Record<string, unknown>): OllamaPropertySchema {
  const property: OllamaPropertySchema = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === "type") {
      if (typeof value === "string" || isStringArray(value)) property.type = value;
    } else if (key === "description") {
      if (typeof value === "string") property.description = value;
    } else if (key === "enum") {
      if (Array.isArray(value)) property.enum = value;
    } else {
      property[key] = value;
    }
  }
  return property;
}

function toThink(reasoning: ReasoningConfig | undefined): OllamaThink | undefined {
  if (!reasoning) return undefined;
  if (reasoning.effort !== undefined) return reasoning.effort === "minimal" ? "low" : reasoning.effort;
  if (reasoning.budgetTokens !== undefined) return reasoning.budgetTokens > 0;
  return undefined;
}

function toOptions(request: Request): OllamaOptions | undefined {
  const options: OllamaOptions = {};
  if (request.maxOutputTokens !== undefined) options.num_predict = request.maxOutputTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.topP !== undefined) options.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    options.stop = [...request.stopSequences];
  }
  return Object.keys(options).length > 0 ? options : undefined;
}
