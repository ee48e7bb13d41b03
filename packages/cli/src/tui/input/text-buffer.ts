/**
 * The input box's text and cursor, edited by pure functions so every key can be tested without a
 * terminal. `cursor` is a UTF-16 offset into `text` that never splits a surrogate pair.
 */
export interface TextBuffer {
  readonly text: string;
  readonly cursor: number;
}

export const emptyBuffer: TextBuffer = { text: "", cursor: 0 };

export function bufferOf(text: string, cursor = text.length): TextBuffer {
  return { text, cursor: Math.max(0, Math.min(cursor, text.length)) };
}

export function insertText(buffer: TextBuffer, inserted: string): TextBuffer {
  const { text, cursor } = buffer;
  return { text: text.slice(0, cursor) + inserted + text.slice(cursor), cursor: cursor + inserted.length };
}

export function deleteBackward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  const from = previousCharStart(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, from) + buffer.text.slice(buffer.cursor), cursor: from };
}

export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === buffer.text.length) return buffer;
  const to = nextCharEnd(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(to), cursor: buffer.cursor };
}

export function moveLeft(buffer: TextBuffer): TextBuffer {
  return buffer.cursor === 0 ? buffer : { ...buffer, cursor: previousCharStart(buffer.text, buffer.cursor) };
}

export function moveRight(buffer: TextBuffer): TextBuffer {
  return buffer.cursor === buffer.text.length
    ? buffer
    : { ...buffer, cursor: nextCharEnd(buffer.text, buffer.cursor) };
}

export function moveToLineStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineStartOf(buffer.text, buffer.cursor) };
}

export function moveToLineEnd(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineEndOf(buffer.text, buffer.cursor) };
}

/** Up one line, keeping the column where the line is long enough; unchanged on the first line. */
export function moveUp(buffer: TextBuffer): TextBuffer {
  const start = lineStartOf(buffer.text, buffer.cursor);
  if (start === 0) return buffer;
  const previousStart = lineStartOf(buffer.text, start - 1);
  const column = buffer.cursor - start;
  return { ...buffer, cursor: clampToChar(buffer.text, Math.min(previousStart + column, start - 1)) };
}

/** Down one line, keeping the column where the line is long enough; unchanged on the last line. */
export function moveDown(buffer: TextBuffer): TextBuffer {
  const end = lineEndOf(buffer.text, buffer.cursor);
  if (end === buffer.text.length) return buffer;
  const column = buffer.cursor - lineStartOf(buffer.text, buffer.cursor);
  const nextEnd = lineEndOf(buffer.text, end + 1);
  return { ...buffer, cursor: clampToChar(buffer.text, Math.min(end + 1 + column, nextEnd)) };
}

/** Ctrl+W: the word before the cursor, and the spaces between it and the cursor. */
export function deleteWordBackward(buffer: TextBuffer): TextBuffer {
  const { text, cursor } = buffer;
  let from = cursor;
  while (from > 0 && isSpace(text[from - 1] as string)) from--;
  while (from > 0 && !isSpace(text[from - 1] as string)) from--;
  return { text: text.slice(0, from) + text.slice(cursor), cursor: from };
}

/** Ctrl+U: from the start of the line to the cursor. */
export function deleteToLineStart(buffer: TextBuffer): TextBuffer {
  const from = lineStartOf(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, from) + buffer.text.slice(buffer.cursor), cursor: from };
}

/** Ctrl+K: from the cursor to the end of the line (the newline itself when at the end). */
export function deleteToLineEnd(buffer: TextBuffer): TextBuffer {
  const end = lineEndOf(buffer.text, buffer.cursor);
  const to = end === buffer.cursor && end < buffer.text.length ? end + 1 : end;
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(to), cursor: buffer.cursor };
}

export function isOnFirstLine(buffer: TextBuffer): boolean {
  return lineStartOf(buffer.text, buffer.cursor) === 0;
}

export function isOnLastLine(buffer: TextBuffer): boolean {
  return lineEndOf(buffer.text, buffer.cursor) === buffer.text.length;
}

function lineStartOf(text: string, cursor: number): number {
  return text.lastIndexOf("\n", cursor - 1) + 1;
}

function lineEndOf(text: string, cursor: number): number {
  const end = text.indexOf("\n", cursor);
  return end === -1 ? text.length : end;
}

function isSpace(char: string): boolean {
  return char === " " || char === "\n" || char === "\t";
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

function previousCharStart(text: string, cursor: number): number {
  return cursor >= 2 && isLowSurrogate(text.charCodeAt(cursor - 1)) ? cursor - 2 : cursor - 1;
}

function nextCharEnd(text: string, cursor: number): number {
  return isLowSurrogate(text.charCodeAt(cursor + 1)) ? cursor + 2 : cursor + 1;
}

/** A column carried to another line may land inside a surrogate pair: step back onto its start. */
function clampToChar(text: string, cursor: number): number {
  return cursor > 0 && isLowSurrogate(text.charCodeAt(cursor)) ? cursor - 1 : cursor;
}
