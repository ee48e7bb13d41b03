import { lineHash, ZERO_HASH } from "./chain.js";
import { type EntryOf, entryBodySchema, entryHeaderSchema, type LogEntry } from "./entry.js";
import { scanLines } from "./line-reader.js";
import { SessionLogError } from "./session-log-error.js";

/** A last line the writer did not finish, dropped from what was read. */
export interface TornTail {
  /** Byte offset where it starts: the length the file should be truncated to. */
  offset: number;
  bytes: number;
  /** The line number it would have had. */
  line: number;
}

/** A session log read and verified. */
export interface SessionLogContents {
  path: string;
  /** Every entry, in order; `entries[0]` is the `session_start`. */
  entries: LogEntry[];
  start: EntryOf<"session_start">;
  /** The hash of the last good line: the `prev` of the next entry. */
  lastHash: string;
  /** Bytes of the file that hold good lines. */
  validBytes: number;
  tornTail?: TornTail;
  /** Things worth telling the user that do not stop the read (a dropped torn line). */
  warnings: string[];
}

/**
 * Reads a session log and verifies it line by line: every line parses, is a valid entry, has
 * `seq` equal to its line number and `prev` equal to the SHA-256 of the line before (line 1: the zero
 * hash, or the previous session's last hash when it names one).
 *
 * Only bytes after the last newline are a torn tail: the writer writes each line with its newline
 * and acknowledges the append after that, so a line without its newline was never acknowledged —
 * it is left out of `entries` and reported in `warnings` and `tornTail` (the file is not changed;
 * `SessionLog.open` truncates it). A complete line (newline included) was written whole and may
 * have been acknowledged: if it is not JSON, not a valid entry or breaks the chain, even as the
 * last line, that is damage, and a `SessionLogError` names the file and line. Nothing acknowledged
 * is ever cut away, and an altered, deleted or reordered line is never accepted silently.
 */
export async function readSessionLog(path: string): Promise<SessionLogContents> {
  const entries: LogEntry[] = [];
  let previousHash = "";
  let validBytes = 0;

  const scan = await scanLines(path, (bytes, line, offset) => {
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString("utf8"));
    } catch (error) {
      throw new SessionLogError(
        "invalid_json",
        path,
        `a complete line that is not JSON (damage, not a torn write): ${(error as Error).message}`,
        line,
      );
    }
    const entry = parseEntry(json, path, line);
    checkPosition(entry, previousHash, path, line);
    entries.push(entry);
    previousHash = lineHash(bytes);
    validBytes = offset + bytes.length + 1;
  });

  const tornTail: TornTail | undefined =
    scan.tailBytes > 0
      ? { offset: scan.completeBytes, bytes: scan.tailBytes, line: scan.lines + 1 }
      : undefined;

  const start = entries[0];
  if (start === undefined || start.type !== "session_start") {
    throw new SessionLogError("not_a_session_log", path, "no session_start entry on line 1", 1);
  }
  const warnings: string[] = [];
  if (tornTail !== undefined) {
    warnings.push(
      `${path}:${tornTail.line}: dropped a torn last line (${tornTail.bytes} bytes) that has no final newline: ` +
        "its writer stopped mid-write, so it was never acknowledged",
    );
  }
  return {
    path,
    entries,
    start,
    lastHash: previousHash,
    validBytes,
    ...(tornTail === undefined ? {} : { tornTail }),
    warnings,
  };
}

function parseEntry(json: unknown, path: string, line: number): LogEntry {
  const header = entryHeaderSchema.safeParse(json);
  const body = entryBodySchema.safeParse(json);
  if (!header.success || !body.success) {
    const issue = (header.error ?? body.error)?.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.join(".")}: `;
    throw new SessionLogError(
      "invalid_entry",
      path,
      `invalid entry: ${where}${issue?.message ?? "unknown"}`,
      line,
    );
  }
  return { ...header.data, ...body.data };
}

function checkPosition(entry: LogEntry, previousHash: string, path: string, line: number): void {
  if (entry.seq !== line) {
    throw new SessionLogError(
      "out_of_order",
      path,
      `seq ${entry.seq} on line ${line}: a line before it was deleted, inserted or moved`,
      line,
    );
  }
  if (line === 1) {
    if (entry.type !== "session_start") {
      throw new SessionLogError(
        "not_a_session_log",
        path,
        `line 1 is a ${entry.type} entry, not session_start`,
        1,
      );
    }
    const expected = entry.previous?.lastHash ?? ZERO_HASH;
    if (entry.prev !== expected) {
      throw new SessionLogError(
        "broken_chain",
        path,
        entry.previous === undefined
          ? "the first entry's prev is not the zero hash"
          : `the first entry's prev is not the last hash of session ${entry.previous.sessionId}`,
        1,
      );
    }
    return;
  }
  if (entry.type === "session_start") {
    throw new SessionLogError("invalid_entry", path, "session_start after line 1", line);
  }
  if (entry.prev !== previousHash) {
    throw new SessionLogError(
      "broken_chain",
      path,
      `prev does not match the SHA-256 of line ${line - 1}: line ${line - 1} was altered (or this line's prev was)`,
      line,
    );
  }
}
