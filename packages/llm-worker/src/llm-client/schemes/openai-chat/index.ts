import type { Endpoint, HttpRequest, Scheme } from "../../scheme.js";
import { createOpenaiChatDecoder } from "./decoder.js";
import { buildOpenaiChatBody } from "./request.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * OpenAI Chat Completions (`POST {baseURL}/chat/completions`, SSE), also spoken by OpenAI-compatible
 * servers (Groq, xAI, DeepSeek, vLLM, OpenRouter, Ollama's `/v1`): point `baseURL` at them.
 */
export const openaiChatScheme: Scheme = {
  name: "openai-chat",
  framing: "sse",
  defaultBaseURL: DEFAULT_BASE_URL,
  env: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
  buildHttpRequest(request, endpoint): HttpRequest {
    return {
      url: `${trimTrailingSlashes(endpoint.baseURL || DEFAULT_BASE_URL)}/chat/completions`,
      headers: headersFor(endpoint),
      body: buildOpenaiChatBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: createOpenaiChatDecoder,
};

function headersFor(endpoint: Endpoint): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
  };
  if (endpoint.apiKey !== undefined && endpoint.apiKey !== "")
    headers.authorization = `Bearer ${endpoint.apiKey}`;
  // Last, so that a caller can replace any of the above (a gateway's own auth header, say).
  return { ...headers, ...endpoint.headers };
}

function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f /* / */) end--;
  return url.slice(0, end);
}
