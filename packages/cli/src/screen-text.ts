/**
 * Text from outside the program (a model's answer, a tool's output, a file's name, a cloned
 * repository's manifest) as a terminal may be handed it: what is printable stays, every control
 * becomes a visible placeholder. The terminal then draws exactly what the text says, and the
 * screen shows that something was there:
 *
 * - printable text of any script, emoji and wide characters, `\n` and `\t`: kept as they are;
 * - CR LF: a line break (`\n`); a bare CR, which would send the cursor back to overwrite the start
 *   of the line, is `␍`;
 * - every other C0 control is its Control Picture (`␛` for ESC, `␇` for BEL, `␀` …), DEL is `␡`;
 * - C1 controls (U+0080–U+009F, among them the one-byte CSI U+009B and ST U+009C) and the bidi
 *   overrides and isolates (U+202A–U+202E, U+2066–U+2069, which reorder what follows them) are
 *   `⟨U+009B⟩`, `⟨U+202E⟩`.
 *
 * An escape sequence is thus shown whole as escaped text: `ESC ] 52 ; c ; … BEL` (a clipboard
 * write) is `␛]52;c;…␇`, `ESC [ 8 m` (hidden text) is `␛[8m`, and a DCS, APC, PM or SOS with its
 * ST likewise; nothing of it reaches the terminal as a control. Each character is mapped on its
 * own, with no state, so text cut anywhere (a stream's chunks, a line of a diff) comes out the
 * same as whole — save a CR LF cut between its two, shown as `␍` and a line break.
 */
export function screenText(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, placeholder) : text;
}

/**
 * `value` with `screenText` applied to every string in it, at any depth of its arrays and plain
 * objects (keys too): for data shaped like events and history items that is bound for the
 * screen. Other objects (class instances) are returned as they are.
 */
export function screenTextDeep<T>(value: T): T {
  return deep(value) as T;
}

function deep(value: unknown): unknown {
  if (typeof value === "string") return screenText(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(deep);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[screenText(key)] = deep(item);
  return copy;
}

/**
 * `value` as one line of JSON that is also safe on a terminal: the same data, with DEL, the C1
 * controls and the bidi overrides written as `\u` escapes too (JSON escapes only C0 itself). A
 * script parsing the line reads exactly what `JSON.stringify` would give it.
 */
export function screenJson(value: unknown): string {
  return JSON.stringify(value).replace(
    JSON_UNSAFE,
    (found) => `\\u${found.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

// What JSON.stringify leaves raw that a terminal acts on (it appears only inside strings).
const JSON_UNSAFE = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

// The characters `screenText` replaces (see there); a CR with the LF after it, if any.
const UNSAFE_CLASS = "\\r\\n?|[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]";
const UNSAFE = new RegExp(UNSAFE_CLASS);
const UNSAFE_ALL = new RegExp(UNSAFE_CLASS, "g");

function placeholder(found: string): string {
  if (found === "\r\n") return "\n";
  const code = found.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}
