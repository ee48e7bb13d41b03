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

/**
 * An answer in JSON that matches `schema`, asked for in the provider's native mode: OpenAI Responses
 * `text.format` and Chat `response_format` (`json_schema`), Anthropic `output_config.format`, Gemini
 * `responseJsonSchema` with `responseMimeType: "application/json"`, Ollama `format`. The provider
 * holds the model to it as far as its mode goes; the caller still validates (see `outputSchema`).
 */
export interface ResponseFormat {
  type: "json_schema";
  /** The schema's name (OpenAI requires one: letters, digits, `_` and `-`, at most 64). */
  name: string;
  schema: JsonSchema;
  description?: string;
  /**
   * OpenAI strict mode (default on): the schema must be strict-compatible (every property
   * required, no additional ones), as `toStrictJsonSchema` makes it.
   */
  strict?: boolean;
}

/** Reasoning control: an effort level (OpenAI, Gemini 3) or a token budget (Anthropic, Gemini 2.5). */
export interface ReasoningConfig {
  effort?: "minimal" | "low" | "medium" | "high";
  budgetTokens?: number;
}

/**
 * The provider's own web search, run on the provider's side as a server tool: Anthropic's
 * `web_search` tool (`web_search_20250305`) and OpenAI Responses' `web_search` tool. Its calls and
 * results come back as `server_tool` items and go back to the same scheme verbatim. The other
 * schemes have none and ignore it.
 */
export interface WebSearchConfig {
  /** Most searches in one request (Anthropic `max_uses`; the Responses API has no such cap). */
  maxUses?: number;
  /** Only these domains (and their subdomains) are searched: `example.com`, no scheme. */
  allowedDomains?: readonly string[];
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
  /** Ask for a JSON answer matching a schema (see `ResponseFormat`). */
  responseFormat?: ResponseFormat;
  /** Offer the provider's own web search (see `WebSearchConfig`). */
  webSearch?: WebSearchConfig;
  /**
   * Prompt-cache hints. Anthropic: cache_control breakpoints on the last tool, the system prompt and
   * the latest user message, on unless `false`. Other providers cache automatically.
   */
  cache?: boolean;
  /** Provider-specific body fields, merged over the built body last (shallow). */
  providerOptions?: Record<string, unknown>;
}
