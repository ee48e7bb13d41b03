import { escapeKey, type KeyPress, NO_KEY } from "./escape-keys.js";

/** What arrived on the terminal: key presses, or text the terminal marked as pasted. */
export type TerminalInput = { type: "key"; press: KeyPress } | { type: "paste"; text: string };

/** Sent by a terminal in bracketed paste mode around pasted text. */
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";
/** Asks the terminal to mark pasted text (and stop marking it). */
export const ENABLE_BRACKETED_PASTE = "\x1b[?2004h";
export const DISABLE_BRACKETED_PASTE = "\x1b[?2004l";

/**
 * Turns ink's raw input events into key presses and pastes. ink cuts what one read of stdin
 * returned at escape sequences only: a run of plain bytes (`hello\x7f\x7f\x15`, as key repeat,
 * a slow link or tmux deliver it) is one event, which `useInput` would hand on as one string with
 * its control keys unread. `read` splits such a run into its keys, reads each escape sequence as
 * one key, and collects what comes between the bracketed-paste marks as one paste.
 */
export class KeyStream {
  /** The pasted text so far, while between the paste marks. */
  private pasted: string | undefined;

  read(raw: string): TerminalInput[] {
    if (this.pasted !== undefined) {
      if (raw === PASTE_END) {
        const text = pastedText(this.pasted);
        this.pasted = undefined;
        return text === "" ? [] : [{ type: "paste", text }];
      }
      this.pasted += raw;
      return [];
    }
    if (raw === PASTE_START) {
      this.pasted = "";
      return [];
    }
    if (raw === PASTE_END) return [];
    const presses = raw.startsWith("\x1b") ? [escapeKey(raw)] : splitKeys(raw);
    return presses.map((press) => ({ type: "key", press }));
  }
}

/**
 * A run of plain bytes as the keys that typed it: printable text stays together (one insert),
 * each control character is its own key, flagged as ink flags it when it comes alone.
 */
export function splitKeys(run: string): KeyPress[] {
  const presses: KeyPress[] = [];
  let text = "";
  for (const char of run) {
    const control = controlKey(char);
    if (control === undefined) {
      text += char;
      continue;
    }
    if (text !== "") presses.push({ input: text, key: NO_KEY });
    text = "";
    presses.push(control);
  }
  if (text !== "") presses.push({ input: text, key: NO_KEY });
  return presses;
}

/** Whether `text` holds a C0 control character or DEL: keys, not text to insert. */
export function hasControlCharacter(text: string): boolean {
  for (const char of text) if (isControl(char)) return true;
  return false;
}

function isControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f;
}

function controlKey(char: string): KeyPress | undefined {
  if (!isControl(char)) return undefined;
  const code = char.codePointAt(0) ?? 0;
  switch (char) {
    case "\r":
      return { input: "\r", key: { ...NO_KEY, return: true } };
    case "\n":
      return { input: "\n", key: NO_KEY };
    case "\t":
      return { input: "", key: { ...NO_KEY, tab: true } };
    case "\x7f":
      return { input: "", key: { ...NO_KEY, delete: true } };
    case "\b":
      return { input: "", key: { ...NO_KEY, backspace: true } };
  }
  // Ctrl+A … Ctrl+Z; the rest (NUL, Ctrl+\ …) types nothing.
  if (code >= 1 && code <= 26)
    return { input: String.fromCharCode(code + 96), key: { ...NO_KEY, ctrl: true } };
  return { input: "", key: NO_KEY };
}

/**
 * Pasted text as it goes into the input: line breaks as `\n`, tabs kept, and no terminal control
 * sequence or control character (pasted from a terminal, text may carry colours).
 */
function pastedText(raw: string): string {
  const text = raw.replace(CONTROL_SEQUENCE, "").replace(/\r\n?/g, "\n");
  return [...text].filter((char) => char === "\n" || char === "\t" || !isControl(char)).join("");
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a control sequence starts with ESC
const CONTROL_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]/g;
