import { open } from "node:fs/promises";

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1 << 20;

/** Where the complete lines of a file end, and what follows them. */
export interface LineScan {
  /** Complete lines (each ended by a newline). */
  lines: number;
  /** Bytes of the file taken by complete lines: where a torn tail starts. */
  completeBytes: number;
  /** Bytes after the last newline: a line whose writer died before finishing it (0 if none). */
  tailBytes: number;
}

/**
 * Calls `onLine` with each complete line of a file (without its newline), in order, with its 1-based
 * number and byte offset. Reads in 1 MiB chunks, so a log of any size is scanned in bounded memory
 * (a long line is held whole, once). The buffer passed to `onLine` is only valid during the call:
 * copy it to keep it. `onLine` may throw to stop the scan.
 */
export async function scanLines(
  path: string,
  onLine: (line: Buffer, lineNumber: number, offset: number) => void,
): Promise<LineScan> {
  const handle = await open(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    // The start of a line that runs past the chunk, copied (the chunk is reused), joined at its end.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let lineStart = 0;
    let lines = 0;
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data = chunk.subarray(0, bytesRead);
      let start = 0;
      let end = data.indexOf(NEWLINE);
      if (pendingBytes > 0 && end !== -1) {
        const line = Buffer.concat([...pending, data.subarray(0, end)]);
        lines += 1;
        onLine(line, lines, lineStart);
        lineStart += line.length + 1;
        pending = [];
        pendingBytes = 0;
        start = end + 1;
        end = data.indexOf(NEWLINE, start);
      }
      for (; end !== -1; end = data.indexOf(NEWLINE, start)) {
        lines += 1;
        onLine(data.subarray(start, end), lines, lineStart);
        lineStart += end - start + 1;
        start = end + 1;
      }
      if (start < bytesRead) {
        pending.push(Buffer.from(data.subarray(start)));
        pendingBytes += bytesRead - start;
      }
    }
    return { lines, completeBytes: lineStart, tailBytes: pendingBytes };
  } finally {
    await handle.close();
  }
}
