/**
 * The five schemes side by side: where each is reached (URL, auth header, key and URL variables),
 * how its body is framed, and its two halves — `<scheme>/request.ts` (a `Request` lowered to the
 * provider's body) and `<scheme>/decoder.ts` (the provider's stream raised to `Event`s). The
 * layout every scheme follows is in `HOUSE_STYLE.md`.
 */
import type { SchemeName } from "../item.js";
import type { Endpoint, Scheme } from "../scheme.js";
import { createAnthropicDecoder } from "./anthropic/decoder.js";
import { buildAnthropicBody } from "./anthropic/request.js";
import { GeminiDecoder } from "./gemini/decoder.js";
import { buildGeminiBody } from "./gemini/request.js";
import { createOllamaDecoder } from "./ollama/decoder.js";
import { buildOllamaBody } from "./ollama/request.js";
import { createOpenaiChatDecoder } from "./openai-chat/decoder.js";
import { buildOpenaiChatBody } from "./openai-chat/request.js";
import { createOpenaiResponsesDecoder } from "./openai-responses/decoder.js";
import { buildOpenaiResponsesBody } from "./openai-responses/request.js";

/** The Messages API version this scheme speaks (sent as `anthropic-version`). */
export const ANTHROPIC_API_VERSION = "2023-06-01";

/** Anthropic Messages API (`POST {baseURL}/v1/messages`, server-sent events). */
export const anthropicScheme: Scheme = {
  name: "anthropic",
  framing: "sse",
  defaultBaseURL: "https://api.anthropic.com",
  env: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL" },
  buildHttpRequest(request, endpoint) {
    const base = endpoint.baseURL === "" ? anthropicScheme.defaultBaseURL : endpoint.baseURL;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "anthropic-version": ANTHROPIC_API_VERSION,
    };
    if (endpoint.apiKey !== undefined && endpoint.apiKey !== "") headers["x-api-key"] = endpoint.apiKey;
    if (endpoint.headers) Object.assign(headers, endpoint.headers);
    return {
      url: `${trimTrailingSlashes(base)}/v1/messages`,
      headers,
      body: buildAnthropicBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: createAnthropicDecoder,
};

/**
 * OpenAI Chat Completions (`POST {baseURL}/chat/completions`, SSE), also spoken by OpenAI-compatible
 * servers (Groq, xAI, DeepSeek, vLLM, OpenRouter, Ollama's `/v1`): point `baseURL` at them.
 */
export const openaiChatScheme: Scheme = {
  name: "openai-chat",
  framing: "sse",
  defaultBaseURL: "https://api.openai.com/v1",
  env: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  buildHttpRequest(request, endpoint) {
    return {
      url: `${trimTrailingSlashes(endpoint.baseURL || openaiChatScheme.defaultBaseURL)}/chat/completions`,
      headers: bearerHeaders(endpoint),
      body: buildOpenaiChatBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: createOpenaiChatDecoder,
};

/**
 * The OpenAI Responses API (`POST {baseURL}/responses`, server-sent events). Stateless by default
 * (`store: false`, reasoning round-trips as encrypted content); see `buildOpenaiResponsesBody` for
 * how a `Request` maps onto the body.
 */
export const openaiResponsesScheme: Scheme = {
  name: "openai-responses",
  framing: "sse",
  defaultBaseURL: "https://api.openai.com/v1",
  env: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  buildHttpRequest(request, endpoint) {
    const baseURL = endpoint.baseURL || openaiResponsesScheme.defaultBaseURL;
    return {
      url: `${baseURL.endsWith("/") ? baseURL.slice(0, -1) : baseURL}/responses`,
      headers: bearerHeaders(endpoint),
      body: buildOpenaiResponsesBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: createOpenaiResponsesDecoder,
};

/**
 * Google's Gemini API (`generativelanguage.googleapis.com`, v1beta), streamed as SSE with
 * `alt=sse`. The framing also accepts the JSON-array body the endpoint sends without it.
 */
export const geminiScheme: Scheme = {
  name: "gemini",
  framing: "json-or-sse",
  defaultBaseURL: "https://generativelanguage.googleapis.com",
  env: { apiKey: "GEMINI_API_KEY", baseURL: "GEMINI_BASE_URL" },
  buildHttpRequest(request, endpoint) {
    const model = request.model ?? endpoint.model;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (endpoint.apiKey) headers["x-goog-api-key"] = endpoint.apiKey;
    // The API version is appended unless the configured URL already names one.
    const base = (endpoint.baseURL || geminiScheme.defaultBaseURL).replace(/\/+$/, "");
    const versioned = /\/v1(alpha|beta)?\d*$/.test(base) ? base : `${base}/v1beta`;
    // `models/{model}`; a name that is already a resource path (`tunedModels/x`, `models/x`) is kept.
    const resource = model.includes("/") ? model : `models/${model}`;
    return {
      url: `${versioned}/${resource}:streamGenerateContent?alt=sse`,
      headers: { ...headers, ...endpoint.headers },
      body: buildGeminiBody(request, model),
    };
  },
  createDecoder: (emit) => new GeminiDecoder(emit),
};

/**
 * Ollama's native chat API: `POST {base}/api/chat`, NDJSON stream. A local server needs no key;
 * Ollama's cloud takes `Authorization: Bearer <key>`.
 */
export const ollamaScheme: Scheme = {
  name: "ollama",
  framing: "ndjson",
  defaultBaseURL: "http://127.0.0.1:11434",
  env: { apiKey: "OLLAMA_API_KEY", baseURL: "OLLAMA_HOST" },
  buildHttpRequest(request, endpoint) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
    if (endpoint.headers) Object.assign(headers, endpoint.headers);
    return {
      url: `${ollamaBaseURL(endpoint.baseURL)}/api/chat`,
      headers,
      body: buildOllamaBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: (emit) => createOllamaDecoder(emit),
};

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

/** OpenAI's headers: a bearer key, and the caller's extra headers last, so a gateway's own auth can replace ours. */
function bearerHeaders(endpoint: Endpoint): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
  };
  if (endpoint.apiKey !== undefined && endpoint.apiKey !== "")
    headers.authorization = `Bearer ${endpoint.apiKey}`;
  return { ...headers, ...endpoint.headers };
}

function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f /* / */) end--;
  return url.slice(0, end);
}

/** Ollama's port, assumed when `OLLAMA_HOST` names a host without one and without a scheme. */
const OLLAMA_PORT = "11434";

/**
 * A base URL read the way Ollama reads `OLLAMA_HOST`: `0.0.0.0:11434` means `http://0.0.0.0:11434`,
 * a bare host gets port 11434, bare `ollama.com` is the cloud over https; a URL with a scheme is
 * taken as written. No trailing slash.
 */
export function ollamaBaseURL(configured: string | undefined): string {
  const value = configured?.trim() ?? "";
  if (value === "") return ollamaScheme.defaultBaseURL;
  let url: string;
  if (value.includes("://")) {
    url = value;
  } else if (value === "ollama.com") {
    url = "https://ollama.com";
  } else {
    const slash = value.indexOf("/");
    const hostPort = slash === -1 ? value : value.slice(0, slash);
    const path = slash === -1 ? "" : value.slice(slash);
    url = `http://${withPort(hostPort)}${path}`;
  }
  return url.endsWith("/") ? url.replace(/\/+$/, "") : url;
}

/** Adds the default port where the host has none, as Ollama does (`:11434` alone is the local host). */
function withPort(hostPort: string): string {
  if (hostPort.startsWith("[")) return /\]:\d+$/.test(hostPort) ? hostPort : `${hostPort}:${OLLAMA_PORT}`;
  const colon = hostPort.indexOf(":");
  if (colon === -1) return `${hostPort}:${OLLAMA_PORT}`;
  // More than one colon and no brackets: a bare IPv6 address, which needs brackets before a port.
  if (hostPort.indexOf(":", colon + 1) !== -1) return `[${hostPort}]:${OLLAMA_PORT}`;
  return colon === 0 ? `127.0.0.1${hostPort}` : hostPort;
}
