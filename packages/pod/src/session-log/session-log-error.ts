/** What went wrong with a session log. */
export type SessionLogErrorKind =
  /** A complete line (ended by its newline) that is not JSON, wherever it is: damage, not a torn write. */
  | "invalid_json"
  /** A line that is JSON but not a valid entry. */
  | "invalid_entry"
  /** `seq` is not the line number: a line was deleted, inserted or moved. */
  | "out_of_order"
  /** `prev` is not the MAC of the line before: a line was deleted or moved (or this `prev` altered). */
  | "broken_chain"
  /**
   * The line's MAC does not verify with the user's session key: the line was edited or forged, or
   * the log was written under another key (another user, another machine).
   */
  | "tampered"
  /** A log format this version does not continue (version 1: an unkeyed chain anyone can recompute). */
  | "unsupported_version"
  /** The user's session key file cannot be used (its mode, its owner, its size). */
  | "session_key"
  /** The file does not start with a `session_start` entry. */
  | "not_a_session_log"
  /** Another live process (or another `SessionLog` in this one) is appending to the log. */
  | "locked"
  /**
   * A store refused an append because the session's head is no longer the entry this writer
   * extends: another writer appended first (this one is stale). Nothing was written.
   */
  | "conflict"
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
