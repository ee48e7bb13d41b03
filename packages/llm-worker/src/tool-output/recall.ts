import type { JsonValue } from "../tool/tool-output.js";
import type { BlobId, BlobStore } from "./blob-store.js";
import { type ContentView, viewOf } from "./content-view.js";
import { containsName, nameIndex } from "./recall-terms.js";
import { cutToBytes, utf8Length } from "./utf8.js";

/**
 * Recall: the lines of the session's earlier outputs that name what a new user message names, so
 * the model sees them with the message instead of spending a round trip on `inspect` (or a tool
 * call) for a fact an earlier output held. The outputs are the stored ones and the inline ones
 * prune has taken out of the requests. Each hit is shown under what reads it again —
 * `[blob:<id>] <selector>` as an `inspect` answer is, or the call that made an inline output:
 *
 * ```text
 * [recall] earlier tool outputs naming MAX_INFLIGHT_LEASES, 3172 (inspect a blob to read more):
 * [blob:<id>] lines:611-613
 * 611- <line before>
 * 612: export const MAX_INFLIGHT_LEASES = 4711;
 * 613- <line after>
 * [blob:<id>] slice:3172..3173
 *   {"id":3172,…}
 * [read_file {"path":"src/net/socket.ts"}] lines:17-19
 * 17- …
 * ```
 *
 * Reference lines start with `[`; JSON entries and values are indented, so a recall's references
 * can be read back from its text (`recallReferences`).
 */

export interface RecallOptions {
  /** Largest recall text, in UTF-8 bytes (default 2,048: about 500 tokens). */
  maxBytes?: number;
  /** Hits shown per term (default 3). */
  hitsPerTerm?: number;
  /** A term with more hits than this names no one thing: it is left out (default 12). */
  maxHitsPerTerm?: number;
}

/** What a recall found: the text to show, and the selectors it shows (its short form). */
export interface Recall {
  text: string;
  /** `[blob:<id>] <selector>` of every hit shown, in order. */
  references: string[];
}

export const RECALL_MARKER = "[recall]";

const DEFAULTS = { maxBytes: 2_048, hitsPerTerm: 3, maxHitsPerTerm: 12 };
/** A shown line or entry longer than this is cut: a minified line must not take the budget. */
const LINE_BYTES = 240;

interface Hit {
  reference: string;
  lines: string[];
}

/**
 * Where recall looks: one earlier output. `label` is what reads it again, before the selector
 * (`blob:<id>` for `inspect`; for an inline output, the call that made it).
 */
export interface RecallSource {
  label: string;
  view: ContentView;
}

/**
 * The sources of the blobs `blobIds` (newest last), newest first. A blob that cannot be loaded is
 * skipped: recall is a convenience, and `inspect` reports the failure if the model asks for it.
 */
export async function blobSources(store: BlobStore, blobIds: readonly BlobId[]): Promise<RecallSource[]> {
  const sources: RecallSource[] = [];
  for (const id of [...blobIds].reverse()) {
    try {
      sources.push({ label: `blob:${id}`, view: viewOf(await store.load(id)) });
    } catch {
      // See above: skipped.
    }
  }
  return sources;
}

/**
 * The recall of `terms` over `sources` (searched in their order: newest first), or undefined when
 * no term names anything in them.
 */
export function recallFrom(
  sources: readonly RecallSource[],
  terms: readonly string[],
  options: RecallOptions = {},
): Recall | undefined {
  const { maxBytes, hitsPerTerm, maxHitsPerTerm } = { ...DEFAULTS, ...options };
  const shown: (Hit & { term: string })[] = [];
  for (const term of terms) {
    const hits: Hit[] = [];
    for (const source of sources) {
      hitsIn(source, term, hits, maxHitsPerTerm + 1);
      if (hits.length > maxHitsPerTerm) break;
    }
    if (hits.length > maxHitsPerTerm) continue;
    const fresh = hits.filter((hit) => !shown.some((s) => s.reference === hit.reference));
    shown.push(...fresh.slice(0, hitsPerTerm).map((hit) => ({ ...hit, term })));
  }
  // The header names every term shown; counted at its longest, with every term found.
  const headerOf = (names: readonly string[]) =>
    `${RECALL_MARKER} earlier tool outputs naming ${names.join(", ")} (inspect a blob to read more):`;
  let used = utf8Length(headerOf([...new Set(shown.map((hit) => hit.term))]));
  const kept: typeof shown = [];
  for (const hit of shown) {
    const bytes = [hit.reference, ...hit.lines].reduce((sum, line) => sum + utf8Length(line) + 1, 0);
    if (used + bytes > maxBytes) continue;
    kept.push(hit);
    used += bytes;
  }
  if (kept.length === 0) return undefined;
  const header = headerOf([...new Set(kept.map((hit) => hit.term))]);
  return {
    text: [header, ...kept.flatMap((hit) => [hit.reference, ...hit.lines])].join("\n"),
    references: kept.map((hit) => hit.reference),
  };
}

/** The short form of a recall, once its lines have served: what reads them again. */
export function recallReferences(references: readonly string[]): string {
  return `${RECALL_MARKER} shown earlier: ${references.join(", ")}`;
}

/** The references of a recall's text (its lines that start with `[`, after the header). */
export function referencesOf(recallText: string): string[] {
  return recallText
    .split("\n")
    .slice(1)
    .filter((line) => line.startsWith("["));
}

/** Adds the hits of `term` in one source to `hits`, stopping at `limit` hits in all. */
function hitsIn({ label, view }: RecallSource, term: string, hits: Hit[], limit: number): void {
  switch (view.kind) {
    case "text":
      textHits(label, view.text, term, hits, limit);
      return;
    case "array":
      view.entries.forEach((entry, index) => {
        if (hits.length >= limit) return;
        const json = JSON.stringify(entry);
        if (containsName(json, term))
          hits.push({ reference: `[${label}] slice:${index}..${index + 1}`, lines: [`  ${cut(json)}`] });
      });
      return;
    case "object":
      for (const [key, value] of Object.entries(view.value)) {
        if (hits.length >= limit) return;
        const json = JSON.stringify(value as JsonValue);
        if (containsName(key, term) || containsName(json, term))
          hits.push({ reference: `[${label}] key:${key}`, lines: [`  ${cut(json)}`] });
      }
  }
}

/** Each line naming `term`, with a line of context either side, numbered as grep numbers them. */
function textHits(label: string, text: string, term: string, hits: Hit[], limit: number): void {
  let lines: string[] | undefined;
  let lineStarts: number[] | undefined;
  for (let at = nameIndex(text, term, 0); at !== -1 && hits.length < limit; ) {
    lines ??= text.split("\n");
    lineStarts ??= startsOf(lines);
    const line = lineAt(lineStarts, at);
    const from = Math.max(0, line - 1);
    const to = Math.min(lines.length - 1, line + 1);
    const shown: string[] = [];
    for (let i = from; i <= to; i++) shown.push(`${i + 1}${i === line ? ":" : "-"} ${cut(lines[i] ?? "")}`);
    hits.push({ reference: `[${label}] lines:${from + 1}-${to + 1}`, lines: shown });
    // The next hit on a later line.
    const next = lineStarts[line + 1];
    if (next === undefined) break;
    at = nameIndex(text, term, next);
  }
}

function startsOf(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return starts;
}

/** The index of the line holding character `offset` (binary search over the line starts). */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

function cut(line: string): string {
  return cutToBytes(line.endsWith("\r") ? line.slice(0, -1) : line, LINE_BYTES);
}
