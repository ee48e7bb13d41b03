/** A JSON value, as tools return structured results. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What a stored output holds (seed 000 `Content`). */
export type Content = { kind: "text"; text: string } | { kind: "structured"; value: JsonValue };

/**
 * A tool's output (seed 000). `inline` goes into history as it is; `stored` goes to the BlobStore
 * and history keeps only its summary (which starts with `[blob:<id>]`). A tool that returns a plain
 * string gets the automatic promotion: up to 800 bytes inline, above that stored with a generated
 * summary. A tool that knows better returns a `ToolOutput` itself.
 */
export type ToolOutput =
  /**
   * `summary` (optional) is the one line kept once prune drops `text`; without it one is made
   * from the text (`N lines | <first line>`).
   */
  | { kind: "inline"; text: string; summary?: string }
  /** `summary` is generated from the content when absent. */
  | { kind: "stored"; content: Content; summary?: string };

/** An output that goes into history as it is, whatever its size. */
export const inline = (text: string, summary?: string): ToolOutput =>
  summary === undefined ? { kind: "inline", text } : { kind: "inline", text, summary };
/** An output kept in the BlobStore; history holds its summary with the `[blob:<id>]` pointer. */
export const stored = (content: Content, summary?: string): ToolOutput =>
  summary === undefined ? { kind: "stored", content } : { kind: "stored", content, summary };
