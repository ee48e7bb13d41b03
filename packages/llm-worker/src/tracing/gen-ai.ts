import type { Usage } from "../llm-client/event.js";
import type { SchemeName } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import type { Response } from "../llm-client/response.js";
import type { Attributes } from "./otel.js";

/**
 * The OpenTelemetry GenAI semantic conventions' attributes, from our neutral types. Provider names
 * are the conventions' well-known values (`gcp.gemini`); Ollama has none and is named as itself.
 */
const PROVIDER_NAMES: Readonly<Record<SchemeName, string>> = {
  anthropic: "anthropic",
  "openai-chat": "openai",
  "openai-responses": "openai",
  gemini: "gcp.gemini",
  ollama: "ollama",
};

/** `gen_ai.provider.name`, and the older `gen_ai.system` that many backends still read. */
export function providerAttributes(scheme: SchemeName): Attributes {
  const name = PROVIDER_NAMES[scheme];
  return { "gen_ai.provider.name": name, "gen_ai.system": name };
}

export function requestAttributes(scheme: SchemeName, model: string, request: Request): Attributes {
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    ...providerAttributes(scheme),
    "gen_ai.request.model": model,
  };
  if (request.maxOutputTokens !== undefined)
    attributes["gen_ai.request.max_tokens"] = request.maxOutputTokens;
  if (request.temperature !== undefined) attributes["gen_ai.request.temperature"] = request.temperature;
  if (request.topP !== undefined) attributes["gen_ai.request.top_p"] = request.topP;
  if (request.responseFormat !== undefined) attributes["gen_ai.output.type"] = "json";
  return attributes;
}

export function responseAttributes(response: Response): Attributes {
  const attributes: Attributes = {
    ...usageAttributes(response.usage),
    // The provider's own reason when it sent one (`end_turn`, `stop`, `STOP`), as the conventions ask.
    "gen_ai.response.finish_reasons": [String(response.rawStopReason ?? response.stopReason)],
  };
  if (response.responseId !== undefined) attributes["gen_ai.response.id"] = response.responseId;
  if (response.model !== undefined) attributes["gen_ai.response.model"] = response.model;
  return attributes;
}

export function usageAttributes(usage: Usage | undefined): Attributes {
  const attributes: Attributes = {};
  if (usage === undefined) return attributes;
  if (usage.inputTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes["gen_ai.usage.output_tokens"] = usage.outputTokens;
  if (usage.cacheReadInputTokens !== undefined)
    attributes["gen_ai.usage.cache_read.input_tokens"] = usage.cacheReadInputTokens;
  if (usage.cacheCreationInputTokens !== undefined)
    attributes["gen_ai.usage.cache_creation.input_tokens"] = usage.cacheCreationInputTokens;
  return attributes;
}
