import type { Key } from "ink";

/** One key press: the text it types (if any) and the key's flags, as ink's `useInput` reports them. */
export interface KeyPress {
  input: string;
  key: Key;
}

export const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

const press = (input: string, flags: Partial<Key> = {}): KeyPress => ({
  input,
  key: { ...NO_KEY, ...flags },
});
/** Nothing a person typed: a terminal's report, a key the UI has no use for. */
const NOTHING = press("");

const CSI_LETTER_KEYS: Readonly<Record<string, Partial<Key>>> = {
  A: { upArrow: true },
  B: { downArrow: true },
  C: { rightArrow: true },
  D: { leftArrow: true },
  H: { home: true },
  F: { end: true },
};

const CSI_TILDE_KEYS: Readonly<Record<string, Partial<Key>>> = {
  "1": { home: true },
  "7": { home: true },
  "4": { end: true },
  "8": { end: true },
  "3": { delete: true },
  "5": { pageUp: true },
  "6": { pageDown: true },
};

/**
 * One escape sequence, as ink's input parser cuts them (`ESC [ … final`, `ESC O x`, `ESC x`),
 * read as a key: arrows, Home / End, Delete, Page keys, Shift+Tab, Alt+key, and the kitty
 * keyboard protocol's `CSI code ; modifiers u` (Shift+Enter, Ctrl+letters). Whatever else a
 * terminal sends (focus reports, colours in a paste, function keys) types nothing.
 */
export function escapeKey(sequence: string): KeyPress {
  if (sequence === "\x1b" || sequence === "\x1b\x1b") return press("", { escape: true, meta: true });
  // Alt+Arrow in some terminals: ESC before the key's own sequence.
  if (sequence.startsWith("\x1b\x1b")) return withMeta(escapeKey(sequence.slice(1)));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: an escape sequence starts with ESC
  const csi = /^\x1b\[([0-9;:]*)([A-Za-z~])$/.exec(sequence);
  if (csi !== null) return csiKey(csi[1] as string, csi[2] as string);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: an escape sequence starts with ESC
  const ss3 = /^\x1bO([A-Z])$/.exec(sequence);
  if (ss3 !== null) {
    const flags = CSI_LETTER_KEYS[ss3[1] as string];
    return flags === undefined ? NOTHING : press("", flags);
  }
  const alt = sequence.slice(1);
  if ([...alt].length !== 1) return NOTHING;
  if (alt === "\r") return press("\r", { return: true, meta: true });
  if (alt === "\x7f" || alt === "\b") return press("", { backspace: true, meta: true });
  return press(alt, { meta: true });
}

function csiKey(parameters: string, final: string): KeyPress {
  const [first = "", second = ""] = parameters.split(";");
  const modifiers = modifierFlags(second.split(":")[0] ?? "");
  if (final === "u") return kittyKey(first, second, modifiers);
  if (final === "Z") return press("", { tab: true, shift: true });
  if (final === "~") {
    const flags = CSI_TILDE_KEYS[first];
    return flags === undefined ? NOTHING : press("", { ...flags, ...modifiers });
  }
  const flags = CSI_LETTER_KEYS[final];
  return flags === undefined ? NOTHING : press("", { ...flags, ...modifiers });
}

/** The kitty keyboard protocol: `code ; modifiers[:event] u`. Key releases type nothing. */
function kittyKey(code: string, modifierField: string, modifiers: Partial<Key>): KeyPress {
  if (modifierField.split(":")[1] === "3") return NOTHING;
  const codePoint = Number.parseInt(code, 10);
  if (!Number.isInteger(codePoint) || codePoint < 0 || codePoint > 0x10ffff) return NOTHING;
  switch (codePoint) {
    case 13:
      return press("\r", { return: true, ...modifiers });
    case 9:
      return press("", { tab: true, ...modifiers });
    case 27:
      return press("", { escape: true, meta: true, ...modifiers });
    case 127:
    case 8:
      return press("", { backspace: true, ...modifiers });
  }
  if (codePoint >= 57344 && codePoint <= 63743) return NOTHING; // private use: keypad, media, modifier keys
  const char = String.fromCodePoint(codePoint);
  if (modifiers.ctrl === true) return press(char.toLowerCase(), modifiers);
  return press(modifiers.shift === true ? char.toUpperCase() : char, modifiers);
}

/** xterm's modifier parameter: 1 + (Shift 1, Alt 2, Ctrl 4, Super 8). */
function modifierFlags(field: string): Partial<Key> {
  const value = Number.parseInt(field, 10);
  if (!Number.isInteger(value) || value < 2) return {};
  const bits = value - 1;
  return {
    ...((bits & 1) !== 0 && { shift: true }),
    ...((bits & 2) !== 0 && { meta: true }),
    ...((bits & 4) !== 0 && { ctrl: true }),
    ...((bits & 8) !== 0 && { super: true }),
  };
}

function withMeta(keyPress: KeyPress): KeyPress {
  return { input: keyPress.input, key: { ...keyPress.key, meta: true } };
}
