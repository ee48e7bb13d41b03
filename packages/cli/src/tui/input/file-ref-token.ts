import type { TextBuffer } from "./text-buffer.js";

/** The `@` token being written at the cursor: what the file picker completes. */
export interface FileRefQuery {
  /** Offset of the `@`. */
  start: number;
  /** Offset just past the token (it may go on after the cursor). */
  end: number;
  /** What follows the `@` up to the cursor: the picker's filter. */
  query: string;
}

/** Characters after which an `@` starts a reference, as `parseSegments` decides. */
const OPENERS = new Set(["(", "[", "{", '"', "'"]);
/** Characters a path may not end with unquoted: `parseSegments` would cut them off as punctuation. */
const TRAILING_PUNCTUATION = new Set([".", ",", ";", ":", "!", "?", ")", "]", "}", '"', "'"]);

const isSpace = (char: string | undefined): boolean =>
  char === " " || char === "\n" || char === "\t" || char === "\r";

/**
 * The reference the cursor is in, if any: an `@` where `parseSegments` would start one (at the
 * start or after whitespace or an opening bracket or quote; `@@` is a literal), with no
 * whitespace between it and the cursor. An already quoted reference (`@"a b.md"`) is complete.
 */
export function fileRefQueryAt(buffer: TextBuffer): FileRefQuery | undefined {
  const { text, cursor } = buffer;
  let start = cursor;
  while (start > 0 && !isSpace(text[start - 1])) start--;
  // The word may begin with an opener: `(@src/a.ts`.
  while (start < cursor && OPENERS.has(text[start] as string) && text[start] !== "@") start++;
  if (text[start] !== "@" || text[start + 1] === "@") return undefined;
  if (start > 0 && text[start - 1] === "@") return undefined;
  if (text[start + 1] === '"') return undefined;
  let end = cursor;
  while (end < text.length && !isSpace(text[end])) end++;
  return { start, end, query: text.slice(start + 1, cursor) };
}

/** How a path is written after `@` so that `parseSegments` reads it back whole. */
export function fileRefToken(path: string): string {
  const needsQuotes =
    /\s/.test(path) || TRAILING_PUNCTUATION.has(path[path.length - 1] as string) || path.startsWith("@");
  return needsQuotes ? `@"${path}"` : `@${path}`;
}

/** Replaces the token with a reference to `path` and a space, the cursor after it. */
export function completeFileRef(buffer: TextBuffer, query: FileRefQuery, path: string): TextBuffer {
  const inserted = `${fileRefToken(path)} `;
  const rest = buffer.text.slice(query.end);
  // The space is already there when the token was followed by one.
  const text =
    buffer.text.slice(0, query.start) + (rest.startsWith(" ") ? inserted.slice(0, -1) : inserted) + rest;
  return { text, cursor: query.start + inserted.length };
}
