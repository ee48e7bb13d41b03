import { utf8Length } from "./utf8.js";

/** How much one `inspect` call may return: it must not flood the context the blob protects. */
export interface OutputLimits {
  /** UTF-8 bytes (default 16 KB). */
  maxBytes: number;
  /** Lines (default 400). */
  maxLines: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxBytes: 16 * 1024, maxLines: 400 };

/**
 * Collects output lines up to the limits. Everything counts, headers too; only the closing
 * notice (`[… read on with …]`) is added past them, so the model always learns how to go on.
 */
export class BoundedOutput {
  readonly #limits: OutputLimits;
  readonly #lines: string[] = [];
  #bytes = 0;

  constructor(limits: OutputLimits) {
    this.#limits = limits;
  }

  /** Bytes one more line may have (its newline already paid), or 0 when no line may be added. */
  get room(): number {
    if (this.#lines.length >= this.#limits.maxLines) return 0;
    const newline = this.#lines.length > 0 ? 1 : 0;
    return Math.max(0, this.#limits.maxBytes - this.#bytes - newline);
  }

  /** Adds `line` when it fits whole; false (and nothing added) when it does not. */
  tryAdd(line: string): boolean {
    const length = utf8Length(line);
    if (this.#lines.length >= this.#limits.maxLines || length > this.room) return false;
    this.#bytes += length + (this.#lines.length > 0 ? 1 : 0);
    this.#lines.push(line);
    return true;
  }

  /** Adds `text` (possibly several lines) as one piece, for raw byte ranges the caller bounded. */
  addRaw(text: string): void {
    this.#bytes += utf8Length(text) + (this.#lines.length > 0 ? 1 : 0);
    this.#lines.push(text);
  }

  /** The output, with `notice` on a line of its own after it when there is one. */
  finish(notice?: string): string {
    return notice === undefined ? this.#lines.join("\n") : [...this.#lines, notice].join("\n");
  }
}
