/** Strict UTF-8: an invalid sequence throws instead of becoming U+FFFD. Stateless, so one is shared. */
const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * The text of `bytes` when they are UTF-8, or undefined when they are not (a binary file). When
 * `truncated`, the bytes are a prefix of a longer file: a character cut at the end is left out
 * rather than taken for an invalid sequence. A NUL byte counts as binary too: it is valid UTF-8,
 * but no text file a model should read holds one (UTF-16 text, images, archives, object code do).
 */
export function decodeUtf8Text(bytes: Uint8Array, truncated: boolean): string | undefined {
  const end = truncated ? completeCharacterEnd(bytes) : bytes.length;
  const body = bytes.subarray(0, end);
  if (body.includes(0)) return undefined;
  try {
    return strict.decode(body);
  } catch {
    return undefined;
  }
}

/**
 * Where the last complete UTF-8 character of `bytes` ends: a lead byte whose continuation bytes
 * were cut off is dropped with them. Invalid input is left as it is, for the decoder to refuse.
 */
function completeCharacterEnd(bytes: Uint8Array): number {
  let lead = bytes.length - 1;
  // A character is at most 4 bytes: look back past at most 3 continuation bytes (10xxxxxx).
  while (lead >= 0 && bytes.length - lead <= 3 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes.length;
  const first = bytes[lead] as number;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + length > bytes.length ? lead : bytes.length;
}
