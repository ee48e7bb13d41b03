/**
 * What a command wrote, kept within a memory bound: the first `headBytes` and the last
 * `tailBytes`, the middle dropped (and counted). A runaway command cannot exhaust the Pod's
 * memory, and what is kept is what matters most: how it started and how it ended.
 */
export class OutputLog {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  /** Every byte ever written, kept or not: offsets for `since` count in these. */
  private written = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  get totalBytes(): number {
    return this.written;
  }

  add(chunk: Buffer): void {
    this.written += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const room = this.headBytes - this.headLength;
      const kept = rest.subarray(0, room);
      this.head.push(kept);
      this.headLength += kept.length;
      rest = rest.subarray(kept.length);
    }
    if (rest.length === 0 || this.tailBytes === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tailLength > this.tailBytes) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailLength - this.tailBytes;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailLength -= excess;
      }
    }
  }

  /** The text written from byte `offset` on, as far as it is kept; a dropped stretch is marked. */
  since(offset = 0): string {
    const parts: string[] = [];
    if (offset < this.headLength) parts.push(Buffer.concat(this.head).subarray(offset).toString("utf8"));
    const tailStart = this.written - this.tailLength;
    const from = Math.max(offset, this.headLength);
    if (from < tailStart) parts.push(`\n[… ${tailStart - from} bytes of output not kept …]\n`);
    const tail = Buffer.concat(this.tail);
    parts.push(tail.subarray(Math.max(0, from - tailStart)).toString("utf8"));
    return parts.join("");
  }
}
