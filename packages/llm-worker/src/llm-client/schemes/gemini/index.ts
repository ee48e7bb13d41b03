import type { Request } from "../../request.js";
import type { Endpoint, HttpRequest, Scheme } from "../../scheme.js";
import { GeminiDecoder } from "./decoder.js";
import { buildGeminiBody } from "./request.js";

const DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

/**
 * Google's Gemini API (`generativelanguage.googleapis.com`, v1beta), streamed as SSE with
 * `alt=sse`. The framing also accepts the JSON-array body the endpoint sends without it.
 */
export const geminiScheme: Scheme = {
  name: "gemini",
  framing: "json-or-sse",
  defaultBaseURL: DEFAULT_BASE_URL,
  env: { apiKey: "GEMINI_API_KEY", baseURL: "GEMINI_BASE_URL" },
  buildHttpRequest: buildGeminiHttpRequest,
  createDecoder: (emit) => new GeminiDecoder(emit),
};

function buildGeminiHttpRequest(request: Request, endpoint: Endpoint): HttpRequest {
  const model = request.model ?? endpoint.model;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (endpoint.apiKey) headers["x-goog-api-key"] = endpoint.apiKey;
  return {
    url: `${versionedBase(endpoint.baseURL)}/${modelResource(model)}:streamGenerateContent?alt=sse`,
    headers: { ...headers, ...endpoint.headers },
    body: buildGeminiBody(request, model),
  };
}

/** The base URL with the API version: appended unless the configured URL already names one. */
function versionedBase(baseURL: string): string {
  const base = (baseURL || DEFAULT_BASE_URL).replace(/\/+$/, "");
  return /\/v1(alpha|beta)?\d*$/.test(base) ? base : `${base}/v1beta`;
}

/** `models/{model}`; a name that is already a resource path (`tunedModels/x`, `models/x`) is kept. */
function modelResource(model: string): string {
  return model.includes("/") ? model : `models/${model}`;
}
