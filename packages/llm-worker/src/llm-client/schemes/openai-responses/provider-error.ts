import { errorKindFromCode } from "../../error-kind.js";
import type { ErrorInfo } from "../../event.js";
import type { WireErrorEvent, WireResponse } from "./wire.js";
import { stringOr } from "./wire-read.js";

/** An `error` event as an error; `raw` is the whole event, as received. */
export function errorFromEvent(event: WireErrorEvent): ErrorInfo {
  // The API reference puts code/message at the top level; the live API nests them in `error`.
  const nested = typeof event.error === "object" && event.error !== null ? event.error : undefined;
  const code = nested ? (stringOr(nested.code) ?? stringOr(nested.type)) : stringOr(event.code);
  const message = stringOr(nested ? nested.message : event.message) ?? "the provider reported an error";
  return {
    kind: errorKindFromCode(code, message),
    message,
    ...(code !== undefined && { code }),
    raw: event,
  };
}

/** The error of a `response.failed` that no `error` event announced; `raw` is `response.error`. */
export function errorFromFailedResponse(response: WireResponse): ErrorInfo {
  const error = response.error ?? undefined;
  const code = stringOr(error?.code);
  const message = stringOr(error?.message) ?? "the response failed";
  return {
    kind: code !== undefined ? errorKindFromCode(code, message) : "server",
    message,
    ...(code !== undefined && { code }),
    ...(error !== undefined && { raw: error }),
  };
}
