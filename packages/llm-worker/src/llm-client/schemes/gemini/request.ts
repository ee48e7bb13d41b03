import {
  type ImagePart,
  type Item,
  messageImages,
  type ToolCallItem,
  type ToolResultItem,
  toolResultImages,
  toolResultText,
} from "../../item.js";
import type { ReasoningConfig, Request, ToolChoice } from "../../request.js";
import { argumentsObject, isRecord } from "../wire-json.js";
import type {
  GeminiContent,
  GeminiFileDataPart,
  GeminiFunctionCallPart,
  GeminiFunctionResponsePart,
  GeminiGenerationConfig,
  GeminiInlineDataPart,
  GeminiRequestBody,
  GeminiRequestPart,
  GeminiRole,
  GeminiTextPart,
  GeminiThinkingConfig,
  GeminiToolConfig,
} from "./wire.js";

/**
 * Thinking budgets for an effort level on models that take a budget, not a level (Gemini 1.x and
 * 2.x). 512 is the smallest budget every 2.5 model accepts; 24576 the largest Flash accepts.
 */
const BUDGET_BY_EFFORT: Readonly<Record<NonNullable<ReasoningConfig["effort"]>, number>> = {
  minimal: 512,
  low: 2048,
  medium: 8192,
  high: 24576,
};

/**
 * The `streamGenerateContent` body for a request.
 *
 * - `system` and the system items that open the history become `systemInstruction`. A system item
 *   later in the conversation (a file the user referenced, a reminder) must stay where it is, and
 *   Gemini has no system turn: it is sent as a user text part at its place, merged into the user
 *   turn around it.
 * - Assistant-side items form `model` turns, tool results and user text `user` turns; consecutive
 *   turns of one role are merged, as the API requires alternation.
 * - Thought signatures, thought parts, function-call ids and code-execution parts are sent back
 *   only for items that came from Gemini; reasoning from another provider is left out. A call
 *   whose id we sent is answered with that id.
 * - Tool arguments that are not a JSON object (another provider's model may write anything) are
 *   sent as `{}`: the API takes only an object.
 * - Images are `inlineData` (bytes) or `fileData` (URL) parts after a user message's text. A tool
 *   result's images go in its `functionResponse.parts` on Gemini 3 (multimodal function
 *   responses); older models do not take those, so there they follow the response in the same turn.
 * - Streaming needs no body field (it is the endpoint), and usage comes with every chunk.
 * - `reasoning`: `budgetTokens` wins over `effort`; an effort becomes a `thinkingLevel`, except on
 *   Gemini 1.x/2.x models, which only take a budget (see BUDGET_BY_EFFORT).
 * - `responseFormat`: `responseMimeType: "application/json"` with `responseJsonSchema`, except on a
 *   Gemini 1.x/2.x request that also has tools, which those models reject ("function calling with
 *   a response mime type 'application/json' is unsupported"): the answer is then only validated.
 * - `providerOptions` are merged over the body last, shallowly (a `tools` entry replaces ours).
 */
export function buildGeminiBody(request: Request, model: string): GeminiRequestBody {
  const systemParts: GeminiTextPart[] = [];
  if (request.system) systemParts.push({ text: request.system });
  const items = request.items;
  let first = 0;
  for (; first < items.length; first++) {
    const item = items[first] as Item;
    if (item.type !== "message" || item.role !== "system") break;
    if (item.text !== "") systemParts.push({ text: item.text });
  }
  const body: GeminiRequestBody = {
    contents: buildContents(items, first, !isBeforeGemini3(model)),
  };
  if (systemParts.length > 0) body.systemInstruction = { parts: systemParts };
  const tools = request.tools;
  if (tools !== undefined && tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map((t) => ({
          name: t.name,
          description: t.description,
          parametersJsonSchema: t.inputSchema,
        })),
      },
    ];
    if (request.toolChoice !== undefined) body.toolConfig = toolConfigOf(request.toolChoice);
  }
  const generationConfig = generationConfigOf(request, model);
  if (generationConfig !== undefined) body.generationConfig = generationConfig;
  if (request.providerOptions === undefined) return body;
  // The caller vouches for provider options; they are not ours to type.
  return { ...body, ...request.providerOptions } as GeminiRequestBody;
}

function buildContents(items: readonly Item[], from: number, imagesInResponses: boolean): GeminiContent[] {
  const contents: GeminiContent[] = [];
  const push = (role: GeminiRole, part: GeminiRequestPart): void => {
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role) last.parts.push(part);
    else contents.push({ role, parts: [part] });
  };
  /** Call ids sent to Gemini, so that only their results carry an id. */
  const sentCallIds = new Set<string>();
  for (let i = from; i < items.length; i++) {
    const item = items[i] as Item;
    const own = "origin" in item && item.origin === "gemini";
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          const signature = own ? item.signature : undefined;
          if (item.text !== "" || signature) push("model", withSignature({ text: item.text }, signature));
        } else {
          if (item.text !== "") push("user", { text: item.text });
          for (const image of messageImages(item)) push("user", imagePart(image));
        }
        break;
      case "reasoning":
        // Thought text is only meaningful to the model that thought it.
        if (own && (item.text !== "" || item.signature))
          push("model", withSignature({ text: item.text, thought: true }, item.signature));
        break;
      case "redacted_reasoning":
        break; // Anthropic's alone
      case "tool_call":
        push("model", functionCallPart(item, own, sentCallIds));
        break;
      case "server_tool":
        // Code execution parts, kept whole by the decoder.
        if (own && isRecord(item.payload)) push("model", item.payload as unknown as GeminiRequestPart);
        break;
      case "tool_result": {
        const images = toolResultImages(item).map(imagePart);
        push("user", functionResponsePart(item, sentCallIds, imagesInResponses ? images : []));
        if (!imagesInResponses) for (const image of images) push("user", image);
        break;
      }
    }
  }
  return contents;
}

function withSignature<P extends GeminiTextPart>(part: P, signature: string | undefined): P {
  if (signature) part.thoughtSignature = signature;
  return part;
}

function functionCallPart(
  item: ToolCallItem,
  own: boolean,
  sentCallIds: Set<string>,
): GeminiFunctionCallPart {
  const id = own && !item.synthesizedId ? item.callId : undefined;
  if (id !== undefined) sentCallIds.add(id);
  const part: GeminiFunctionCallPart = {
    functionCall: { ...(id !== undefined && { id }), name: item.name, args: argumentsObject(item.arguments) },
  };
  if (own && item.signature) part.thoughtSignature = item.signature;
  return part;
}

function functionResponsePart(
  item: ToolResultItem,
  sentCallIds: ReadonlySet<string>,
  images: Array<GeminiInlineDataPart | GeminiFileDataPart>,
): GeminiFunctionResponsePart {
  const text = toolResultText(item);
  return {
    functionResponse: {
      ...(sentCallIds.has(item.callId) && { id: item.callId }),
      name: item.name,
      response: item.isError ? { error: text } : { output: text },
      ...(images.length > 0 && { parts: images }),
    },
  };
}

function imagePart(image: ImagePart): GeminiInlineDataPart | GeminiFileDataPart {
  if (!("url" in image)) return { inlineData: { mimeType: image.mediaType, data: image.data } };
  return {
    fileData: { fileUri: image.url, ...(image.mediaType !== undefined && { mimeType: image.mediaType }) },
  };
}

function toolConfigOf(choice: ToolChoice): GeminiToolConfig {
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.name] } };
}

function generationConfigOf(request: Request, model: string): GeminiGenerationConfig | undefined {
  const config: GeminiGenerationConfig = {};
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    config.stopSequences = [...request.stopSequences];
  const tools = request.tools !== undefined && request.tools.length > 0;
  if (request.responseFormat !== undefined && !(tools && isBeforeGemini3(model))) {
    // `responseJsonSchema` takes JSON Schema as it is; `responseSchema` only an OpenAPI subset.
    config.responseMimeType = "application/json";
    config.responseJsonSchema = request.responseFormat.schema;
  }
  if (request.reasoning !== undefined) {
    const thinking = thinkingConfigOf(request.reasoning, model);
    if (thinking !== undefined) config.thinkingConfig = thinking;
  }
  return Object.keys(config).length > 0 ? config : undefined;
}

function thinkingConfigOf(reasoning: ReasoningConfig, model: string): GeminiThinkingConfig | undefined {
  const { budgetTokens, effort } = reasoning;
  if (budgetTokens !== undefined) {
    // A zero budget turns thinking off; there are no thoughts to include then.
    return budgetTokens === 0
      ? { thinkingBudget: 0 }
      : { includeThoughts: true, thinkingBudget: budgetTokens };
  }
  if (effort === undefined) return undefined;
  if (isBeforeGemini3(model)) return { includeThoughts: true, thinkingBudget: BUDGET_BY_EFFORT[effort] };
  return {
    includeThoughts: true,
    thinkingLevel: effort.toUpperCase() as GeminiThinkingConfig["thinkingLevel"],
  };
}

/**
 * Gemini 1.x and 2.x: they take `thinkingBudget` only (`thinkingLevel` arrived with Gemini 3), and
 * no JSON response mode together with function calling.
 */
function isBeforeGemini3(model: string): boolean {
  return /(^|\/)gemini-[12][.-]/.test(model);
}
