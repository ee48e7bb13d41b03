/**
 * Submitted input: what the user typed, as a list of segments (seed 004). A terminal client that
 * completes `@<path>` into a typed atom sends `file_ref` segments directly; plain text input (the
 * CLI's argument, a headless run) goes through `parseSegments`.
 */
export type Segment = { type: "text"; text: string } | { type: "file_ref"; path: string };

/** What a file reference that could not be attached leaves in the user message (seed 004). */
export function fileRefPlaceholder(path: string): string {
  return `[unresolved file ref: ${path}]`;
}

/**
 * The user message: text segments as they are; a reference whose file was attached (its path in
 * `attached`) as the user wrote it, `@path`, and any other as its placeholder. Telling the model
 * "unresolved" about a file it was given makes it say it cannot see the file. The attached file
 * follows the user message as a system message of its own.
 */
export function flattenSegments(
  segments: readonly Segment[],
  attached: ReadonlySet<string> = new Set(),
): string {
  let text = "";
  for (const segment of segments) {
    if (segment.type === "text") text += segment.text;
    else text += attached.has(segment.path) ? fileRefToken(segment.path) : fileRefPlaceholder(segment.path);
  }
  return text;
}

/** `@path`, quoted when the path holds whitespace (as `parseSegments` reads it back). */
function fileRefToken(path: string): string {
  return /\s/.test(path) ? `@"${path}"` : `@${path}`;
}

/**
 * Turns `@<path>` tokens of plain input into `file_ref` segments.
 *
 * - A reference starts with `@` at the start of the input or after whitespace or an opening
 *   bracket or quote (`(`, `[`, `{`, `"`, `'`), so `user@example.com` or `a@b` stay text.
 * - The path runs to the next whitespace. Trailing punctuation that ends a sentence or a clause
 *   (`.`, `,`, `;`, `:`, `!`, `?`, and closing `)`, `]`, `}`, `"`, `'`) is not part of it:
 *   `see @src/a.ts, then` refers to `src/a.ts`. A path that really ends in such a character is
 *   written quoted.
 * - `@"<path>"` takes everything up to the closing quote, spaces included (`@"my notes.md"`).
 *   Without a closing quote the token is text.
 * - `@@` is a literal `@` and starts no reference (`@@types/node` is the text `@types/node`).
 * - A lone `@` (followed by whitespace, the end, or nothing that can be a path) is text.
 */
export function parseSegments(input: string): Segment[] {
  const segments: Segment[] = [];
  let text = "";
  const flushText = (): void => {
    if (text !== "") segments.push({ type: "text", text });
    text = "";
  };
  let i = 0;
  while (i < input.length) {
    const at = input.indexOf("@", i);
    if (at === -1) {
      text += input.slice(i);
      break;
    }
    text += input.slice(i, at);
    if (input[at + 1] === "@") {
      text += "@";
      i = at + 2;
      continue;
    }
    if (!startsReference(input, at)) {
      text += "@";
      i = at + 1;
      continue;
    }
    const token = readReference(input, at + 1);
    if (token === undefined) {
      text += "@";
      i = at + 1;
      continue;
    }
    flushText();
    segments.push({ type: "file_ref", path: token.path });
    i = token.end;
  }
  flushText();
  return segments;
}

const OPENERS = new Set(["(", "[", "{", '"', "'"]);
const TRAILING = new Set([".", ",", ";", ":", "!", "?", ")", "]", "}", '"', "'"]);

function startsReference(input: string, at: number): boolean {
  if (at === 0) return true;
  const before = input[at - 1] as string;
  return isWhitespace(before) || OPENERS.has(before);
}

/** The path after an `@` at `from - 1`, and where the token ends; undefined when there is none. */
function readReference(input: string, from: number): { path: string; end: number } | undefined {
  if (input[from] === '"') {
    const close = input.indexOf('"', from + 1);
    if (close === -1 || close === from + 1) return undefined;
    return { path: input.slice(from + 1, close), end: close + 1 };
  }
  let end = from;
  while (end < input.length && !isWhitespace(input[end] as string)) end++;
  let pathEnd = end;
  while (pathEnd > from && TRAILING.has(input[pathEnd - 1] as string)) pathEnd--;
  if (pathEnd === from) return undefined;
  return { path: input.slice(from, pathEnd), end: pathEnd };
}

function isWhitespace(char: string): boolean {
  return char === " " || char === "\n" || char === "\t" || char === "\r" || char === "\f" || char === "\v";
}
