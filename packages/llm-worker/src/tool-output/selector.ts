/**
 * The `inspect` selectors. Ranges follow the notation they borrow: `lines:` counts like an editor
 * (1-based, both ends included), `slice:` and `bytes:` like Rust ranges (0-based, end excluded).
 */
export type Selector =
  /** Text lines `from` to `to`, 1-based and inclusive; no `to` reads to the end. */
  | { kind: "lines"; from: number; to?: number }
  /** Text bytes `from` to `to`, 0-based, end excluded; for lines too long to read whole. */
  | { kind: "bytes"; from: number; to?: number }
  /** Entries `from` to `to` (0-based, end excluded) of the array at `path` (empty: the blob). */
  | { kind: "slice"; path: string[]; from: number; to?: number }
  /** A value inside JSON: object keys and array indices, separated by dots. */
  | { kind: "key"; path: string[] };

/** What `inspect` accepts, for error messages: the model reads them to correct its call. */
export const SELECTOR_HELP =
  'valid selectors: none (overview), "lines:20-50" / "lines:20-" / "lines:7" (text; 1-based, inclusive), ' +
  '"bytes:0..16384" (text; 0-based, end excluded), "slice:3..8" / "slice:10.." (JSON array; 0-based, end ' +
  'excluded; "slice:results.3..8" slices the array under a key), "key:results" / "key:results.0.name" ' +
  "(JSON object; dots go deeper, numbers index arrays)";

/** Thrown for a selector that does not parse; the message says what would. */
export class SelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SelectorError";
  }
}

function malformed(selector: string, why: string): SelectorError {
  return new SelectorError(`malformed selector ${JSON.stringify(selector)}: ${why}; ${SELECTOR_HELP}`);
}

const DIGITS = /^\d+$/;

function parseIndex(selector: string, text: string): number {
  if (!DIGITS.test(text)) throw malformed(selector, `${JSON.stringify(text)} is not a whole number`);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw malformed(selector, `${text} is too large`);
  return value;
}

/** `from..to`, `from..`, `..to`, `..` or a single index `i` (meaning `i..i+1`). */
function parseRustRange(selector: string, body: string): { from: number; to?: number } {
  const dots = body.indexOf("..");
  if (dots === -1) {
    const index = parseIndex(selector, body);
    return { from: index, to: index + 1 };
  }
  const fromText = body.slice(0, dots);
  const toText = body.slice(dots + 2);
  const from = fromText === "" ? 0 : parseIndex(selector, fromText);
  if (toText === "") return { from };
  const to = parseIndex(selector, toText);
  if (to < from) throw malformed(selector, `the range ends (${to}) before it starts (${from})`);
  return { from, to };
}

/** `from-to`, `from-` or a single line `n`, 1-based. */
function parseLineRange(selector: string, body: string): { from: number; to?: number } {
  const dash = body.indexOf("-");
  const from = parseIndex(selector, dash === -1 ? body : body.slice(0, dash));
  if (from === 0) throw malformed(selector, "lines are counted from 1");
  if (dash === -1) return { from, to: from };
  const toText = body.slice(dash + 1);
  if (toText === "") return { from };
  const to = parseIndex(selector, toText);
  if (to < from) throw malformed(selector, `the range ends (${to}) before it starts (${from})`);
  return { from, to };
}

function parsePath(selector: string, text: string): string[] {
  const path = text.split(".");
  if (path.some((segment) => segment === "")) throw malformed(selector, "the key path has an empty part");
  return path;
}

/**
 * Where the range of `slice:<path>.<range>` starts: after the last `.` that is not part of the
 * range's `..` (in "results.3..8" that is index 8; in "3..8" there is no path and it is 0).
 */
function findRangeStart(body: string): number {
  const dots = body.lastIndexOf("..");
  if (dots === 0) return 0;
  const before = dots === -1 ? body.lastIndexOf(".") : body.lastIndexOf(".", dots - 1);
  return before === -1 ? 0 : before + 1;
}

/** Parses a selector; throws a `SelectorError` that lists the valid forms. */
export function parseSelector(selector: string): Selector {
  const text = selector.trim();
  const colon = text.indexOf(":");
  if (colon === -1) throw malformed(selector, "it has no kind");
  const kind = text.slice(0, colon).trim().toLowerCase();
  const body = text.slice(colon + 1).trim();
  if (body === "") throw malformed(selector, "nothing follows the colon");
  switch (kind) {
    case "lines":
      return { kind, ...parseLineRange(selector, body) };
    case "bytes":
      return { kind, ...parseRustRange(selector, body) };
    case "slice": {
      // The range is the last dotted part, but its own `..` must not count as a separator.
      const rangeStart = findRangeStart(body);
      const path = rangeStart === 0 ? [] : parsePath(selector, body.slice(0, rangeStart - 1));
      return { kind, path, ...parseRustRange(selector, body.slice(rangeStart)) };
    }
    case "key":
      return { kind, path: parsePath(selector, body) };
    default:
      throw malformed(selector, `unknown kind "${kind}"`);
  }
}
