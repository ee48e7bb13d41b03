import { screenTextDeep } from "../../screen-text.js";

/** `950`, `12.3k`, `1.2M`: token counts at a glance. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** `0.4s`, `12s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

/** The first line, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max: number): string {
  const newline = text.indexOf("\n");
  const line = newline === -1 ? text : text.slice(0, newline);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** At most `max` lines; the rest counted. */
export function headLines(text: string, max: number): { lines: string[]; more: number } {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return { lines: lines.slice(0, max), more: Math.max(0, lines.length - max) };
}

/**
 * A value of tool arguments on one line: strings quoted, anything else as JSON; controls in it
 * shown as `screenText` shows them (`␛`, not JSON's `\u001b`), like everywhere on screen.
 */
export function argumentValue(value: unknown, max: number): string {
  const shown = screenTextDeep(value);
  const text = JSON.stringify(shown) ?? String(shown);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
