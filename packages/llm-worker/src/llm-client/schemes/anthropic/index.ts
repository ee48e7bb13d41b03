import type { Request } from "../../request.js";
import type { Endpoint, HttpRequest, Scheme } from "../../scheme.js";
import { createAnthropicDecoder } from "./decoder.js";
import { buildAnthropicBody } from "./request.js";

/** The Messages API version this scheme speaks (sent as `anthropic-version`). */
export const ANTHROPIC_API_VERSION = "2023-06-01";

/** Anthropic Messages API (`POST {baseURL}/v1/messages`, server-sent events). */
export const anthropicScheme: Scheme = {
  name: "anthropic",
  framing: "sse",
  defaultBaseURL: "https://api.anthropic.com",
  env: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL" },
  buildHttpRequest(request: Request, endpoint: Endpoint): HttpRequest {
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

function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f /* / */) end--;
  return url.slice(0, end);
}
