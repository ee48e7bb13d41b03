import type { GrepFileHit, GrepOutputMode } from "./grep-query.js";
import { GREP_MAX_LINE_CHARS, GREP_MAX_OUTPUT_BYTES } from "./limits.js";
import { cutLine } from "./text-file.js";

export interface GrepPageOptions {
  mode: GrepOutputMode;
  /** Entries to skip: the `offset` of a follow-up call. */
  offset: number;
  /** Entries to show at most. */
  headLimit: number;
  /** Whether context was asked for: groups of lines are then separated by `--`. */
  withContext: boolean;
  /** How a canonical path is shown (relative to the project root). */
  displayPath(realPath: string): string;
  /** Bytes of output at most (default `GREP_MAX_OUTPUT_BYTES`). */
  maxBytes?: number;
}

/**
 * One page of grep's output, built from the hits as they stream in. An entry is a file
 * (`files_with_matches`: its path; `count`: `path:N`) or a line (`content`: `path:N:text` for a
 * match, `path-N-text` for context, as ripgrep prints them). `offset` entries are skipped, then at
 * most `headLimit` are kept, or fewer if they would pass the byte cap; `add` returns false as soon
 * as one more entry than the page holds has been seen, so the search can stop there.
 */
export class GrepPage {
  private readonly shown: string[] = [];
  private bytes = 0;
  private seen = 0;
  /** The index of the first entry left out, once the page is full. */
  private nextOffset: number | undefined;
  private previous: { path: string; number: number } | undefined;
  private readonly maxBytes: number;

  constructor(private readonly options: GrepPageOptions) {
    this.maxBytes = options.maxBytes ?? GREP_MAX_OUTPUT_BYTES;
  }

  /** Adds a file's hit; false when the page is full and the search should stop. */
  add(hit: GrepFileHit): boolean {
    const { mode } = this.options;
    if (mode !== "content") {
      const shown = this.options.displayPath(hit.path);
      return this.push(mode === "count" ? `${shown}:${hit.matchingLines}` : shown);
    }
    const shown = this.options.displayPath(hit.path);
    for (const line of hit.lines) {
      const entry = `${shown}${line.isMatch ? ":" : "-"}${line.number}${line.isMatch ? ":" : "-"}${cutLine(line.text, GREP_MAX_LINE_CHARS)}`;
      const adjacent = this.previous?.path === hit.path && this.previous.number + 1 === line.number;
      const separate = this.options.withContext && this.shown.length > 0 && !adjacent;
      if (!this.push(entry, separate)) return false;
      this.previous = { path: hit.path, number: line.number };
    }
    return true;
  }

  /** Whether nothing at all was found (not merely nothing past the offset). */
  get empty(): boolean {
    return this.seen === 0;
  }

  /** The page, with a notice of how to see more when it is not the last. */
  render(): string {
    const { offset } = this.options;
    if (this.shown.length === 0) {
      return `[no results past offset ${offset}: there are ${this.seen} in all]`;
    }
    const body = this.shown.join("\n");
    if (this.nextOffset === undefined) return body;
    const range = `${offset + 1}–${this.nextOffset}`;
    const unit = this.options.mode === "content" ? "lines" : "files";
    return `${body}\n\n[showing ${unit} ${range}; there are more: call grep again with offset=${this.nextOffset} to see the next ones, or narrow the search with path, glob or type]`;
  }

  private push(entry: string, separate = false): boolean {
    const index = this.seen;
    this.seen += 1;
    if (index < this.options.offset) return true;
    if (this.nextOffset !== undefined) return false;
    const text = separate ? `--\n${entry}` : entry;
    const size = Buffer.byteLength(text, "utf8") + 1;
    const full = this.shown.length >= this.options.headLimit;
    if (full || (this.shown.length > 0 && this.bytes + size > this.maxBytes)) {
      this.nextOffset = index;
      return false;
    }
    this.shown.push(text);
    this.bytes += size;
    return true;
  }
}
