import { createRequire } from "node:module";
import { errorKindFromCode, errorKindFromStatus } from "./error-kind.js";
import { LlmError } from "./errors.js";
import type { ErrorKind } from "./event.js";
import { limitDetails } from "./quota.js";
import { parseRetryAfter } from "./retry.js";

/**
 * The standard name of an HTTP status. `node:http` is required on an error, not imported: loading
 * it (with its sockets, agents and streams) was the largest part of importing the library.
 */
function statusName(status: number): string | undefined {
  return (createRequire(import.meta.url)("node:http") as typeof import("node:http")).STATUS_CODES[status];
}

/** The request id a provider put on its response: `request-id` (Anthropic) or `x-request-id` (OpenAI). */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get("request-id") ?? headers.get("x-request-id") ?? undefined;
}

/**
 * Turns an error response into an `LlmError`: the kind from the status, refined by the provider's
 * body (Anthropic `{type:"error", error:{type,message}}`, OpenAI `{error:{message,type,code}}`,
 * Gemini `{error:{code,message,status}}` or an array of it, Ollama `{error:"..."}`).
 */
export function errorFromResponse(
  status: number,
  statusText: string,
  headers: Headers,
  text: string,
): LlmError {
  return describeErrorResponse(status, statusText, headers, text).error;
}

/** An error response read: the error, and the wait its body asks for (Gemini `RetryInfo`). */
export interface ErrorResponse {
  error: LlmError;
  retryDelayMs?: number;
}

/**
 * `errorFromResponse`, with what the provider says about its limits (see `limitDetails`): a spent
 * quota becomes kind `quota_exhausted`, and the time the limit lifts is the error's `resetAt`.
 */
export function describeErrorResponse(
  status: number,
  statusText: string,
  headers: Headers,
  text: string,
  now: number = Date.now(),
): ErrorResponse {
  const raw = parseBody(text);
  const details = providerErrorDetails(raw);
  // The status itself is named by whoever shows the error (see `presentError`).
  const message = details.message ?? (statusText || statusName(status) || "no details");
  const requestId = requestIdOf(headers);
  let kind = refineKind(errorKindFromStatus(status, message), details);
  const limits =
    kind === "rate_limit" || status === 400 || status === 429
      ? limitDetails(headers, raw, details.code, message, now)
      : undefined;
  if (limits?.quotaExhausted) kind = "quota_exhausted";
  // The rate-limit headers name the limit's reset; else `retry-after(-ms)` says when to come back.
  const retryAfterMs = limits === undefined ? undefined : parseRetryAfter(headers, now);
  const resetsAt = limits?.resetAt ?? (retryAfterMs === undefined ? undefined : now + retryAfterMs);
  const resetAt =
    resetsAt !== undefined && (kind === "rate_limit" || kind === "quota_exhausted")
      ? new Date(resetsAt).toISOString()
      : undefined;
  const error = new LlmError({
    kind,
    message,
    status,
    ...(details.code !== undefined && { code: details.code }),
    ...(requestId !== undefined && { requestId }),
    ...(raw !== undefined && { raw }),
    ...(resetAt !== undefined && { resetAt }),
  });
  return { error, ...(limits?.retryDelayMs !== undefined && { retryDelayMs: limits.retryDelayMs }) };
}

export interface ProviderErrorDetails {
  message?: string;
  code?: string;
  /** Gemini `details[].reason` (`API_KEY_INVALID`, ...). */
  reason?: string;
}

function refineKind(byStatus: ErrorKind, details: ProviderErrorDetails): ErrorKind {
  // Only a generic status is refined: Gemini answers a bad key with 400 INVALID_ARGUMENT.
  if (byStatus !== "invalid_request") return byStatus;
  if (details.reason === "API_KEY_INVALID") return "authentication";
  const byCode = errorKindFromCode(details.code, details.message ?? "");
  return byCode === "invalid_request" ? byStatus : byCode;
}

/** The body as JSON, or as the text it is. */
export function parseBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The message and code of a provider's error body, in any of the providers' shapes. */
export function providerErrorDetails(raw: unknown): ProviderErrorDetails {
  const body = Array.isArray(raw) ? raw[0] : raw;
  if (!isObject(body)) return {};
  const error = body.error;
  if (typeof error === "string") return { message: error };
  if (!isObject(error)) return stringField(body, "message") ? { message: body.message as string } : {};
  const details: ProviderErrorDetails = {};
  const message = stringField(error, "message");
  if (message !== undefined) details.message = message;
  // OpenAI `code` (string; may be null), Gemini `status` (its numeric `code` is the HTTP status), Anthropic `type`.
  const code = stringField(error, "code") ?? stringField(error, "status") ?? stringField(error, "type");
  if (code !== undefined) details.code = code;
  if (Array.isArray(error.details)) {
    for (const detail of error.details) {
      const reason = isObject(detail) ? stringField(detail, "reason") : undefined;
      if (reason !== undefined) details.reason = reason;
    }
  }
  return details;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function stringField(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === "string" && field !== "" ? field : undefined;
}
