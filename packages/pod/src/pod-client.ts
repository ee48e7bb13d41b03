import { createClient, createFallbackClient, getScheme, type LlmClient, LlmError } from "@yoake/llm-worker";
import type { ResolvedModel } from "./manifest/resolve.js";

/**
 * The client for the manifest's model. The key comes from `model.api_key_env`, else the scheme's
 * usual variable (`ANTHROPIC_API_KEY`, ...), read from `env`; the base URL from the manifest, else
 * the scheme's variable (`ANTHROPIC_BASE_URL`, `OLLAMA_HOST`, ...), else the scheme's default.
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
  const baseURL =
    model.baseURL ?? (scheme.env.baseURL === undefined ? undefined : nonEmpty(env[scheme.env.baseURL]));
  return createClient({
    scheme: scheme.name,
    model: model.id,
    provider: model.provider ?? scheme.name,
    ...(keyVariable !== undefined && { apiKeyVariable: keyVariable }),
    ...(apiKey !== undefined && { apiKey }),
    ...(baseURL !== undefined && { baseURL }),
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
