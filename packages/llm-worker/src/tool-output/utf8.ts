/**
 * UTF-8 byte arithmetic on JavaScript strings without encoding them: every limit of this layer is
 * counted in UTF-8 bytes (the seed's 800 / 400), and cuts must never split a character.
 */

/** The marker appended where text was cut. */
export const CUT_MARKER = "…";
export const CUT_MARKER_BYTES = 3;

/** Bytes the UTF-16 code unit at `index` starts (0 for the low half of a surrogate pair). */
function unitBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    // A paired high surrogate carries the whole 4-byte character; a lone one encodes as U+FFFD.
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 3;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(index - 1);
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/** The UTF-8 length of `text` (native: this runs on whole tool results). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The string index where the longest prefix of `text` that fits in `maxBytes` UTF-8 bytes ends.
 * Never inside a surrogate pair, so the prefix never ends with a broken character.
 */
export function utf8PrefixEnd(text: string, maxBytes: number): number {
  // Every code unit is at most 3 bytes (a pair is 4 for 2 units), so short strings fit outright.
  if (text.length * 3 <= maxBytes) return text.length;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const size = unitBytes(text, i);
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += size === 4 ? 2 : 1;
  }
  return i;
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const end = utf8PrefixEnd(text, maxBytes);
  return end === text.length ? text : text.slice(0, end);
}

/**
 * `text` if it fits in `maxBytes`, else its longest prefix that leaves room for `…`, followed by
 * `…`. The result is never longer than `maxBytes` (below 3 bytes there is no room even for the
 * marker, and the result is the bare prefix).
 */
export function cutToBytes(text: string, maxBytes: number): string {
  const end = utf8PrefixEnd(text, maxBytes);
  if (end === text.length) return text;
  if (maxBytes < CUT_MARKER_BYTES) return text.slice(0, end);
  return text.slice(0, utf8PrefixEnd(text, maxBytes - CUT_MARKER_BYTES)) + CUT_MARKER;
}

/**
 * The string indices of UTF-8 bytes `from` to `to` (end excluded) of `text`, and the byte offsets
 * they really fall on: a start inside a character moves forward past it, an end inside one moves
 * back before it, so the span never holds a broken character.
 */
export function byteSpan(
  text: string,
  from: number,
  to: number,
): { start: number; end: number; fromByte: number; toByte: number } {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < from) {
    const size = unitBytes(text, i);
    bytes += size;
    i += size === 4 ? 2 : 1;
  }
  const start = i;
  const fromByte = bytes;
  while (i < text.length) {
    const size = unitBytes(text, i);
    if (bytes + size > to) break;
    bytes += size;
    i += size === 4 ? 2 : 1;
  }
  return { start, end: i, fromByte, toByte: Math.max(bytes, fromByte) };
}
