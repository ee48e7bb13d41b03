import { AttemptGuard } from "./attempt-guard.js";
import { abortedError, LlmError } from "./errors.js";
import { describeErrorResponse, requestIdOf } from "./http-error.js";
import { type AttemptFailure, isRetryableError, parseRetryAfter, type Retrier } from "./retry.js";
import type { HttpRequest } from "./scheme.js";

/**
 * Default wait for the response headers. Hosted APIs answer the headers at once, before the model
 * has produced anything, so a silence this long means the provider is not answering; schemes that
 * may take longer (Ollama loads the model first) set their own (`Scheme.headersTimeoutMs`).
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
/** Default longest time without progress in a response body (keep-alives are not progress). */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/**
 * Default longest time of one attempt, from sending the request to the end of its body: room for
 * the longest answers (tens of thousands of tokens), a bound on a stream that never ends.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30 * 60_000;

/** Options of one HTTP attempt. A timeout of 0 disables that clock. */
export interface TransportOptions {
  /** Ends the request, the body and any backoff wait at once (kind `aborted`). */
  signal?: AbortSignal;
  /** Longest wait from sending the request to the response headers (default 30 s). */
  headersTimeoutMs?: number;
  /**
   * Longest time without progress in the body (default 60 s): a stall fails the body with kind
   * `timeout`. A chunk the consumer marks as keep-alive only (`OpenResponse.markKeepAlive`) is no
   * progress, so a provider that sends nothing but pings still times out.
   */
  idleTimeoutMs?: number;
  /**
   * Longest time of the whole attempt, headers and body (default 30 min): a deadline no stream of
   * keep-alives or trickling data can push back. Fails with kind `timeout`.
   */
  attemptTimeoutMs?: number;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** A response with a 2xx status whose body is still to be read. */
export interface OpenResponse {
  status: number;
  headers: Headers;
  /** From `request-id` (Anthropic) or `x-request-id` (OpenAI). */
  requestId?: string;
  /**
   * The body, chunk by chunk; iterate it once. An abort, an idle timeout or a broken connection is
   * thrown from the iterator as an `LlmError`. Stopping early releases the connection.
   */
  body: AsyncIterable<Uint8Array>;
  /**
   * Says that the chunk just read carried nothing but keep-alives (pings, SSE comments, a partial
   * frame): the idle clock goes on from the last progress instead of restarting.
   */
  markKeepAlive(): void;
}

export type AttemptOutcome = { ok: true; response: OpenResponse } | ({ ok: false } & AttemptFailure);

/** One attempt, retried on retryable failures while the retrier's budget lasts. */
export async function sendWithRetries(
  http: HttpRequest,
  options: TransportOptions,
  retrier: Retrier,
): Promise<AttemptOutcome> {
  for (;;) {
    const outcome = await sendOnce(http, options);
    if (outcome.ok) return outcome;
    const verdict = await retrier.afterFailure(outcome);
    if (verdict !== "retry") return { ok: false, error: verdict, retryable: false };
  }
}

/** Sends one request. Never throws: a failure is an outcome, with the provider's error as an `LlmError`. */
export async function sendOnce(http: HttpRequest, options: TransportOptions = {}): Promise<AttemptOutcome> {
  const signal = options.signal;
  if (signal?.aborted) return { ok: false, error: abortedError(signal.reason), retryable: false };
  let body: string;
  try {
    body = JSON.stringify(http.body);
  } catch (err) {
    const message = `the request body is not JSON: ${(err as Error)?.message ?? String(err)}`;
    return { ok: false, error: new LlmError({ kind: "invalid_request", message }), retryable: false };
  }
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const guard = new AttemptGuard(signal, options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS);
  guard.setClock(headersTimeoutMs, `no response headers within ${headersTimeoutMs} ms`);
  guard.beginWait();
  let response: globalThis.Response;
  try {
    response = await (options.fetch ?? fetch)(http.url, {
      method: "POST",
      headers: withJsonContentType(http.headers),
      body,
      signal: guard.signal,
    });
  } catch (err) {
    guard.release();
    const error = guard.failure ?? networkError("the request failed", err);
    return { ok: false, error, retryable: isRetryableError(error) };
  } finally {
    guard.endWait();
  }
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  guard.setClock(idleTimeoutMs, `no progress from the provider for ${idleTimeoutMs} ms`);
  if (!response.ok) {
    const text = await readErrorText(readBody(response.body, guard));
    if (guard.failure?.kind === "aborted") return { ok: false, error: guard.failure, retryable: false };
    const { error, retryDelayMs } = describeErrorResponse(
      response.status,
      response.statusText,
      response.headers,
      text,
    );
    const retryAfterMs = parseRetryAfter(response.headers) ?? retryDelayMs;
    return {
      ok: false,
      error,
      retryable: shouldRetryResponse(response.headers, error),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    };
  }
  const requestId = requestIdOf(response.headers);
  return {
    ok: true,
    response: {
      status: response.status,
      headers: response.headers,
      ...(requestId !== undefined && { requestId }),
      body: readBody(response.body, guard),
      markKeepAlive: () => guard.markKeepAlive(),
    },
  };
}

function shouldRetryResponse(headers: Headers, error: LlmError): boolean {
  if (error.kind === "quota_exhausted") return false;
  // Anthropic and OpenAI state their own verdict; it overrides the status.
  const hint = headers.get("x-should-retry");
  if (hint === "true") return true;
  if (hint === "false") return false;
  return isRetryableError(error);
}

function withJsonContentType(headers: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(headers)) if (name.toLowerCase() === "content-type") return headers;
  return { ...headers, "content-type": "application/json" };
}

/** The error text, up to a bound: an error page may be large and only its start is useful. */
async function readErrorText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const utf8 = new TextDecoder();
  let text = "";
  try {
    for await (const chunk of body) {
      text += utf8.decode(chunk, { stream: true });
      if (text.length > 65_536) break;
    }
  } catch {
    // A broken error body still leaves the status, which says enough.
  }
  return text;
}

/**
 * Our body wrapper over the fetch body: the clock runs only while we wait for a chunk (a slow
 * consumer is not a stalled provider), and a failure the guard recorded (abort, timeout) wins over
 * whatever the cancelled read reports.
 */
async function* readBody(
  body: ReadableStream<Uint8Array> | null,
  guard: AttemptGuard,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (!body) {
    guard.release();
    return;
  }
  const reader = body.getReader();
  let complete = false;
  try {
    for (;;) {
      guard.beginWait();
      let result: Awaited<ReturnType<typeof reader.read>>;
      try {
        result = await reader.read();
      } catch (err) {
        throw guard.failure ?? networkError("the connection broke while reading the response", err);
      } finally {
        guard.endWait();
      }
      if (guard.failure) throw guard.failure;
      if (result.done) {
        complete = true;
        return;
      }
      yield result.value;
    }
  } finally {
    guard.release();
    // Stopped early (consumer gone, failure): cancelling frees the connection.
    if (!complete) reader.cancel().catch(() => undefined);
  }
}

/** fetch reports connection failures as `TypeError("fetch failed")` with the system error as `cause`. */
function networkError(context: string, err: unknown): LlmError {
  const e = err as { message?: string; code?: unknown; cause?: { message?: string; code?: unknown } };
  const code =
    typeof e?.cause?.code === "string" ? e.cause.code : typeof e?.code === "string" ? e.code : undefined;
  const detail = e?.cause?.message ?? e?.message ?? String(err);
  return new LlmError(
    { kind: "network", message: `${context}: ${detail}`, ...(code !== undefined && { code }) },
    { cause: err },
  );
}
