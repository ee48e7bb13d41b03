import { collectResponse } from "../timeline/collect-response.js";
import { errorPresenter } from "./error-presenter.js";
import { errorMessage, LlmError } from "./errors.js";
import type { ErrorInfo, Event } from "./event.js";
import type { FallbackNotice } from "./fallback.js";
import type { SchemeName } from "./item.js";
import type { Request } from "./request.js";
import type { Response } from "./response.js";
import { streamResponse } from "./response-stream.js";
import { DEFAULT_RETRY_POLICY, type RetryNotice, type RetryPolicy } from "./retry.js";
import type { Endpoint, HttpRequest, Scheme } from "./scheme.js";
import { getScheme, ollamaBaseURL } from "./schemes/index.js";
import { DEFAULT_HEADERS_TIMEOUT_MS, type TransportOptions } from "./transport.js";

export type { RetryNotice, RetryPolicy } from "./retry.js";
export { DEFAULT_RETRY_POLICY } from "./retry.js";

/** Options of `client.stream` and `client.complete`. */
export interface CallOptions {
  /** Ends the request at once, backoff waits included; the stream then ends `cancelled`. */
  signal?: AbortSignal;
  /** Told before each retry's wait of this call (after the client's own `onRetry`). */
  onRetry?: (notice: RetryNotice) => void;
  /** Told when a chain of models (`createFallbackClient`) moves to another model for this call. */
  onFallback?: (notice: FallbackNotice) => void;
}

/**
 * A model behind one provider. Later layers (the Worker) depend on this interface only, so tests and
 * embedders can provide their own.
 */
export interface LlmClient {
  readonly scheme: SchemeName;
  readonly model: string;
  /**
   * The response as events. Never throws: any failure is an `error` event followed by the final
   * status (`failed`, or `cancelled` after an abort). Failures before the first event reached the
   * consumer are retried per the retry policy; once an event was delivered, never.
   */
  stream(request: Request, options?: CallOptions): AsyncIterable<Event>;
  /** The same stream gathered into one `Response` (a failure is in `status` and `error`, not thrown). */
  complete(request: Request, options?: CallOptions): Promise<Response>;
}

/** One provider and model: the scheme, the model, where and with which key, retries and limits. */
export interface ClientOptions {
  /** A scheme name, or a `Scheme` of your own. */
  scheme: SchemeName | Scheme;
  /** Default model; `request.model` overrides it per request. */
  model: string;
  /** Defaults to the scheme's base URL variable (`ANTHROPIC_BASE_URL`, `OLLAMA_HOST`, ...), then its default. */
  baseURL?: string;
  /** Defaults to the scheme's key variable (`ANTHROPIC_API_KEY`, ...). */
  apiKey?: string;
  /**
   * The variable the key came from, named when the provider refuses it
   * (`anthropic: 401 invalid x-api-key — check ANTHROPIC_API_KEY`); defaults to the scheme's.
   */
  apiKeyVariable?: string;
  /** How error messages name the provider (`groq`, ...); defaults to the scheme's name. */
  provider?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  retry?: Partial<RetryPolicy>;
  /** Longest time without progress in the body; keep-alives are not progress (default 60 s). */
  idleTimeoutMs?: number;
  /**
   * Longest wait for the response headers: default 30 s, whoever serves the scheme; 120 s for
   * Ollama, which loads the model before it answers the first request.
   */
  headersTimeoutMs?: number;
  /** Longest time of one attempt, headers and whole body (default 30 min). */
  attemptTimeoutMs?: number;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Told before each retry's wait. */
  onRetry?: (notice: RetryNotice) => void;
}

/**
 * Makes a client. A missing API key is a configuration error, known before any request, so it is
 * thrown here (an `LlmError` of kind `authentication` naming the variable) rather than reported by
 * every later stream. Every scheme but Ollama needs a key.
 */
export function createClient(options: ClientOptions): LlmClient {
  const scheme = typeof options.scheme === "string" ? getScheme(options.scheme) : options.scheme;
  const endpoint = resolveEndpoint(scheme, options);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const keyVariable = options.apiKeyVariable ?? scheme.env.apiKey;
  const present = errorPresenter({
    provider: options.provider ?? scheme.name,
    ...(keyVariable !== undefined && { keyVariable }),
    ...(endpoint.apiKey !== undefined && { apiKey: endpoint.apiKey }),
  });
  const transport: TransportOptions = {
    headersTimeoutMs: options.headersTimeoutMs ?? defaultHeadersTimeoutMs(scheme),
    ...(options.idleTimeoutMs !== undefined && { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.attemptTimeoutMs !== undefined && { attemptTimeoutMs: options.attemptTimeoutMs }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  };
  const client: LlmClient = {
    scheme: scheme.name,
    model: options.model,
    stream: (request, call) =>
      streamResponse({
        scheme,
        http: buildRequest(scheme, endpoint, request),
        policy,
        transport,
        present,
        ...retryListener(options.onRetry, call?.onRetry),
        ...(call?.signal !== undefined && { signal: call.signal }),
      }),
    complete: (request, call) => collectResponse(client.stream(request, call), scheme.name),
  };
  return client;
}

function retryListener(...listeners: Array<((notice: RetryNotice) => void) | undefined>): {
  onRetry?: (notice: RetryNotice) => void;
} {
  const present = listeners.filter((l) => l !== undefined);
  if (present.length === 0) return {};
  return {
    onRetry: (notice) => {
      for (const listener of present) listener(notice);
    },
  };
}

function buildRequest(scheme: Scheme, endpoint: Endpoint, request: Request): HttpRequest | ErrorInfo {
  try {
    return scheme.buildHttpRequest(request, { ...endpoint, model: request.model ?? endpoint.model });
  } catch (err) {
    return { kind: "invalid_request", message: `could not build the request: ${errorMessage(err)}` };
  }
}

function resolveEndpoint(scheme: Scheme, options: ClientOptions): Endpoint {
  const env = process.env;
  const keyVariable = scheme.env.apiKey;
  const apiKey = options.apiKey ?? (keyVariable ? nonEmpty(env[keyVariable]) : undefined);
  if (apiKey === undefined && keyVariable !== undefined && scheme.name !== "ollama") {
    throw new LlmError({
      kind: "authentication",
      message: `no API key for ${scheme.name}: set ${keyVariable} or pass apiKey to createClient`,
    });
  }
  const urlVariable = scheme.env.baseURL;
  const fromEnv = urlVariable ? nonEmpty(env[urlVariable]) : undefined;
  const configured = options.baseURL ?? fromEnv ?? scheme.defaultBaseURL;
  // Ollama reads its variable its own way: a bare host means port 11434, `:port` the local host.
  const baseURL = scheme.name === "ollama" ? ollamaBaseURL(configured) : normalizeBaseURL(configured);
  return {
    model: options.model,
    baseURL,
    ...(apiKey !== undefined && { apiKey }),
    ...(options.headers !== undefined && { headers: options.headers }),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** `OLLAMA_HOST` is often a bare `host:port`; a trailing slash would double the path's. */
function normalizeBaseURL(url: string): string {
  const withScheme = url.includes("://") ? url : `http://${url}`;
  return withScheme.replace(/\/+$/, "");
}

/**
 * Ollama loads the model on the first request before it sends the headers. Other local servers
 * (llama.cpp, vLLM, LM Studio) answer the headers at once, like hosted APIs: a longer wait for them
 * would only lengthen the silence of a server that does not answer.
 */
const OLLAMA_HEADERS_TIMEOUT_MS = 120_000;

function defaultHeadersTimeoutMs(scheme: Scheme): number {
  return scheme.name === "ollama" ? OLLAMA_HEADERS_TIMEOUT_MS : DEFAULT_HEADERS_TIMEOUT_MS;
}
