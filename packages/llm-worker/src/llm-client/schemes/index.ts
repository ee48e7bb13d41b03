import type { SchemeName } from "../item.js";
import type { Scheme } from "../scheme.js";
import { anthropicScheme } from "./anthropic/index.js";
import { geminiScheme } from "./gemini/index.js";
import { ollamaScheme } from "./ollama/index.js";
import { openaiChatScheme } from "./openai-chat/index.js";
import { openaiResponsesScheme } from "./openai-responses/index.js";

export const schemes: Readonly<Record<SchemeName, Scheme>> = {
  anthropic: anthropicScheme,
  "openai-chat": openaiChatScheme,
  "openai-responses": openaiResponsesScheme,
  gemini: geminiScheme,
  ollama: ollamaScheme,
};

export const schemeNames = Object.keys(schemes) as SchemeName[];

export function getScheme(name: SchemeName): Scheme {
  const scheme = schemes[name];
  if (!scheme) throw new Error(`unknown scheme "${name}"; expected one of ${schemeNames.join(", ")}`);
  return scheme;
}
