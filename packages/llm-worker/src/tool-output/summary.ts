import type { Content } from "../tool/tool-output.js";
import { viewOf } from "./content-view.js";
import { summarizeJsonArray, summarizeJsonObject } from "./json-summary.js";
import { SUMMARY_LIMIT_BYTES } from "./limits.js";
import { summarizeTextForQuery } from "./query-summary.js";
import { summarizeText } from "./text-summary.js";
import { cutToBytes } from "./utf8.js";

/** How a summary may go beyond the seed's formats to carry what the model asks for. */
export interface SummaryHints {
  /**
   * What the call that produced the output asked for (its `pattern`, `query`, …): a text summary
   * then shows the lines that match it (see `summarizeTextForQuery`).
   */
  query?: string | undefined;
  /** JSON array summaries give the range of each key's values (see `keyRange`). */
  valueRanges?: boolean | undefined;
}

/**
 * The summary history keeps for a stored blob: at most `limit` UTF-8 bytes, starting with
 * `[blob:<id>]`, in the seed's text, JSON array or JSON object format (with `hints`, the
 * query-aware text format and value ranges where they apply).
 */
export function summarize(
  id: string,
  content: Content,
  limit = SUMMARY_LIMIT_BYTES,
  hints: SummaryHints = {},
): string {
  const view = viewOf(content);
  switch (view.kind) {
    case "text": {
      const forQuery =
        hints.query === undefined ? undefined : summarizeTextForQuery(id, view.text, hints.query, limit);
      return forQuery ?? summarizeText(id, view.text, limit);
    }
    case "array":
      return summarizeJsonArray(id, view.entries, limit, hints.valueRanges ?? false);
    case "object":
      return summarizeJsonObject(id, view.value, limit);
  }
}

/**
 * A summary the tool wrote itself: it could not know the blob id, so the `[blob:<id>]` pointer is
 * put in front, and the whole is held to `limit` bytes (cut with `…`).
 */
export function withBlobPointer(id: string, summary: string, limit = SUMMARY_LIMIT_BYTES): string {
  return cutToBytes(`[blob:${id}] ${summary}`, limit);
}

/** The first line of a text. */
export function firstLineOf(text: string): string {
  const newline = text.indexOf("\n");
  return newline === -1 ? text : text.slice(0, newline);
}
