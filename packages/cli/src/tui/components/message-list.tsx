import { Box, Static } from "ink";
import { visibleRows } from "../input/visible-lines.js";
import type { Entry } from "../state/ui-state.js";
import { EntryView } from "./entry-view.js";

export interface MessageListProps {
  /** Final entries: printed once into the terminal's scrollback, never redrawn. */
  committed: readonly Entry[];
  /** Entries still changing, redrawn as events arrive. */
  live: readonly Entry[];
  showThinking: boolean;
  /** A new value prints the whole transcript again (after the screen was cleared on a resize). */
  printing?: number;
  /** Rows a streaming text may take, and the width it wraps at: only its latest lines show. */
  liveRows?: number;
  columns?: number;
}

/**
 * The transcript: what is final scrolls away as the terminal's own history; the rest stays live.
 * The live part stays shorter than the terminal: ink cannot redraw an area taller than the
 * screen, and once it has drawn one it loses a line of what is printed next.
 */
export function MessageList({
  committed,
  live,
  showThinking,
  printing,
  liveRows,
  columns,
}: MessageListProps) {
  return (
    <>
      <Static key={printing ?? 0} items={committed as Entry[]}>
        {(entry) => <EntryView key={entry.id} entry={entry} showThinking={showThinking} columns={columns} />}
      </Static>
      <Box flexDirection="column">
        {live.map((entry) => (
          <EntryView
            key={entry.id}
            entry={liveRows === undefined ? entry : latestRows(entry, liveRows, columns ?? 80)}
            showThinking={showThinking}
            columns={columns}
          />
        ))}
      </Box>
    </>
  );
}

/**
 * A streaming answer longer than `rows` shows its latest rows, counted as the terminal wraps them
 * (one long line is cut like many short ones); it is printed whole once final.
 */
export function latestRows(entry: Entry, rows: number, columns: number): Entry {
  if (entry.kind !== "assistant" || entry.done || entry.text === "") return entry;
  const shown = visibleRows(entry.text, entry.text.length - 1, Math.max(2, rows), columns);
  if (shown.hiddenAbove === 0) return entry;
  // Pieces of one line are joined again: the terminal wraps them where they were cut.
  const text = shown.rows.map((row, i) => (i > 0 && row.startsLine ? `\n${row.text}` : row.text)).join("");
  return { ...entry, text: `… ${shown.hiddenAbove} earlier line(s)\n${text}` };
}
