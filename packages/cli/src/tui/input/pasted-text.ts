/** A long paste, shown in the input box as its label and sent as its text. */
export interface CollapsedPaste {
  /** `[pasted 12 lines]` (`#2` added when another paste has the same label). */
  readonly label: string;
  readonly text: string;
}

/** Pastes of more lines than this show as a label in the box: the box stays readable. */
export const COLLAPSE_PASTE_LINES = 5;

/** The label for `text` if it is long enough to collapse, unique among `earlier`. */
export function collapsedPaste(text: string, earlier: readonly CollapsedPaste[]): CollapsedPaste | undefined {
  const lines = text.replace(/\n$/, "").split("\n").length;
  if (lines <= COLLAPSE_PASTE_LINES) return undefined;
  const base = `[pasted ${lines} lines`;
  let label = `${base}]`;
  for (let n = 2; earlier.some((paste) => paste.label === label); n++) label = `${base} #${n}]`;
  return { label, text };
}

/** What the box holds as it is sent: each label still there (whole) becomes its text again. */
export function expandPastes(text: string, pastes: readonly CollapsedPaste[]): string {
  let expanded = text;
  for (const paste of pastes) expanded = expanded.split(paste.label).join(paste.text);
  return expanded;
}
