import type { ErrorInfo, ErrorKind } from "./event.js";

/** Kinds worth another attempt: the provider may answer differently a moment later. */
const RETRYABLE: ReadonlySet<ErrorKind> = new Set([
  "rate_limit",
  "overloaded",
  "server",
  "network",
  "timeout",
]);

export function isRetryable(kind: ErrorKind): boolean {
  return RETRYABLE.has(kind);
}

/**
 * The one error type of the client layer. Streams never throw it (they carry an `error` event);
 * it is thrown only where a caller asked for a value, and it converts to and from `ErrorInfo`.
 */
export class LlmError extends Error implements ErrorInfo {
  readonly kind: ErrorKind;
  readonly code?: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly raw?: unknown;
  readonly resetAt?: string;

  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = "LlmError";
    this.kind = info.kind;
    if (info.code !== undefined) this.code = info.code;
    if (info.status !== undefined) this.status = info.status;
    if (info.requestId !== undefined) this.requestId = info.requestId;
    if (info.raw !== undefined) this.raw = info.raw;
    if (info.resetAt !== undefined) this.resetAt = info.resetAt;
  }

  toInfo(): ErrorInfo {
    const { kind, message, code, status, requestId, raw, resetAt } = this;
    return { kind, message, code, status, requestId, raw, ...(resetAt !== undefined && { resetAt }) };
  }
}

/**
 * The message of anything thrown: an Error's message; a string as it is; any other value as its
 * JSON (a thrown `{code, detail}` says more than `[object Object]`), else as text.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  if (typeof err === "object" && err !== null) {
    try {
      const json = JSON.stringify(err);
      if (json !== undefined && json !== "{}") return json;
    } catch {
      // Circular or holding a BigInt: its own text is all there is.
    }
  }
  return String(err);
}

/** The error of a request its caller aborted (the reason kept as its cause). */
export function abortedError(reason?: unknown): LlmError {
  return new LlmError({ kind: "aborted", message: "the request was aborted" }, { cause: reason });
}
