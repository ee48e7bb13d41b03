import { createHmac, timingSafeEqual } from "node:crypto";

/** The `prev` of the first entry of a session that continues no other: 64 zeros. */
export const ZERO_HASH = "0".repeat(64);

const SECRET_BYTES = 32;
const MAC_FIELD = Buffer.from(',"mac":"');
const MAC_HEX_CHARS = 64;
/** `,"mac":"<64 hex>"}`: how every sealed line ends. */
const SEAL_BYTES = MAC_FIELD.length + MAC_HEX_CHARS + 2;
const CLOSING_BRACE = Buffer.from("}");
const HEX = /^[0-9a-f]{64}$/;

/**
 * The secret that keys a user's session-log chains (see `session-key.ts` for where it lives). Each
 * line carries `mac`, the HMAC-SHA-256 of its own bytes, and the next line's `prev` is that MAC: an
 * edited, inserted or forged line cannot be given a valid MAC without the key, as a plain hash could.
 */
export class SessionKey {
  readonly #secret: Buffer;

  private constructor(secret: Buffer) {
    this.#secret = secret;
  }

  /** A key from its 32 secret bytes (copied). */
  static fromBytes(bytes: Uint8Array): SessionKey {
    if (bytes.length !== SECRET_BYTES)
      throw new Error(`a session key is ${SECRET_BYTES} bytes, not ${bytes.length}`);
    return new SessionKey(Buffer.from(bytes));
  }

  /** HMAC-SHA-256 of `data` (a string as its UTF-8 bytes), in lowercase hex. */
  mac(data: string | Uint8Array): string {
    return createHmac("sha256", this.#secret).update(data).digest("hex");
  }

  /** Never the secret: a key that reaches a log message or `JSON.stringify` shows nothing. */
  toJSON(): string {
    return "[session key]";
  }
}

/** A log line as written: the bytes (newline included) and its MAC, the next line's `prev`. */
export interface SealedLine {
  bytes: Buffer;
  mac: string;
}

/**
 * Seals one entry's JSON object text: its MAC is computed over exactly that text, then added as
 * the object's last field, `,"mac":"<hex>"}`. The reader takes that suffix off again and recomputes,
 * so no re-serialization is involved and writer and reader hash the same bytes.
 */
export function sealLine(key: SessionKey, json: string): SealedLine {
  const mac = key.mac(json);
  return { bytes: Buffer.from(`${json.slice(0, -1)},"mac":"${mac}"}\n`, "utf8"), mac };
}

/**
 * Whether a complete line (without its newline) carries a MAC that `key` made over the rest of it.
 * A line that does not end with the seal verifies as false.
 */
export function verifyLine(key: SessionKey, line: Uint8Array): boolean {
  const bytes = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const at = bytes.length - SEAL_BYTES;
  if (at < 1 || !bytes.subarray(at, at + MAC_FIELD.length).equals(MAC_FIELD)) return false;
  if (!bytes.subarray(bytes.length - 2).equals(Buffer.from('"}'))) return false;
  const carried = bytes.subarray(at + MAC_FIELD.length, bytes.length - 2).toString("latin1");
  if (!HEX.test(carried)) return false;
  const expected = key.mac(Buffer.concat([bytes.subarray(0, at), CLOSING_BRACE]));
  return timingSafeEqual(Buffer.from(carried, "latin1"), Buffer.from(expected, "latin1"));
}
