import type { Item } from "./item.js";

/** A JSON Schema object, as sent to the provider. */
export type JsonSchema = { [key: string]: unknown };

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Ask the provider to hold the model to the schema exactly (OpenAI strict mode); the schema must be strict-compatible. */
  strict?: boolean;
}

export type ToolChoice = "auto" | "none" | "required" | { name: string };

/** Reasoning control: an effort level (OpenAI, Gemini 3) or a token budget (Anthropic, Gemini 2.5). */
export interface ReasoningConfig {
  effort?: "minimal" | "low" | "medium" | "high";
  budgetTokens?: number;
}

/**
 * One request to a model, provider-neutral. Each scheme maps what its API supports and ignores
 * the rest (documented per scheme).
 */
export interface Request {
  /** Overrides the client's model for this request. */
  model?: string;
  system?: string;
  items: readonly Item[];
  tools?: readonly ToolDefinition[];
  toolChoice?: ToolChoice;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: readonly string[];
  reasoning?: ReasoningConfig;
  /**
   * Prompt-cache hints. Anthropic: cache_control breakpoints on the last tool, the system prompt and
   * the latest user message, on unless `false`. Other providers cache automatically.
   */
  cache?: boolean;
  /** Provider-specific body fields, merged over the built body last (shallow). */
  providerOptions?: Record<string, unknown>;
}
