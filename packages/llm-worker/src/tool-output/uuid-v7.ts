/**
 * UUID v7 (RFC 9562) without the `uuid` package, whose index loads 20 modules at start-up for one
 * function. Ids made in one process sort in the order they were made: within one millisecond the
 * 12 bits after the time count up from a random start (the RFC's method 1), and on overflow the
 * time moves on by a millisecond. Blob ids are these, and so are the Pod's session ids.
 */
export function uuidV7(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = randomBits12();
  } else if (++counter > 0xfff) {
    lastMs += 1;
    counter = randomBits12();
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | (counter >>> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  const hex = Buffer.from(bytes).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Any UUID in its text form (what `uuid`'s `validate` accepts, nil and max included). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

const UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

let lastMs = -1;
let counter = 0;

/** Starts the counter in the lower half, so a millisecond has room for 2048 ids before overflow. */
function randomBits12(): number {
  return (crypto.getRandomValues(new Uint16Array(1))[0] as number) & 0x7ff;
}
