/** Which lines of the input box are on screen: `[start, end)`, and how many are hidden. */
export interface VisibleLines {
  start: number;
  end: number;
  hiddenAbove: number;
  hiddenBelow: number;
}

/**
 * The lines of `lines` to draw in at most `maxRows` terminal rows of `width` columns (a line
 * wider than that takes several rows), always with the cursor's line, and as many lines before
 * it as fit (where one has been typing), then after it.
 */
export function visibleLines(
  lines: readonly string[],
  cursorLine: number,
  maxRows: number,
  width: number,
): VisibleLines {
  const rowsOf = (line: string): number => lineRows(line, width);
  let start = cursorLine;
  let end = cursorLine + 1;
  let rows = rowsOf(lines[cursorLine] ?? "");
  while (start > 0 && rows + rowsOf(lines[start - 1] ?? "") <= maxRows) rows += rowsOf(lines[--start] ?? "");
  while (end < lines.length && rows + rowsOf(lines[end] ?? "") <= maxRows) rows += rowsOf(lines[end++] ?? "");
  return { start, end, hiddenAbove: start, hiddenBelow: lines.length - end };
}

/** The terminal rows a line of the box takes at `width` columns. */
export function lineRows(line: string, width: number): number {
  return Math.max(1, Math.ceil([...line].length / Math.max(1, width)));
}
