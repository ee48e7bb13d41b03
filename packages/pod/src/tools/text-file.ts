import { isUtf8 } from "node:buffer";

/**
 * Whether a file's bytes are not text the tools can show: a NUL byte anywhere (git's and
 * ripgrep's sign of a binary file) or anything that is not valid UTF-8 (the FileRef resolver's
 * rule). Both checks are native scans.
 */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0) || !isUtf8(bytes);
}

/** Lines in `text`, as editors count them: a final line without a newline counts, an empty file has none. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines += 1;
  return text.endsWith("\n") ? lines : lines + 1;
}

/** Whether the file's first line break is CRLF: edits then write CRLF where the model wrote LF. */
export function usesCrlf(text: string): boolean {
  const newline = text.indexOf("\n");
  return newline > 0 && text.charCodeAt(newline - 1) === CARRIAGE_RETURN;
}

const CARRIAGE_RETURN = 13;

/** `line` without the carriage return a CRLF file leaves at its end. */
export function withoutCr(line: string): string {
  return line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.slice(0, -1) : line;
}

/**
 * `line` cut to at most `maxChars` UTF-16 units (never inside a surrogate pair), with a marker
 * that says how much was left out.
 */
export function cutLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  let end = maxChars;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${line.slice(0, end)}… [line cut: ${line.length - end} more characters]`;
}

/** "1 line" / "3 lines": results read better without "(s)". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A size as a description shows it: `16 KiB`, `10 MiB`, or bytes when not a round number of either. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return plural(bytes, "byte");
}

const KIB = 1024;
const MIB = 1024 * 1024;
