import type { ErrorKind } from "./event.js";

/** Messages by which the providers say the prompt does not fit (they use 400 or 413 for it). */
const CONTEXT_TOO_LONG =
  /prompt is too long|context[ _]length|context window|maximum context|too many (input )?tokens|exceeds the maximum number of tokens|input is too long|request too large/i;

/** Classifies an HTTP error status, refined by the provider's message. */
export function errorKindFromStatus(status: number, message = ""): ErrorKind {
  if (CONTEXT_TOO_LONG.test(message) && (status === 400 || status === 413)) return "context_too_long";
  if (status === 401) return "authentication";
  if (status === 403) return "permission";
  if (status === 404) return "not_found";
  if (status === 408) return "timeout";
  if (status === 413) return "context_too_long";
  if (status === 429) return "rate_limit";
  if (status === 529 || status === 503) return "overloaded";
  if (status >= 500) return "server";
  return "invalid_request";
}

const KIND_BY_CODE: Readonly<Record<string, ErrorKind>> = {
  authentication_error: "authentication",
  invalid_api_key: "authentication",
  UNAUTHENTICATED: "authentication",
  permission_error: "permission",
  PERMISSION_DENIED: "permission",
  not_found_error: "not_found",
  model_not_found: "not_found",
  NOT_FOUND: "not_found",
  rate_limit_error: "rate_limit",
  rate_limit_exceeded: "rate_limit",
  insufficient_quota: "quota_exhausted",
  RESOURCE_EXHAUSTED: "rate_limit",
  overloaded_error: "overloaded",
  server_is_overloaded: "overloaded",
  UNAVAILABLE: "overloaded",
  api_error: "server",
  server_error: "server",
  INTERNAL: "server",
  timeout_error: "timeout",
  DEADLINE_EXCEEDED: "timeout",
  context_length_exceeded: "context_too_long",
  invalid_request_error: "invalid_request",
  INVALID_ARGUMENT: "invalid_request",
};

/**
 * Classifies a provider error code or type (Anthropic `error.type`, OpenAI `code`/`type`, Gemini
 * `status`) for errors that arrive inside a stream, where there is no HTTP status. A known code wins
 * (OpenAI's rate-limit message "Request too large for ... tokens per min" is not a context error);
 * then the message; then `fallback`.
 */
export function errorKindFromCode(
  code: string | undefined,
  message = "",
  fallback: ErrorKind = "invalid_request",
): ErrorKind {
  const known = code === undefined ? undefined : KIND_BY_CODE[code];
  if (known !== undefined && known !== "invalid_request") return known;
  if (CONTEXT_TOO_LONG.test(message)) return "context_too_long";
  return known ?? fallback;
}
