import {
  type ImagePart,
  type Item,
  imageUrl,
  messageImages,
  type ServerToolItem,
  toolResultImages,
} from "../../item.js";
import type { ReasoningConfig, Request, ToolChoice, WebSearchConfig } from "../../request.js";
import type {
  OpenaiResponsesBody,
  WireBuiltinToolItem,
  WireBuiltinToolType,
  WireFunctionTool,
  WireInputImage,
  WireInputItem,
  WireReasoningConfig,
  WireReasoningEffort,
  WireToolChoice,
  WireWebSearchTool,
} from "./wire.js";

const SCHEME = "openai-responses";

const BUILTIN_TOOL_TYPES: ReadonlySet<string> = new Set<WireBuiltinToolType>([
  "web_search_call",
  "file_search_call",
  "code_interpreter_call",
  "image_generation_call",
  "mcp_call",
]);

/**
 * Builds the Responses API body for `request`.
 *
 * Choices this mapping makes (the API has no exact counterpart for them):
 * - Stateless by default: `store: false`, and when reasoning is requested
 *   `include: ["reasoning.encrypted_content"]`, so reasoning comes back as encrypted content that the
 *   next request replays without server state. `providerOptions` (merged last, shallow) may set
 *   `store: true`, `previous_response_id`, or override `include`.
 * - `system` becomes `instructions`; `system`-role items anywhere in the history become
 *   `developer`-role input messages in place (the role the API documents for instructions).
 * - Stop sequences are not supported by this API and are ignored.
 * - `budgetTokens` without `effort` is turned into an effort level (see `effortForBudget`).
 * - Tool results have no error flag in this API: the error is in the output text.
 * - Images are `input_image` parts (bytes as `data:` URLs), after the text of a user message and in
 *   the `output` list of a `function_call_output`.
 * - Reasoning, encrypted content and built-in tool items from another scheme are left out. A
 *   reasoning item of this scheme without encrypted content can only be resolved from server state,
 *   so unless `store: true` is passed it is left out too, and the items of the same turn are then
 *   sent without their ids (an item id ties it to that reasoning item, which the API then looks for).
 * - Assistant messages without an item id of this API are sent with plain string content, which the
 *   API takes as output text.
 * - `request.webSearch` adds the built-in `web_search` tool (its allowed domains as `filters`);
 *   `maxUses` has no counterpart here and is not sent.
 * - A tool call whose id was synthesized by another scheme still needs a `call_id` to pair it with
 *   its output; the synthesized one serves, and no item id is sent.
 */
export function buildOpenaiResponsesBody(request: Request, model: string): OpenaiResponsesBody {
  const stateful = request.providerOptions?.store === true;
  const body: OpenaiResponsesBody = {
    model,
    input: buildInput(request.items, stateful),
    store: false,
    stream: true,
  };
  if (request.system !== undefined && request.system !== "") body.instructions = request.system;
  const tools: Array<WireFunctionTool | WireWebSearchTool> = [];
  if (request.tools && request.tools.length > 0) {
    tools.push(
      ...request.tools.map(
        (tool): WireFunctionTool => ({
          type: "function",
          name: tool.name,
          description: tool.description,
          parameters: tool.inputSchema,
          // Strict mode demands a strict-compatible schema (every property required, no additional
          // ones): only on request (`toStrictJsonSchema`); otherwise the worker validates.
          strict: tool.strict === true,
        }),
      ),
    );
  }
  if (request.webSearch !== undefined) tools.push(webSearchTool(request.webSearch));
  if (tools.length > 0) body.tools = tools;
  if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  const format = request.responseFormat;
  if (format !== undefined) {
    body.text = {
      format: {
        type: "json_schema",
        name: format.name,
        schema: format.schema,
        ...(format.description !== undefined && { description: format.description }),
        strict: format.strict !== false,
      },
    };
  }
  const reasoning = reasoningConfig(request.reasoning);
  if (reasoning) {
    body.reasoning = reasoning;
    body.include = ["reasoning.encrypted_content"];
  }
  if (!request.providerOptions) return body;
  // The caller's own fields win; they are the escape hatch for anything not modelled here.
  return { ...body, ...request.providerOptions } as OpenaiResponsesBody;
}

function webSearchTool(config: WebSearchConfig): WireWebSearchTool {
  const domains = config.allowedDomains ?? [];
  return { type: "web_search", ...(domains.length > 0 && { filters: { allowed_domains: [...domains] } }) };
}

/** History items as input items, one for one, in order (the API's input is already flat). */
function buildInput(items: readonly Item[], stateful: boolean): WireInputItem[] {
  const input: WireInputItem[] = [];
  // Set when a reasoning item of the current assistant turn had to be left out.
  let turnWithoutIds = false;
  for (const item of items) {
    switch (item.type) {
      case "message": {
        if (item.role !== "assistant") {
          turnWithoutIds = false;
          input.push({
            type: "message",
            role: item.role === "system" ? "developer" : "user",
            content: [{ type: "input_text", text: item.text }, ...messageImages(item).map(inputImage)],
          });
        } else if (item.text !== "") {
          const id = item.origin === SCHEME && !turnWithoutIds ? item.itemId : undefined;
          input.push(
            id !== undefined
              ? {
                  type: "message",
                  id,
                  role: "assistant",
                  status: "completed",
                  content: [{ type: "output_text", text: item.text, annotations: [] }],
                }
              : { type: "message", role: "assistant", content: item.text },
          );
        }
        break;
      }
      case "reasoning": {
        if (item.origin !== SCHEME || item.itemId === undefined) break;
        const encrypted = typeof item.encryptedContent === "string" ? item.encryptedContent : undefined;
        if (encrypted === undefined && !stateful) {
          turnWithoutIds = true;
          break;
        }
        const parts = item.summary ?? (item.text === "" ? [] : [item.text]);
        input.push({
          type: "reasoning",
          id: item.itemId,
          summary: parts.map((text) => ({ type: "summary_text", text })),
          ...(encrypted !== undefined && { encrypted_content: encrypted }),
        });
        break;
      }
      case "redacted_reasoning":
        // Anthropic's opaque reasoning: nothing this API can read.
        break;
      case "tool_call": {
        const id = item.origin === SCHEME && !item.synthesizedId && !turnWithoutIds ? item.itemId : undefined;
        input.push({
          type: "function_call",
          call_id: item.callId,
          name: item.name,
          arguments: item.arguments.trim() === "" ? "{}" : item.arguments,
          ...(id !== undefined && { id }),
        });
        break;
      }
      case "tool_result": {
        turnWithoutIds = false;
        const text = item.content ?? item.summary;
        const images = toolResultImages(item);
        input.push({
          type: "function_call_output",
          call_id: item.callId,
          output: images.length === 0 ? text : [{ type: "input_text", text }, ...images.map(inputImage)],
        });
        break;
      }
      case "server_tool": {
        const builtin = builtinToolItem(item);
        if (builtin) input.push(builtin);
        break;
      }
    }
  }
  return input;
}

/** A built-in tool call this API produced, as it produced it; anything else is left out. */
function builtinToolItem(item: ServerToolItem): WireBuiltinToolItem | undefined {
  if (item.origin !== SCHEME || item.role !== "call") return undefined;
  const payload = item.payload as { type?: unknown; id?: unknown } | null | undefined;
  if (typeof payload !== "object" || payload === null) return undefined;
  if (typeof payload.type !== "string" || !BUILTIN_TOOL_TYPES.has(payload.type)) return undefined;
  if (typeof payload.id !== "string") return undefined;
  // Verbatim: the item is exactly what the API sent in `response.output_item.done`.
  return payload as WireBuiltinToolItem;
}

function inputImage(image: ImagePart): WireInputImage {
  return { type: "input_image", image_url: imageUrl(image), detail: "auto" };
}

function toolChoice(choice: ToolChoice): WireToolChoice {
  return typeof choice === "string" ? choice : { type: "function", name: choice.name };
}

function reasoningConfig(reasoning: ReasoningConfig | undefined): WireReasoningConfig | undefined {
  if (!reasoning) return undefined;
  const effort =
    reasoning.effort ??
    (reasoning.budgetTokens !== undefined ? effortForBudget(reasoning.budgetTokens) : undefined);
  if (effort === undefined) return undefined;
  return { effort, summary: "auto" };
}

/** A token budget (Anthropic / Gemini 2.5 style) as the nearest effort level. */
export function effortForBudget(budgetTokens: number): WireReasoningEffort {
  if (budgetTokens < 1024) return "minimal";
  if (budgetTokens < 4096) return "low";
  if (budgetTokens < 16384) return "medium";
  return "high";
}
