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

/**
 * Classifies a provider error code or type (Anthropic `error.type`, OpenAI `code`/`type`, Gemini
 * `status`) for errors that arrive inside a stream, where there is no HTTP status.
 */
export function errorKindFromCode(code: string | undefined, message = ""): ErrorKind {
  if (CONTEXT_TOO_LONG.test(message) || /context_length/.test(code ?? "")) return "context_too_long";
  switch (code) {
    case "authentication_error":
    case "invalid_api_key":
    case "UNAUTHENTICATED":
      return "authentication";
    case "permission_error":
    case "PERMISSION_DENIED":
      return "permission";
    case "not_found_error":
    case "model_not_found":
    case "NOT_FOUND":
      return "not_found";
    case "rate_limit_error":
    case "rate_limit_exceeded":
    case "insufficient_quota":
    case "RESOURCE_EXHAUSTED":
      return "rate_limit";
    case "overloaded_error":
    case "server_is_overloaded":
    case "UNAVAILABLE":
      return "overloaded";
    case "api_error":
    case "server_error":
    case "INTERNAL":
      return "server";
    case "timeout_error":
    case "DEADLINE_EXCEEDED":
      return "timeout";
    default:
      return "invalid_request";
  }
}
