import type { ErrorInfo } from "./event.js";

/** Who is speaking in a client's errors, and the secret they must never repeat. */
export interface ErrorSource {
  /** How messages name the provider (`anthropic`, `groq`, ...). */
  provider: string;
  /** The variable the key came from, named when the provider refuses it. */
  keyVariable?: string;
  /** The key itself, replaced by `[redacted]` wherever a provider echoes it. */
  apiKey?: string;
}

/** Turns an error into what may leave the client. */
export type ErrorPresenter = (info: ErrorInfo) => ErrorInfo;

export const REDACTED = "[redacted]";

/**
 * Every error that leaves a client goes through this once: its message names the provider and the
 * HTTP status (`anthropic: 401 invalid x-api-key — check ANTHROPIC_API_KEY`), and no field repeats
 * the key, whole or in the masked form some gateways echo (`sk-...abcd`).
 */
export function errorPresenter(source: ErrorSource): ErrorPresenter {
  const redact = secretRedactor(source.apiKey);
  return (info) => {
    const status = info.status === undefined ? "" : `${info.status} `;
    const checkKey =
      (info.kind === "authentication" || info.kind === "permission") && source.keyVariable !== undefined
        ? ` — check ${source.keyVariable}`
        : "";
    // A spent quota is not retried: the message says when trying again makes sense.
    const resets =
      info.kind === "quota_exhausted" && info.resetAt !== undefined ? ` (resets at ${info.resetAt})` : "";
    const presented: ErrorInfo = {
      ...info,
      message: redact(`${source.provider}: ${status}${info.message}${resets}${checkKey}`),
    };
    if (info.code !== undefined) presented.code = redact(info.code);
    if (info.raw !== undefined) presented.raw = redactValue(info.raw, redact);
    return presented;
  };
}

/**
 * Replaces a secret in text: the whole of it, and a masked echo that keeps its first three and
 * last four characters around dots or stars. Short secrets are replaced only whole.
 */
export function secretRedactor(secret: string | undefined): (text: string) => string {
  if (secret === undefined || secret.length < 4) return (text) => text;
  const whole = new RegExp(escapeRegExp(secret), "g");
  const masked =
    secret.length >= 12
      ? new RegExp(
          `${escapeRegExp(secret.slice(0, 3))}[^\\s"'<>]{0,60}?${escapeRegExp(secret.slice(-4))}`,
          "g",
        )
      : undefined;
  return (text) => {
    const once = text.replace(whole, REDACTED);
    return masked ? once.replace(masked, REDACTED) : once;
  };
}

/** The same value with every string in it redacted; untouched (the same object) if there was nothing to do. */
function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return REDACTED;
  }
  if (json === undefined) return value;
  const clean = redact(json);
  if (clean === json) return value;
  try {
    return JSON.parse(clean) as unknown;
  } catch {
    return clean;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
