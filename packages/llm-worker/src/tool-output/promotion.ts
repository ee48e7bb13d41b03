import { estimateTextTokens } from "../context/tokens.js";
import type { Content, JsonValue, ToolOutput } from "../tool/tool-output.js";
import { INLINE_LIMIT_BYTES } from "./limits.js";
import { utf8Length } from "./utf8.js";

export interface PromotionOptions {
  /** Largest plain string result kept inline, in UTF-8 bytes (default 800, the seed's). */
  inlineLimitBytes?: number;
  /**
   * Largest plain string result kept inline, in estimated tokens (o200k); when set it replaces
   * `inlineLimitBytes`. Tokens are what an inline result costs on every request, and what a
   * stored one saves; bytes per token vary threefold between prose, code and JSON.
   */
  inlineLimitTokens?: number;
}

/**
 * The seed's `From<String> for ToolOutput`: a plain string up to 800 bytes stays inline, a longer
 * one is stored. An explicit `ToolOutput` is the tool's own decision and is returned as it is.
 *
 * A long string that is a JSON array or object (as MCP servers and HTTP APIs return) is stored as
 * structured content, so its summary shows the array or object format and `inspect` can slice it
 * or read a key. Its original whitespace is not kept: the blob holds the value.
 */
export function promote(result: string | ToolOutput, options?: PromotionOptions): ToolOutput {
  if (typeof result !== "string") return result;
  if (fitsInline(result, options)) return { kind: "inline", text: result };
  return { kind: "stored", content: contentOfString(result) };
}

/** A token is at least one UTF-8 byte: a text of at most N bytes has at most N tokens. */
function fitsInline(text: string, options: PromotionOptions | undefined): boolean {
  const bytes = utf8Length(text);
  const tokenLimit = options?.inlineLimitTokens;
  if (tokenLimit === undefined) return bytes <= (options?.inlineLimitBytes ?? INLINE_LIMIT_BYTES);
  return bytes <= tokenLimit || estimateTextTokens(text) <= tokenLimit;
}

/** Structured content when `text` is a JSON array or object, else text content. */
export function contentOfString(text: string): Content {
  const value = parseJsonContainer(text);
  return value === undefined ? { kind: "text", text } : { kind: "structured", value };
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * The value of `text` when it is a JSON array or object; undefined otherwise (JSON scalars too:
 * a quoted string or a number reads better as text). Looks at the first and last non-blank
 * characters before parsing, so ordinary text costs no parse attempt.
 */
export function parseJsonContainer(text: string): JsonValue[] | { [key: string]: JsonValue } | undefined {
  let start = 0;
  while (start < text.length && WHITESPACE.has(text.charAt(start))) start++;
  let end = text.length - 1;
  while (end > start && WHITESPACE.has(text.charAt(end))) end--;
  const open = text.charAt(start);
  const close = text.charAt(end);
  if (!((open === "[" && close === "]") || (open === "{" && close === "}"))) return undefined;
  try {
    return JSON.parse(text) as JsonValue[] | { [key: string]: JsonValue };
  } catch {
    return undefined;
  }
}
