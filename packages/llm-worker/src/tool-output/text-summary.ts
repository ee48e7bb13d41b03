import { fitLines } from "./fit-lines.js";
import { RULE, SUMMARY_HEAD_LINES, SUMMARY_LIMIT_BYTES, SUMMARY_TAIL_LINES } from "./limits.js";
import { countLines, firstLines, lastLines } from "./lines.js";
import { utf8Length, utf8Prefix } from "./utf8.js";

/**
 * The seed's text summary:
 *
 * ```text
 * [blob:<id>] text | N lines
 * ── head ──
 * <first 5 lines>
 * ── tail ──
 * <last 3 lines>
 * ```
 *
 * The tail never repeats a head line: a text of 6 to 8 lines shows only the lines after the head,
 * and one of at most 5 lines has no tail section. Lines too long for the budget are cut with `…`,
 * sharing the bytes fairly (see `fitLines`), so the whole is at most `limit` bytes.
 */
export function summarizeText(id: string, text: string, limit = SUMMARY_LIMIT_BYTES): string {
  const total = countLines(text);
  const header = `[blob:${id}] text | ${total} lines`;
  if (total === 0) return utf8Prefix(header, limit);

  const head = firstLines(text, SUMMARY_HEAD_LINES);
  const tail = lastLines(text, Math.min(SUMMARY_TAIL_LINES, total - head.length));
  const frame = tail.length > 0 ? [header, RULE.head, RULE.tail] : [header, RULE.head];
  const shown = head.length + tail.length;
  let frameBytes = frame.length + shown - 1; // the newlines between all output lines
  for (const line of frame) frameBytes += utf8Length(line);

  const fitted = fitLines([...head, ...tail], limit - frameBytes);
  const out = [header, RULE.head, ...fitted.slice(0, head.length)];
  if (tail.length > 0) out.push(RULE.tail, ...fitted.slice(head.length));
  // Only an id far longer than a UUID can overflow here; the limit still holds.
  return utf8Prefix(out.join("\n"), limit);
}
