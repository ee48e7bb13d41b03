/** How many submitted inputs Up can bring back. */
export const INPUT_HISTORY_LIMIT = 500;

/**
 * Submitted inputs for Up / Down, like a shell's: `position` is an index into `entries`, or
 * `entries.length` for the input being written, which is kept in `draft` while browsing.
 */
export interface InputHistory {
  readonly entries: readonly string[];
  readonly position: number;
  readonly draft: string;
}

export function inputHistoryOf(entries: readonly string[] = []): InputHistory {
  const kept = entries.slice(-INPUT_HISTORY_LIMIT);
  return { entries: kept, position: kept.length, draft: "" };
}

/** After a submit: the input joins the end (not twice in a row, not when blank); browsing restarts. */
export function recordInput(history: InputHistory, text: string): InputHistory {
  const last = history.entries[history.entries.length - 1];
  const entries =
    text.trim() === "" || text === last
      ? history.entries
      : [...history.entries, text].slice(-INPUT_HISTORY_LIMIT);
  return { entries, position: entries.length, draft: "" };
}

/** Up: the entry before, keeping what was being written; undefined at the oldest. */
export function previousInput(
  history: InputHistory,
  current: string,
): { history: InputHistory; text: string } | undefined {
  if (history.position === 0) return undefined;
  const draft = history.position === history.entries.length ? current : history.draft;
  const position = history.position - 1;
  return { history: { ...history, position, draft }, text: history.entries[position] as string };
}

/** Down: the entry after, or back to what was being written; undefined when already there. */
export function nextInput(history: InputHistory): { history: InputHistory; text: string } | undefined {
  if (history.position >= history.entries.length) return undefined;
  const position = history.position + 1;
  const text = position === history.entries.length ? history.draft : (history.entries[position] as string);
  return { history: { ...history, position }, text };
}
