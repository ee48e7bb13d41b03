import { blockBytes, fitLines } from "./fit-lines.js";
import { RULE } from "./limits.js";
import { cutToBytes, utf8Prefix } from "./utf8.js";

/**
 * A text summary for a call that asked for something (a `pattern`, a `query`): the lines that
 * match it are what the model called for, and the seed's head and tail rarely hold them. So the
 * summary gives most of its bytes to the matching lines and the lines around them, numbered as
 * grep numbers them (`12: ` a match, `11- ` context), and keeps a short head and tail:
 *
 * ```text
 * [blob:<id>] text | N lines | M lines match "<query>"
 * ── head ──
 * <first 2 lines>
 * ── matches ──
 * <line number>: <matching line>, with a line of context either side while there is room
 * ── tail ──
 * <last line>
 * ```
 *
 * A deviation from seed 000's text format, made only when the call carried a query and some line
 * outside the head and tail matches it; otherwise the seed's format is used.
 */

/** Call arguments that name what the call looks for, in the order they are preferred. */
const QUERY_KEYS = ["query", "pattern", "regex", "grep", "search", "filter", "match", "q"];

/** The longest query the summary names in its header. */
const QUERY_SHOWN_BYTES = 40;
/** A shown line longer than this is cut: a minified line must not take the whole budget. */
const LINE_BYTES = 160;
const HEAD_LINES = 2;
const TAIL_LINES = 1;
/** Matches after this many are counted but not looked at. */
const MATCHES_KEPT = 500;
/** Shorter terms match too much to be worth showing. */
const MIN_TERM_LENGTH = 2;

/**
 * What a call's JSON arguments ask for: the first non-empty string under one of the usual names
 * (`query`, `pattern`, …). Undefined when the arguments are not an object or carry none.
 */
export function queryOfArguments(args: unknown): string | undefined {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of QUERY_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/**
 * The literal terms of a query, lower-cased. A query is often a regular expression; running the
 * model's regex over megabytes of output could take forever, so it is read as literals instead:
 * `|` separates alternatives and a backslash escape stands for the character it escapes.
 */
export function queryTerms(query: string): string[] {
  return query
    .split("|")
    .map((term) => term.replace(/\\(.)/g, "$1").trim().toLowerCase())
    .filter((term) => term.length >= MIN_TERM_LENGTH);
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/**
 * The query-aware summary of `text`, or undefined when the seed's format should be used (no
 * usable term, or no match outside the head and tail). At most `limit` UTF-8 bytes.
 */
export function summarizeTextForQuery(
  id: string,
  text: string,
  query: string,
  limit: number,
): string | undefined {
  const terms = queryTerms(query);
  if (terms.length === 0) return undefined;
  const lines = splitLines(text);
  const total = lines.length;
  const head = lines.slice(0, Math.min(HEAD_LINES, total));
  const tailFrom = Math.max(head.length, total - TAIL_LINES);
  const tail = lines.slice(tailFrom);

  let count = 0;
  const matches: number[] = [];
  lines.forEach((line, index) => {
    const lower = line.toLowerCase();
    if (!terms.some((term) => lower.includes(term))) return;
    count++;
    if (index >= head.length && index < tailFrom && matches.length < MATCHES_KEPT) matches.push(index);
  });
  if (matches.length === 0) return undefined;

  const plural = count === 1 ? "line matches" : "lines match";
  const header = `[blob:${id}] text | ${total} lines | ${count} ${plural} "${cutToBytes(query, QUERY_SHOWN_BYTES)}"`;
  const frame = [header, RULE.head, "── matches ──", ...(tail.length > 0 ? [RULE.tail] : [])];
  const room = limit - blockBytes(frame);
  // Matches first: they are what the call asked for. Head and tail get what is left, at least a third.
  const shown = matchLines(
    lines,
    matches,
    new Set(matches),
    head.length,
    tailFrom,
    Math.floor((room * 2) / 3),
  );
  if (shown.length === 0) return undefined;
  const edges = [...head, ...tail].map((line) => cutToBytes(line, LINE_BYTES));
  const fitted = fitLines(edges, room - blockBytes(shown));
  const out = [header, RULE.head, ...fitted.slice(0, head.length), "── matches ──", ...shown];
  if (tail.length > 0) out.push(RULE.tail, ...fitted.slice(head.length));
  return utf8Prefix(out.join("\n"), limit);
}

/**
 * Numbered lines around the matches, in order, within `budget` bytes (each line's `\n` counted):
 * each match with the line before and after it while they fit, then the match alone, then stop.
 */
function matchLines(
  lines: readonly string[],
  matches: readonly number[],
  isMatch: ReadonlySet<number>,
  from: number,
  to: number,
  budget: number,
): string[] {
  const chosen = new Map<number, string>();
  const render = (index: number): string =>
    `${index + 1}${isMatch.has(index) ? ":" : "-"} ${cutToBytes(lines[index] ?? "", LINE_BYTES)}`;
  let used = 0;
  for (const match of matches) {
    const group = [match - 1, match, match + 1].filter((i) => i >= from && i < to && !chosen.has(i));
    if (group.length === 0) continue;
    const cost = (indices: readonly number[]) => blockBytes(indices.map(render));
    const fits = cost(group) + used <= budget ? group : cost([match]) + used <= budget ? [match] : [];
    if (fits.length === 0) break;
    for (const i of fits) chosen.set(i, render(i));
    used += cost(fits);
    if (fits.length === 1 && group.length > 1) break;
  }
  return [...chosen.entries()].sort(([a], [b]) => a - b).map(([, line]) => line);
}
