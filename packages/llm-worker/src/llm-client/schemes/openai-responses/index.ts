import type { Request } from "../../request.js";
import type { Endpoint, HttpRequest, Scheme } from "../../scheme.js";
import { createOpenaiResponsesDecoder } from "./decoder.js";
import { buildOpenaiResponsesBody } from "./request.js";

export { buildOpenaiResponsesBody } from "./request.js";
export type { OpenaiResponsesBody } from "./wire.js";

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
  buildHttpRequest(request: Request, endpoint: Endpoint): HttpRequest {
    const baseURL = endpoint.baseURL || openaiResponsesScheme.defaultBaseURL;
    const base = baseURL.endsWith("/") ? baseURL.slice(0, -1) : baseURL;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "text/event-stream",
    };
    if (endpoint.apiKey !== undefined && endpoint.apiKey !== "") {
      headers.authorization = `Bearer ${endpoint.apiKey}`;
    }
    return {
      url: `${base}/responses`,
      // Extra headers last, so a gateway that authenticates differently can replace ours.
      headers: { ...headers, ...endpoint.headers },
      body: buildOpenaiResponsesBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: createOpenaiResponsesDecoder,
};
