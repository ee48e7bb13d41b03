import {
  createClient,
  createFallbackClient,
  type LlmClient,
  LlmError,
  type SchemeName,
} from "@yoake/llm-worker";
import { getScheme } from "@yoake/llm-worker/internal";
import type { ResolvedModel } from "./manifest/resolve.js";

/**
 * The variables that name an endpoint, as the providers' own tools read them, first set wins:
 * `ANTHROPIC_BASE_URL` (Anthropic's SDK), `OPENAI_BASE_URL` (OpenAI's SDK), `GOOGLE_GEMINI_BASE_URL`
 * (Google's `@google/genai`; `GEMINI_BASE_URL` too, as earlier yoake read it) and `OLLAMA_HOST`
 * (Ollama's server and clients: `host:port`, a URL, or a bare host on port 11434).
 */
const BASE_URL_VARIABLES: Readonly<Record<SchemeName, readonly string[]>> = {
  anthropic: ["ANTHROPIC_BASE_URL"],
  "openai-chat": ["OPENAI_BASE_URL"],
  "openai-responses": ["OPENAI_BASE_URL"],
  gemini: ["GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL"],
  ollama: ["OLLAMA_HOST"],
};

/**
 * The client for the manifest's model. The key comes from `model.api_key_env`, else the scheme's
 * usual variable (`ANTHROPIC_API_KEY`, ...), read from `env`. The endpoint is the manifest's
 * `base_url` (which only the user, a trusted project or the command line can set), else the
 * scheme's conventional variable in `env` (see `BASE_URL_VARIABLES`), else the catalogue's
 * endpoint, else the scheme's default: the key never goes anywhere the user did not choose.
 * A missing key is a configuration error, thrown here, naming the variable.
 *
 * With `[model] fallback`, the client is a chain (`createFallbackClient`): each fallback model is
 * made the same way (its key must be there too), and is asked in order when the one before fails
 * with an error retrying will not fix soon; the first model is tried again on a later turn.
 */
export function clientForModel(
  model: ResolvedModel,
  env: Readonly<Record<string, string | undefined>>,
): LlmClient {
  const first = clientForOneModel(model, env);
  if (model.fallback === undefined || model.fallback.length === 0) return first;
  return createFallbackClient({
    clients: [first, ...model.fallback.map((fallback) => clientForOneModel(fallback, env))],
  });
}

function clientForOneModel(
  model: ResolvedModel,
  env: Readonly<Record<string, string | undefined>>,
): LlmClient {
  const scheme = getScheme(model.scheme);
  const keyVariable = model.apiKeyEnv ?? scheme.env.apiKey;
  const apiKey = keyVariable === undefined ? undefined : nonEmpty(env[keyVariable]);
  if (apiKey === undefined && scheme.name !== "ollama") {
    throw new LlmError({
      kind: "authentication",
      message: `no API key for ${model.id} (${scheme.name}): set ${keyVariable ?? "model.api_key_env"}`,
    });
  }
  const fromEnv = BASE_URL_VARIABLES[scheme.name]
    .map((variable) => nonEmpty(env[variable]))
    .find((value) => value !== undefined);
  // Always given, so the client never falls back on this process's own variables instead of `env`.
  const baseURL = model.baseURL ?? fromEnv ?? model.defaultBaseURL ?? scheme.defaultBaseURL;
  return createClient({
    scheme: scheme.name,
    model: model.id,
    provider: model.provider ?? scheme.name,
    ...(keyVariable !== undefined && { apiKeyVariable: keyVariable }),
    baseURL,
    ...(apiKey !== undefined && { apiKey }),
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
