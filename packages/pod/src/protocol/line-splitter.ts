/** What a `LineSplitter` reports, in stream order. */
export interface LineSink {
  /** A complete line, without its `\n` (nor a `\r` before it). Blank lines are not reported. */
  line(text: string): void;
  /** A line grew past the limit: it is dropped whole, up to its `\n`, and reading goes on after it. */
  overflow(limitBytes: number): void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits a byte stream into lines. Works on bytes, so a UTF-8 character split between two chunks
 * is decoded whole; a line is decoded once, when its `\n` arrives. A line longer than
 * `maxLineBytes` is not buffered: the splitter reports it and skips to the next `\n`, so one bad
 * line neither exhausts memory nor ends the stream.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      this.finish(chunk.subarray(start, end));
      start = end + 1;
    }
  }

  /** The bytes of an unfinished line (no `\n` yet). */
  private keep(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.startSkipping();
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  /** The last bytes of a line, up to its `\n`. */
  private finish(part: Buffer): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.startSkipping();
      this.skipping = false;
      return;
    }
    let bytes = part;
    if (this.pending.length > 0) {
      this.pending.push(part);
      bytes = Buffer.concat(this.pending, this.pendingBytes + part.length);
      this.pending = [];
      this.pendingBytes = 0;
    }
    const length =
      bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    if (isBlank(bytes, length)) return;
    this.sink.line(bytes.toString("utf8", 0, length));
  }

  private startSkipping(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = true;
    this.sink.overflow(this.maxLineBytes);
  }
}

function isBlank(bytes: Buffer, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== CARRIAGE_RETURN) return false;
  }
  return true;
}
