import { BoundedOutput, type OutputLimits } from "./bounded-output.js";
import { countLines, linesBetween } from "./lines.js";
import { byteSpan, CUT_MARKER, CUT_MARKER_BYTES, utf8Length, utf8PrefixEnd } from "./utf8.js";

/** Lines the overview of a text blob shows. */
const OVERVIEW_LINES = 50;

interface LineRange {
  /** 1-based, inclusive, within the text. */
  from: number;
  to: number;
  /** Lines in the whole text. */
  total: number;
  /** The end a "read on" selector names: what was asked for (undefined: open). */
  resumeTo: number | undefined;
}

/**
 * Writes lines `from` to `to` numbered like `cat -n`, and returns the notice to close with when
 * not all of them fit. A first line that alone is too long is cut, and the notice gives the
 * `bytes:` range that continues it.
 */
function writeLines(
  out: BoundedOutput,
  text: string,
  { from, to, total, resumeTo }: LineRange,
  limits: OutputLimits,
): string | undefined {
  const readOn = (line: number) =>
    `[showed lines ${from}-${line - 1} of ${total}; read on with lines:${line}-${resumeTo ?? ""}]`;
  const width = String(to).length;
  // Never more lines than could be shown: `lines:1-` on a huge text must not split all of it.
  const lines = linesBetween(text, from - 1, Math.min(to, from - 1 + limits.maxLines));
  let number = from;
  for (const line of lines) {
    const prefix = `${String(number).padStart(width)}\t`;
    if (out.tryAdd(prefix + line.text)) {
      number++;
      continue;
    }
    if (number > from) return readOn(number);
    const shownEnd = utf8PrefixEnd(line.text, out.room - utf8Length(prefix) - CUT_MARKER_BYTES);
    const shown = line.text.slice(0, Math.max(0, shownEnd));
    out.tryAdd(prefix + shown + CUT_MARKER);
    const next = utf8Length(text.slice(0, line.index)) + utf8Length(shown);
    const after = number < to ? `, or skip it with lines:${number + 1}-${resumeTo ?? ""}` : "";
    return `[line ${number} is ${utf8Length(line.text)} bytes and was cut; read on with bytes:${next}..${next + limits.maxBytes}${after}]`;
  }
  return number <= to ? readOn(number) : undefined;
}

/** `inspect(id)` on text: size, then the first lines. */
export function textOverview(id: string, text: string, limits: OutputLimits): string {
  const total = countLines(text);
  const out = new BoundedOutput(limits);
  out.tryAdd(`[blob:${id}] text | ${total} lines | ${utf8Length(text)} bytes`);
  if (total === 0) return out.finish();
  const last = Math.min(total, OVERVIEW_LINES);
  out.tryAdd(`── lines 1-${last} of ${total} ──`);
  const notice = writeLines(out, text, { from: 1, to: last, total, resumeTo: undefined }, limits);
  if (notice !== undefined || last === total) return out.finish(notice);
  return out.finish(`[${total - last} more lines; read on with lines:${last + 1}-]`);
}

/** `inspect(id, "lines:A-B")`. */
export function textLines(text: string, from: number, to: number | undefined, limits: OutputLimits): string {
  const total = countLines(text);
  if (from > total) throw new Error(`the blob has ${total} lines; lines:${from}- starts past its end`);
  const last = Math.min(to ?? total, total);
  const out = new BoundedOutput(limits);
  out.tryAdd(`── lines ${from}-${last} of ${total} ──`);
  return out.finish(writeLines(out, text, { from, to: last, total, resumeTo: to }, limits));
}

/** `inspect(id, "bytes:A..B")`: raw text, moved to whole characters at both ends. */
export function textBytes(text: string, from: number, to: number | undefined, limits: OutputLimits): string {
  const total = utf8Length(text);
  if (from >= total && total > 0)
    throw new Error(`the blob has ${total} bytes; bytes:${from}.. starts past its end`);
  const out = new BoundedOutput(limits);
  const wanted = Math.min(to ?? total, total);
  const header = (a: number, b: number) => `── bytes ${a}..${b} of ${total} ──`;
  // Room for the header is measured with the widest numbers it can hold.
  const room = Math.max(0, limits.maxBytes - utf8Length(header(total, total)) - 1);
  const capped = from + room < wanted;
  const span = byteSpan(text, from, capped ? from + room : wanted);
  out.tryAdd(header(span.fromByte, span.toByte));
  out.addRaw(text.slice(span.start, span.end));
  // Short of `wanted` only by a character the end fell inside: that is all there was to show.
  if (!capped) return out.finish();
  const end = to === undefined ? "" : String(to);
  return out.finish(
    `[showed bytes ${span.fromByte}..${span.toByte} of ${total}; read on with bytes:${span.toByte}..${end}]`,
  );
}
