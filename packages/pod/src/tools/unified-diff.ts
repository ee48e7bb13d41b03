import { onFirstUse } from "../lazy-dependency.js";
import { DIFF_CONTEXT_LINES, DIFF_TIMEOUT_MS } from "./limits.js";

/**
 * The unified diff of one file's change, `--- a/<path>` / `+++ b/<path>` and hunks with three
 * lines of context, CRs of CRLF files left out so the diff reads the same whatever the line
 * endings. Empty when nothing changed; a notice instead when the diff takes too long to compute.
 *
 * An edit touches a small part of a file: the common head and tail are cut off first (one scan),
 * and only the changed window, with its context, goes through the line diff. A one-line edit of a
 * 10 MB file thus costs a scan, not a diff of the whole file.
 */
export function unifiedDiff(displayPath: string, before: string, after: string): string {
  if (before === after) return "";
  const { FILE_HEADERS_ONLY, formatPatch, structuredPatch } = diffLibrary();
  const window = changedWindow(before, after, DIFF_CONTEXT_LINES);
  const patch = structuredPatch(
    "",
    "",
    before.slice(window.start, window.beforeEnd),
    after.slice(window.start, window.afterEnd),
    undefined,
    undefined,
    { context: DIFF_CONTEXT_LINES, stripTrailingCr: true, timeout: DIFF_TIMEOUT_MS },
  );
  if (patch === undefined) return "[diff not shown: it took too long to compute]";
  for (const hunk of patch.hunks) {
    hunk.oldStart += window.linesBefore;
    hunk.newStart += window.linesBefore;
  }
  const relative = !displayPath.startsWith("/");
  patch.oldFileName = relative ? `a/${displayPath}` : displayPath;
  patch.newFileName = relative ? `b/${displayPath}` : displayPath;
  const text = formatPatch(patch, FILE_HEADERS_ONLY);
  // Only the final newline goes: a context line of an empty line is a lone space.
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

type DiffLibrary = typeof import("diff");

// `diff` is 19 modules; a run that never changes a file (a `-p` question) never loads them.
const diffLibrary = onFirstUse<DiffLibrary>("diff");

interface ChangedWindow {
  /** Where the window starts, the same in both texts (they agree up to there): a line start. */
  start: number;
  beforeEnd: number;
  afterEnd: number;
  /** Whole lines before `start`, to shift the hunks' line numbers by. */
  linesBefore: number;
}

/**
 * The part of the two texts that differs, widened to whole lines plus `context` lines on each
 * side. Outside it both texts are identical, so their diff is the diff of the window.
 */
function changedWindow(before: string, after: string, context: number): ChangedWindow {
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head += 1;
  let beforeTail = before.length;
  let afterTail = after.length;
  while (
    beforeTail > head &&
    afterTail > head &&
    before.charCodeAt(beforeTail - 1) === after.charCodeAt(afterTail - 1)
  ) {
    beforeTail -= 1;
    afterTail -= 1;
  }

  // Back to the start of the line the first difference is on, then `context` lines more.
  let start = head === 0 ? 0 : before.lastIndexOf("\n", head - 1) + 1;
  for (let line = 0; line < context && start > 0; line += 1) {
    // `start - 1` is the newline that ends the line above; the one before it starts that line.
    start = start < 2 ? 0 : before.lastIndexOf("\n", start - 2) + 1;
  }

  // Forward to the end of the line the last difference is on (within the common tail, so the same
  // in both texts), then `context` lines more.
  let end = beforeTail;
  for (let line = 0; line <= context && end < before.length; line += 1) {
    const newline = before.indexOf("\n", end);
    end = newline === -1 ? before.length : newline + 1;
  }
  const tailLength = before.length - end;

  let linesBefore = 0;
  for (let at = before.indexOf("\n"); at !== -1 && at < start; at = before.indexOf("\n", at + 1)) {
    linesBefore += 1;
  }
  return { start, beforeEnd: end, afterEnd: after.length - tailLength, linesBefore };
}
