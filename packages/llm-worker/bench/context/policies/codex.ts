/**
 * Codex CLI's rule for tool output sent to the model (codex-rs `format_exec_output_str`): output
 * within 10 KiB and 256 lines is kept; anything larger keeps its first 128 lines (at most 5 KiB),
 * a marker `[... omitted N of M lines ...]`, and its last 128 lines (within what is left of the
 * 10 KiB). The middle is gone; nothing is saved anywhere. Written from the published behaviour.
 */
import type { OutputRule } from "../tools.js";

export const CODEX_MAX_BYTES = 10 * 1024;
export const CODEX_MAX_LINES = 256;
const HEAD_LINES = CODEX_MAX_LINES / 2;
const TAIL_LINES = CODEX_MAX_LINES - HEAD_LINES;
const HEAD_BYTES = CODEX_MAX_BYTES / 2;

/** Lines as Rust's `str::lines` gives them: no final empty line, `\r` before `\n` dropped. */
function rustLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, cut at a character boundary. */
function headBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` within `maxBytes` UTF-8 bytes, cut at a character boundary. */
function tailBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf8");
}

export function codexTruncate(text: string): string {
  const lines = rustLines(text);
  if (Buffer.byteLength(text, "utf8") <= CODEX_MAX_BYTES && lines.length <= CODEX_MAX_LINES) return text;
  const headTake = Math.min(HEAD_LINES, lines.length);
  const tailTake = Math.min(TAIL_LINES, lines.length - headTake);
  const omitted = lines.length - headTake - tailTake;
  const head = lines.slice(0, headTake).join("\n");
  const tail = tailTake > 0 ? lines.slice(lines.length - tailTake).join("\n") : "";
  const marker = `\n[... omitted ${omitted} of ${lines.length} lines ...]\n\n`;
  const markerBytes = Buffer.byteLength(marker, "utf8");
  let headBudget = HEAD_BYTES;
  // A marker too long to leave room for a tail (never with these limits) shrinks the head instead.
  if (Math.max(0, CODEX_MAX_BYTES - headBudget - markerBytes) === 0) {
    if (markerBytes >= CODEX_MAX_BYTES) return headBytes(marker, CODEX_MAX_BYTES);
    headBudget = CODEX_MAX_BYTES - markerBytes;
  }
  const result = headBytes(head, headBudget) + marker;
  const remaining = Math.max(0, CODEX_MAX_BYTES - Buffer.byteLength(result, "utf8"));
  return result + tailBytes(tail, remaining);
}

export const codexRule: OutputRule = (output) => codexTruncate(output);
