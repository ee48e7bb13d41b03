/**
 * Lines as the seed's Rust counts them (`str::lines`): split at `\n`, a `\r` before the `\n` is not
 * part of the line, and a final `\n` does not start another line ("a\n" is one line, "" is none).
 * Scans with `indexOf` instead of splitting, so a summary of a 100 000-line result does not
 * allocate 100 000 strings.
 */

/** A line and the string index where it starts in the text. */
export interface LineAt {
  text: string;
  index: number;
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}

/** Lines `from` (0-based) up to but not including `to`, fewer when the text ends first. */
export function linesBetween(text: string, from: number, to: number): LineAt[] {
  const out: LineAt[] = [];
  let start = 0;
  for (let line = 0; line < to && start < text.length; line++) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (line >= from) {
      const raw = text.slice(start, end);
      out.push({ text: newline === -1 ? raw : stripCarriageReturn(raw), index: start });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return out;
}

/** The first `count` lines. */
export function firstLines(text: string, count: number): string[] {
  return linesBetween(text, 0, count).map((line) => line.text);
}

/** The last `count` lines (all of them when the text has fewer). */
export function lastLines(text: string, count: number): string[] {
  const out: string[] = [];
  if (text.length === 0 || count <= 0) return out;
  const terminated = text.endsWith("\n");
  let end = terminated ? text.length - 1 : text.length;
  while (out.length < count) {
    const start = end === 0 ? -1 : text.lastIndexOf("\n", end - 1);
    const raw = text.slice(start + 1, end);
    // Only the very last line can lack its `\n`, and only then does its `\r` stay.
    out.push(out.length === 0 && !terminated ? raw : stripCarriageReturn(raw));
    if (start < 0) break;
    end = start;
  }
  return out.reverse();
}
