import type { ErrorInfo } from "./event.js";
import { errorFromResponse, parseBody, providerErrorDetails } from "./http-error.js";
import type { Framing } from "./scheme.js";
import { excerpt } from "./schemes/wire-json.js";

/** What a successful response's body turned out to be when it is not the scheme's stream. */
export type ErrorPageKind = "html" | "json";

/** The most of an error page that is read: its start says what it is. */
export const ERROR_PAGE_LIMIT = 65_536;

/**
 * Judges a body by its first byte that is not whitespace: `<` is an HTML page (a proxy, a captive
 * portal, a gateway's error page); `{` is a JSON document where an event stream was expected
 * (an error object, or a whole non-streamed answer). NDJSON streams start with `{` themselves, and
 * Gemini's JSON array with `[`. Undefined: the scheme's own stream, as far as this byte can tell.
 */
export function errorPageKind(firstByte: number, framing: Framing): ErrorPageKind | undefined {
  if (firstByte === 0x3c /* < */) return "html";
  if (firstByte === 0x7b /* { */ && framing !== "ndjson") return "json";
  return undefined;
}

/** Whitespace and a UTF-8 byte order mark may precede a body's first meaningful byte. */
export function isLeadingFiller(byte: number): boolean {
  return (
    byte === 0x20 ||
    byte === 0x0a ||
    byte === 0x0d ||
    byte === 0x09 ||
    byte === 0xef ||
    byte === 0xbb ||
    byte === 0xbf
  );
}

/**
 * The error for an error page, named for what it is: `the server answered 200 with an HTML page
 * instead of an event stream: <title>`. A JSON error keeps the provider's kind and message (a 200
 * that says `overloaded_error` is retried like a 529).
 */
export function errorPageInfo(kind: ErrorPageKind, text: string, status: number | undefined): ErrorInfo {
  const answered = status === undefined ? "the server answered" : `the server answered ${status}`;
  if (kind === "html") {
    return {
      kind: "stream",
      message: `${answered} with an HTML page instead of an event stream: ${htmlTitle(text)}`,
      raw: excerpt(text, 2000),
    };
  }
  const raw = parseBody(text);
  const prefix = `${answered} with a JSON document instead of an event stream`;
  if (providerErrorDetails(raw).message === undefined) {
    // Not an error: a whole answer from a server that ignored `stream: true`, or something else.
    return { kind: "stream", message: `${prefix}: ${excerpt(text.trim())}`, raw };
  }
  // 200 says nothing of the kind; the body's error type does (`overloaded_error` is retried).
  const error = errorFromResponse(200, "", new Headers(), text);
  return {
    kind: error.kind,
    message: `${prefix}: ${error.message}`,
    ...(error.code !== undefined && { code: error.code }),
    raw,
  };
}

function htmlTitle(html: string): string {
  const title = /<title[^>]*>([^<]*)</i.exec(html)?.[1];
  const text = title ?? html.replace(/<[^>]*>/g, " ");
  const plain = text.replace(/\s+/g, " ").trim();
  return plain === "" ? "(an empty page)" : excerpt(plain);
}
