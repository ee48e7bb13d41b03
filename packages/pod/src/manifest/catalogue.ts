import type { SchemeName } from "@yoake/llm-worker";

/** USD per million tokens. */
export interface ModelPrices {
  input: number;
  output: number;
  /** Prompt tokens served from the provider's cache. */
  cacheRead?: number;
  /** Prompt tokens written to the cache, where the provider bills that apart (Anthropic's 5-minute cache). */
  cacheWrite?: number;
}

/** What the catalogue knows about one model. */
export interface ModelEntry {
  /** Tokens the model accepts in one request, prompt and output together. */
  contextWindow: number;
  /** Most output tokens one response may have. */
  maxOutputTokens: number;
  prices: ModelPrices;
}

/** A provider: the scheme its API speaks, how to reach it, and the models it lists. */
export interface ProviderEntry {
  scheme: SchemeName;
  /** Only where it differs from the scheme's default. */
  baseURL?: string;
  /** The environment variable that holds the API key; none for local servers. */
  apiKeyEnv?: string;
  /**
   * Local servers (Ollama) run whatever the user pulled: any model name is accepted, and a model
   * not listed gets no limits and no prices.
   */
  anyModel: boolean;
  models: Readonly<Record<string, ModelEntry>>;
}

/** Anthropic prices cache writes (5 minutes) at 1.25× input and cache reads at 0.1× input. */
function anthropic(
  contextWindow: number,
  maxOutputTokens: number,
  input: number,
  output: number,
): ModelEntry {
  return {
    contextWindow,
    maxOutputTokens,
    prices: { input, output, cacheRead: round(input * 0.1), cacheWrite: round(input * 1.25) },
  };
}

/** OpenAI and Gemini bill no premium for writing the cache: only cached reads are cheaper. */
function cachedInput(
  contextWindow: number,
  maxOutputTokens: number,
  input: number,
  output: number,
  cacheRead: number,
): ModelEntry {
  return { contextWindow, maxOutputTokens, prices: { input, output, cacheRead } };
}

function round(price: number): number {
  return Math.round(price * 10_000) / 10_000;
}

/**
 * The built-in catalogue: list prices per million tokens for standard (not batch, not priority)
 * requests, as published by each provider and recorded on 2026-11-22. Prices change: re-check
 * the providers' pages before relying on them for billing, and override `[model.prices]` in a
 * manifest when they differ. Where a provider charges more past a prompt-size threshold (Gemini
 * above 200K prompt tokens, OpenAI's GPT-5.5 above 272K), the base tier is given.
 */
export const catalogue: Readonly<Record<string, ProviderEntry>> = {
  anthropic: {
    scheme: "anthropic",
    apiKeyEnv: "ANTHROPIC_API_KEY",
    anyModel: false,
    models: {
      "claude-opus-5-5": anthropic(1_000_000, 128_000, 4, 20),
      "claude-sonnet-5-5": anthropic(1_000_000, 128_000, 2, 10),
      "claude-opus-4-6": anthropic(1_000_000, 128_000, 5, 25),
      "claude-sonnet-4-6": anthropic(1_000_000, 128_000, 3, 15),
      "claude-opus-4-5": anthropic(200_000, 64_000, 5, 25),
      "claude-sonnet-4-5": anthropic(200_000, 64_000, 3, 15),
      "claude-haiku-4-5": anthropic(200_000, 64_000, 1, 5),
    },
  },
  openai: {
    scheme: "openai-responses",
    apiKeyEnv: "OPENAI_API_KEY",
    anyModel: false,
    models: {
      "gpt-5.5": cachedInput(1_050_000, 128_000, 5, 30, 0.5),
      "gpt-5": cachedInput(400_000, 128_000, 1.25, 10, 0.125),
      "gpt-5-mini": cachedInput(400_000, 128_000, 0.25, 2, 0.025),
      "gpt-5-nano": cachedInput(400_000, 128_000, 0.05, 0.4, 0.005),
      "gpt-4.1": cachedInput(1_047_576, 32_768, 2, 8, 0.5),
    },
  },
  gemini: {
    scheme: "gemini",
    apiKeyEnv: "GEMINI_API_KEY",
    anyModel: false,
    models: {
      "gemini-3-pro-preview": cachedInput(1_048_576, 65_536, 2, 12, 0.2),
      "gemini-2.5-pro": cachedInput(1_048_576, 65_536, 1.25, 10, 0.125),
      "gemini-2.5-flash": cachedInput(1_048_576, 65_536, 0.3, 2.5, 0.03),
      "gemini-2.5-flash-lite": cachedInput(1_048_576, 65_536, 0.1, 0.4, 0.01),
    },
  },
  ollama: {
    scheme: "ollama",
    baseURL: "http://localhost:11434",
    anyModel: true,
    models: {
      // Local inference costs nothing per token. The window is the model's; Ollama's own default
      // context (num_ctx) is smaller unless configured.
      "gemma3:1b": { contextWindow: 32_768, maxOutputTokens: 8_192, prices: { input: 0, output: 0 } },
    },
  },
};

/** A model reference resolved against the catalogue. */
export interface CatalogueMatch {
  provider: string;
  providerEntry: ProviderEntry;
  modelId: string;
  /** Absent for a model the provider does not list (an unknown or newer model, or any Ollama model). */
  model?: ModelEntry;
}

/** Splits `provider/model` at the first slash: model ids may hold slashes of their own. */
export function parseModelRef(ref: string): { provider: string; modelId: string } | undefined {
  const slash = ref.indexOf("/");
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  return { provider: ref.slice(0, slash), modelId: ref.slice(slash + 1) };
}

/** Looks a `provider/model` reference up; `undefined` when the provider is not in the catalogue. */
export function lookupModel(ref: string): CatalogueMatch | undefined {
  const parsed = parseModelRef(ref);
  if (parsed === undefined) return undefined;
  const providerEntry = catalogue[parsed.provider];
  if (providerEntry === undefined) return undefined;
  const model = providerEntry.models[parsed.modelId];
  return { ...parsed, providerEntry, ...(model === undefined ? {} : { model }) };
}
