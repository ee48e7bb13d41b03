import { createHash } from "node:crypto";

/** Why a file may not be changed yet: never read in this session, or changed since it was read. */
export type ReadCheck = { ok: true } | { ok: false; reason: "unread" | "changed" };

/**
 * The files one session has read, by canonical path, with the SHA-256 of their content at that
 * moment. `edit_file`, and `write_file` over an existing file, change only a file the model has
 * seen as it is now: one it never read, or one something else changed since, must be read (again)
 * first, so the model never overwrites what it has not looked at.
 *
 * A partial read (`offset` / `limit`, or a read cut by the output cap) counts as a read: the hash
 * is of the whole file, so any change anywhere still shows. Writes and edits record the content
 * they wrote, so a second edit in a row needs no read in between.
 *
 * One tracker per session: share it between the tools (and anything else that shows the model a
 * file) by passing it to `createFileTools`.
 */
export class ReadTracker {
  private readonly hashes = new Map<string, string>();

  /** Notes that the model has seen `content` as the whole of the file at `realPath`. */
  record(realPath: string, content: Uint8Array | string): void {
    // Deleted first so the map's order is the order of the latest reads (see `paths`).
    this.hashes.delete(realPath);
    this.hashes.set(realPath, contentHash(content));
  }

  /** Whether the file at `realPath`, now holding `content`, may be changed. */
  check(realPath: string, content: Uint8Array | string): ReadCheck {
    const seen = this.hashes.get(realPath);
    if (seen === undefined) return { ok: false, reason: "unread" };
    return seen === contentHash(content) ? { ok: true } : { ok: false, reason: "changed" };
  }

  /** Whether the file at `realPath` has been read in this session (whatever it holds now). */
  has(realPath: string): boolean {
    return this.hashes.has(realPath);
  }

  /**
   * The canonical paths of every file read, least recently read first: what a compaction reads
   * again into the new session, newest first, while its budget lasts.
   */
  paths(): string[] {
    return [...this.hashes.keys()];
  }

  /** Forgets a file, so that changing it needs a new read. */
  forget(realPath: string): void {
    this.hashes.delete(realPath);
  }
}

/** The SHA-256 of a file's bytes (a string counts as its UTF-8 encoding), in hex. */
export function contentHash(content: Uint8Array | string): string {
  return createHash("sha256").update(content).digest("hex");
}
