/** The terminal rows a line of the box takes at `width` columns. */
export function lineRows(line: string, width: number): number {
  return Math.max(1, Math.ceil([...line].length / Math.max(1, width)));
}

/** One terminal row of the input box: a piece of one line of the text, at most `width` wide. */
export interface BoxRow {
  /** Its place among all the rows of the text: a key that stays while the box scrolls. */
  index: number;
  /** The line of the text it belongs to. */
  line: number;
  /** Whether it starts that line (and so gets the prompt sign or the indent). */
  startsLine: boolean;
  text: string;
  /** Where the cursor is in `text`, when it is on this row. */
  cursor?: number;
}

/** The rows of the box on screen, and how many rows of the text are out of view above and below. */
export interface VisibleRows {
  rows: BoxRow[];
  hiddenAbove: number;
  hiddenBelow: number;
}

/**
 * The rows of `text` to draw in at most `maxRows` rows of `width` columns, the cursor's row always
 * among them. The text is cut into rows as the terminal wraps it, so that one long line (a long
 * pasted paragraph has no line break) is capped like many short ones. When not everything fits,
 * one of the rows is kept for the note saying what is out of view.
 */
export function visibleRows(text: string, cursor: number, maxRows: number, width: number): VisibleRows {
  const all = boxRows(text, cursor, Math.max(1, width));
  if (all.length <= maxRows) return { rows: all, hiddenAbove: 0, hiddenBelow: 0 };
  const room = Math.max(1, maxRows - 1);
  const cursorRow = Math.max(
    0,
    all.findIndex((row) => row.cursor !== undefined),
  );
  // Rows before the cursor first (where one has been typing), then after it.
  const start = Math.max(0, Math.min(cursorRow - room + 1, all.length - room));
  return { rows: all.slice(start, start + room), hiddenAbove: start, hiddenBelow: all.length - start - room };
}

function boxRows(text: string, cursor: number, width: number): BoxRow[] {
  const rows: BoxRow[] = [];
  let offset = 0;
  text.split("\n").forEach((line, index) => {
    const chars = [...line];
    const column =
      cursor >= offset && cursor <= offset + line.length ? [...line.slice(0, cursor - offset)].length : -1;
    // The cursor after a line that fills its last row takes a row of its own, as in the terminal.
    const count = Math.max(
      1,
      Math.ceil(chars.length / width),
      column >= 0 ? Math.floor(column / width) + 1 : 0,
    );
    for (let row = 0; row < count; row++) {
      const from = row * width;
      const inRow = column >= from && column < from + width;
      rows.push({
        index: rows.length,
        line: index,
        startsLine: row === 0,
        text: chars.slice(from, from + width).join(""),
        ...(inRow ? { cursor: column - from } : {}),
      });
    }
    offset += line.length + 1;
  });
  return rows;
}
