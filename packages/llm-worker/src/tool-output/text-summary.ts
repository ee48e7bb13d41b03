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
 *
 * Given more room than the seed's 400 bytes, the head and tail grow past 5 and 3 lines, in that
 * proportion, while their lines still fit whole: the room would otherwise go unused.
 */
export function summarizeText(id: string, text: string, limit = SUMMARY_LIMIT_BYTES): string {
  const total = countLines(text);
  const header = `[blob:${id}] text | ${total} lines`;
  if (total === 0) return utf8Prefix(header, limit);

  const [headCount, tailCount] =
    limit > SUMMARY_LIMIT_BYTES
      ? grownEdges(
          text,
          total,
          limit - utf8Length(header) - utf8Length(RULE.head) - utf8Length(RULE.tail) - 2,
        )
      : [SUMMARY_HEAD_LINES, SUMMARY_TAIL_LINES];
  const head = firstLines(text, headCount);
  const tail = lastLines(text, Math.min(tailCount, total - head.length));
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

/** Lines the grown head and tail look at, at most. */
const MAX_EDGE_LINES = 200;

/**
 * How many head and tail lines fit whole in `room` bytes: from the seed's 5 and 3, one more line
 * at a time, to the head while it has fewer than 5/3 of the tail's, else to the tail.
 */
function grownEdges(text: string, total: number, room: number): [number, number] {
  const head = firstLines(text, Math.min(total, MAX_EDGE_LINES));
  const tail = lastLines(text, Math.min(total, MAX_EDGE_LINES));
  let headCount = SUMMARY_HEAD_LINES;
  let tailCount = SUMMARY_TAIL_LINES;
  let used = 0;
  for (let i = 0; i < headCount && i < head.length; i++) used += utf8Length(head[i] ?? "") + 1;
  for (let i = 0; i < tailCount && i < tail.length; i++) used += utf8Length(tail.at(-1 - i) ?? "") + 1;
  while (headCount + tailCount < total) {
    const toHead = headCount * SUMMARY_TAIL_LINES <= tailCount * SUMMARY_HEAD_LINES;
    const line = toHead ? head[headCount] : tail.at(-1 - tailCount);
    if (line === undefined || used + utf8Length(line) + 1 > room) break;
    used += utf8Length(line) + 1;
    if (toHead) headCount++;
    else tailCount++;
  }
  return [headCount, tailCount];
}
