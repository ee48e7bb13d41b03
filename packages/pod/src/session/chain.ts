import { createHash } from "node:crypto";

/** The `prev` of the first entry of a session that continues no other: 64 zeros. */
export const ZERO_HASH = "0".repeat(64);

/**
 * The SHA-256 of one line, in lowercase hex: the next entry's `prev`. The line is hashed without
 * its trailing newline, as the exact bytes on disk (a string is hashed as its UTF-8 bytes, which is
 * what the writer puts on disk, so writer and reader agree without re-serializing anything).
 */
export function lineHash(line: string | Uint8Array): string {
  return createHash("sha256").update(line).digest("hex");
}
