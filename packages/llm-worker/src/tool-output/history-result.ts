import type { ToolOutput } from "../tool/tool-output.js";
import { type BlobId, type BlobStore, BlobStoreError } from "./blob-store.js";
import { contentText } from "./content-view.js";
import { SUMMARY_LIMIT_BYTES } from "./limits.js";
import { countLines } from "./lines.js";
import { type PromotionOptions, promote } from "./promotion.js";
import { firstLineOf, type SummaryHints, summarize, withBlobPointer } from "./summary.js";
import { cutToBytes } from "./utf8.js";

/** How much of the first line an inline result's one-line summary quotes. */
const FIRST_LINE_BYTES = 100;

export interface HistoryResultOptions extends PromotionOptions, SummaryHints {
  /** Largest generated summary of a stored output, in UTF-8 bytes (default 400, the seed's). */
  summaryLimitBytes?: number;
  /**
   * Whether the Worker passes each call's query (its `query`, `pattern`, … argument) as
   * `SummaryHints.query`. Off by default: seed 000's text format.
   */
  summarizeQuery?: boolean;
}

/**
 * The text of a tool result as history keeps it (the `content` and `summary` of a
 * `ToolResultItem`, seeds 000 and 003).
 */
export interface HistoryResult {
  /** What the model sees while the result is fresh: the output, or a stored blob's summary. */
  content: string;
  /** One line kept after prune drops `content`; for a stored output it holds the blob pointer. */
  summary: string;
  /** The blob the output was stored in. */
  blobId?: BlobId;
  /**
   * Set when the store failed: the output was then kept inline in full, as with no store, so
   * nothing is lost; the worker should report it (it is a warning, not a failed tool call).
   */
  storeError?: BlobStoreError;
}

/**
 * Turns what a tool returned into history text. A plain string is promoted (over 800 bytes:
 * stored); an explicit `ToolOutput` is respected. With a store, a stored output is written to it
 * and history keeps the summary (`[blob:<id>] …`, at most 400 bytes; a tool's own summary gets the
 * pointer put in front). With no store everything stays inline in full, as the seed says: a
 * stored output is then shown whole (structured content as compact JSON), its summary unused.
 */
export async function toHistoryResult(
  output: string | ToolOutput,
  store: BlobStore | undefined,
  options?: HistoryResultOptions,
): Promise<HistoryResult> {
  if (store === undefined) {
    const text =
      typeof output === "string"
        ? output
        : output.kind === "inline"
          ? output.text
          : contentText(output.content);
    return inlineResult(text, typeof output === "string" ? undefined : summaryOf(output));
  }
  const promoted = promote(output, options);
  if (promoted.kind === "inline") return inlineResult(promoted.text, promoted.summary);

  let id: BlobId;
  try {
    id = await store.store(promoted.content);
  } catch (error) {
    const storeError =
      error instanceof BlobStoreError
        ? error
        : new BlobStoreError(
            "io",
            `could not store blob: ${error instanceof Error ? error.message : String(error)}`,
            {
              cause: error,
            },
          );
    return { ...inlineResult(contentText(promoted.content)), storeError };
  }
  const limit = options?.summaryLimitBytes ?? SUMMARY_LIMIT_BYTES;
  const content =
    promoted.summary === undefined
      ? summarize(id, promoted.content, limit, options)
      : withBlobPointer(id, promoted.summary, limit);
  return { content, summary: firstLineOf(content), blobId: id };
}

/**
 * `N lines | <first non-blank line, cut…>`: enough to recall what the result was once prune has
 * dropped it. An empty result is `0 lines`.
 */
export function inlineSummary(text: string): string {
  const lines = countLines(text);
  const first = firstNonBlankLine(text);
  return first === undefined ? `${lines} lines` : `${lines} lines | ${cutToBytes(first, FIRST_LINE_BYTES)}`;
}

/** An inline result's own summary (one line, at most the summary limit), else `inlineSummary`. */
function inlineResult(text: string, summary?: string): HistoryResult {
  const own = summary === undefined ? undefined : cutToBytes(firstLineOf(summary), SUMMARY_LIMIT_BYTES);
  return { content: text, summary: own ?? inlineSummary(text) };
}

function summaryOf(output: ToolOutput): string | undefined {
  return output.kind === "inline" ? output.summary : undefined;
}

function firstNonBlankLine(text: string): string | undefined {
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end).trim();
    if (line.length > 0) return line;
    if (newline === -1) break;
    start = newline + 1;
  }
  return undefined;
}
