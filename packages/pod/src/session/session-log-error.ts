/** What went wrong with a session log. */
export type SessionLogErrorKind =
  /** A line that is not JSON, before the last line. */
  | "invalid_json"
  /** A line that is JSON but not a valid entry. */
  | "invalid_entry"
  /** `seq` is not the line number: a line was deleted, inserted or moved. */
  | "out_of_order"
  /** `prev` is not the SHA-256 of the line before: a line was altered, deleted or moved. */
  | "broken_chain"
  /** The file does not start with a `session_start` entry. */
  | "not_a_session_log"
  /** Another live process (or another `SessionLog` in this one) is appending to the log. */
  | "locked"
  /** `create` was given the id of a session that exists. */
  | "already_exists"
  /** A write or flush failed; the log refuses further appends. */
  | "write_failed"
  /** No session with that id or prefix. */
  | "not_found"
  /** An id prefix that matches more than one session. */
  | "ambiguous";

/**
 * A session log that cannot be read as it is, or cannot be written. Problems inside the file name
 * the 1-based line (`line`), so a broken log can be inspected with any editor.
 */
export class SessionLogError extends Error {
  override readonly name = "SessionLogError";

  constructor(
    readonly kind: SessionLogErrorKind,
    readonly path: string,
    message: string,
    /** The 1-based line where the problem was found. */
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super(line === undefined ? `${path}: ${message}` : `${path}:${line}: ${message}`, options);
  }
}
