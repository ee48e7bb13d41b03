import { type SessionKey, verifyLine, ZERO_HASH } from "./chain.js";
import {
  type EntryOf,
  entryBodySchema,
  entryHeaderSchema,
  type LogEntry,
  SESSION_LOG_VERSION,
} from "./entry.js";
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
  /** The MAC of the last good line: the `prev` of the next entry. */
  lastHash: string;
  /** Bytes of the file that hold good lines. */
  validBytes: number;
  tornTail?: TornTail;
  /** Things worth telling the user that do not stop the read (a dropped torn line). */
  warnings: string[];
}

/**
 * Reads a session log and verifies it line by line with the user's session `key`: every line
 * parses, is a valid entry, has `seq` equal to its line number, carries a `mac` that `key` made over
 * it, and has `prev` equal to the MAC of the line before (line 1: the zero hash, or the previous
 * session's last MAC when it names one). A line edited or forged without the key fails as
 * `tampered`; a version 1 log (unkeyed) as `unsupported_version`.
 *
 * Only bytes after the last newline are a torn tail: the writer writes each line with its newline
 * and acknowledges the append after that, so a line without its newline was never acknowledged —
 * it is left out of `entries` and reported in `warnings` and `tornTail` (the file is not changed;
 * `SessionLog.open` truncates it). A complete line (newline included) was written whole and may
 * have been acknowledged: if it is not JSON, not a valid entry or breaks the chain, even as the
 * last line, that is damage, and a `SessionLogError` names the file and line. Nothing acknowledged
 * is ever cut away, and an altered, deleted or reordered line is never accepted silently.
 */
export async function readSessionLog(path: string, key: SessionKey): Promise<SessionLogContents> {
  const entries: LogEntry[] = [];
  let previousHash = "";
  let validBytes = 0;

  const scan = await scanLines(path, (bytes, line, offset) => {
    const entry = verifyLogLine(key, bytes, line, previousHash, path);
    entries.push(entry);
    previousHash = entry.mac;
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

/**
 * Verifies one complete line of a log (without its newline) as the `line`-th entry after the entry
 * whose MAC is `previousHash` ("" before line 1): JSON, a valid entry, `seq` equal to `line`, a MAC
 * that `key` made, and the chain. Throws the `SessionLogError` naming `where` and the line. Any
 * store of sealed lines (files, a database) verifies with it, so all are held to the same rules.
 */
export function verifyLogLine(
  key: SessionKey,
  bytes: Uint8Array,
  line: number,
  previousHash: string,
  where: string,
): LogEntry {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch (error) {
    throw new SessionLogError(
      "invalid_json",
      where,
      `a complete line that is not JSON (damage, not a torn write): ${(error as Error).message}`,
      line,
    );
  }
  if (line === 1) checkVersion(json, where);
  const entry = parseEntry(json, where, line);
  checkPosition(entry, where, line);
  if (!verifyLine(key, bytes)) {
    throw new SessionLogError(
      "tampered",
      where,
      "the line does not verify with this user's session key: it was edited or forged, or the log was written with another user's or machine's key",
      line,
    );
  }
  checkChain(entry, previousHash, where, line);
  return entry;
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

/** Refuses, before the schema would, a `session_start` of another format version, saying why. */
function checkVersion(json: unknown, path: string): void {
  const version = (json as { type?: unknown; version?: unknown } | null)?.version;
  if ((json as { type?: unknown } | null)?.type !== "session_start" || version === SESSION_LOG_VERSION)
    return;
  const why =
    version === 1
      ? "was written before session logs were keyed (version 1, a plain SHA-256 chain anyone can recompute), so it cannot be told from a forgery and is not continued; start a new session (the file is left as it is)"
      : `has format version ${JSON.stringify(version)}, which this yoake does not know (it writes ${SESSION_LOG_VERSION})`;
  throw new SessionLogError("unsupported_version", path, `the log ${why}`, 1);
}

function checkPosition(entry: LogEntry, path: string, line: number): void {
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
  } else if (entry.type === "session_start") {
    throw new SessionLogError("invalid_entry", path, "session_start after line 1", line);
  }
}

function checkChain(entry: LogEntry, previousHash: string, path: string, line: number): void {
  if (entry.type === "session_start") {
    const expected = entry.previous?.lastHash ?? ZERO_HASH;
    if (entry.prev !== expected) {
      throw new SessionLogError(
        "broken_chain",
        path,
        entry.previous === undefined
          ? "the first entry's prev is not the zero hash"
          : `the first entry's prev is not the last MAC of session ${entry.previous.sessionId}`,
        1,
      );
    }
    return;
  }
  if (entry.prev !== previousHash) {
    throw new SessionLogError(
      "broken_chain",
      path,
      `prev does not match the MAC of line ${line - 1}: a line between them was deleted, or lines were moved`,
      line,
    );
  }
}
