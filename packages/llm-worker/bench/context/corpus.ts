/**
 * The data the benchmark session works on, made from a fixed seed so every run and every policy
 * sees the same bytes: source files of 20–200 KB, a JSON array of 5,000 records, a JSON object
 * of 300 keys, long search outputs and small directory listings. Facts the model will need later
 * are planted in them at chosen positions (`plant*`).
 */

/** mulberry32: small, fast and deterministic. */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "record",
  "client",
  "retry",
  "buffer",
  "stream",
  "token",
  "cache",
  "queue",
  "session",
  "worker",
  "handler",
  "payload",
  "budget",
  "cursor",
  "digest",
  "ledger",
  "shard",
  "lease",
  "quota",
  "window",
  "socket",
  "parser",
  "schema",
  "batch",
];

class Words {
  readonly #random: () => number;
  constructor(random: () => number) {
    this.#random = random;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.#random() * (max - min + 1));
  }
  word(): string {
    return WORDS[this.int(0, WORDS.length - 1)] as string;
  }
  type(): string {
    const w = this.word();
    return w.charAt(0).toUpperCase() + w.slice(1);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
}

/** One line of TypeScript-looking code, 2 to about 110 characters. */
function codeLine(w: Words, n: number): string {
  switch (w.int(0, 6)) {
    case 0:
      return `  const ${w.word()}${n} = await ${w.word()}.${w.word()}(${w.word()}, { retries: ${w.int(0, 9)}, timeoutMs: ${w.int(100, 9000)} });`;
    case 1:
      return `  if (${w.word()}.${w.word()}Count > ${w.int(0, 999)}) throw new Error("${w.word()} ${w.word()} exceeded");`;
    case 2:
      return `  // the ${w.word()} must be ${w.word()}ed before its ${w.word()} reaches the ${w.word()}`;
    case 3:
      return `export function ${w.word()}${w.type()}${n}(${w.word()}: ${w.type()}, ${w.word()}: number): ${w.type()} {`;
    case 4:
      return `  return { ${w.word()}: ${w.word()}, ${w.word()}Id: ${w.int(0, 99_999)}, ok: ${w.int(0, 1) === 1} };`;
    case 5:
      return `  ${w.word()}.${w.word()}(${w.int(0, 64)});`;
    default:
      return "}";
  }
}

/** A source file of about `bytes` bytes (whole lines). */
export function sourceFile(seed: number, bytes: number): string[] {
  const w = new Words(randomFrom(seed));
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = codeLine(w, lines.length);
    lines.push(line);
    size += line.length + 1;
  }
  return lines;
}

/** Replaces the line at `fraction` of `lines` (0 = first, 1 = last) with `line`; returns its 1-based number. */
export function plantLine(lines: string[], fraction: number, line: string): number {
  const index = Math.min(lines.length - 1, Math.max(0, Math.round(fraction * (lines.length - 1))));
  lines[index] = line;
  return index + 1;
}

const FIRST = ["ada", "bo", "chen", "dara", "eli", "fumi", "gus", "hana", "ivo", "jun", "kai", "lea"];
const LAST = ["sato", "meyer", "okafor", "silva", "novak", "kim", "haas", "rossi", "tanaka", "berg"];

/** `count` customer records, as an API returns them (`seed` picks other people). */
export function records(count: number, seed = 5000): Record<string, unknown>[] {
  const w = new Words(randomFrom(seed));
  return Array.from({ length: count }, (_, id) => {
    const first = w.pick(FIRST);
    const last = w.pick(LAST);
    return {
      id,
      name: `${first} ${last}`,
      email: `${first}.${last}.${id}@mail.example`,
      plan: w.pick(["free", "team", "business", "enterprise"]),
      status: w.pick(["active", "active", "active", "past_due", "cancelled"]),
      amount_cents: w.int(0, 250_000),
      created_at: `2024-${String(w.int(1, 12)).padStart(2, "0")}-${String(w.int(1, 28)).padStart(2, "0")}`,
      tags: Array.from({ length: w.int(0, 3) }, () => w.word()),
    };
  });
}

/**
 * A configuration object of `count` keys with values of every JSON kind; `planted` puts a given
 * key and value at a given position.
 */
export function config(
  count: number,
  planted: ReadonlyMap<number, [string, string]>,
): Record<string, unknown> {
  const w = new Words(randomFrom(300));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const key = `${w.word()}_${w.word()}_${i}`;
    const plant = planted.get(i);
    if (plant !== undefined) {
      out[plant[0]] = plant[1];
      continue;
    }
    switch (i % 5) {
      case 0:
        out[key] = `https://${w.word()}.internal.example/${w.word()}/${w.int(1, 99)}`;
        break;
      case 1:
        out[key] = w.int(0, 100_000);
        break;
      case 2:
        out[key] = w.int(0, 1) === 1;
        break;
      case 3:
        out[key] = { enabled: w.int(0, 1) === 1, limit: w.int(1, 500), owner: `${w.word()}-team` };
        break;
      default:
        out[key] = [w.word(), w.word(), w.word()];
    }
  }
  return out;
}

/** `count` lines of grep output for `pattern`, as `path:line:  code`. */
export function searchLines(seed: number, pattern: string, count: number): string[] {
  const w = new Words(randomFrom(seed));
  return Array.from({ length: count }, (_, i) => {
    const path = `src/${w.word()}/${w.word()}-${w.word()}.ts`;
    return `${path}:${w.int(1, 3000)}:  const ${w.word()}${i} = ${pattern}(${w.word()}, ${w.int(0, 9000)});`;
  });
}

/** A short directory listing (under 800 bytes: inline for every policy). */
export function listing(seed: number): string {
  const w = new Words(randomFrom(seed));
  return Array.from(
    { length: w.int(6, 12) },
    () =>
      `${w.pick(["-rw-r--r--", "drwxr-xr-x"])} ${String(w.int(80, 90_000)).padStart(6)} ${w.word()}-${w.word()}.ts`,
  ).join("\n");
}

/**
 * `groups` matches of `pattern` as `grep -n -C2` prints them: each match (`path:line:  code`)
 * with two lines of context either side (`path-line-  code`), groups separated by `--`.
 * Returns the lines and the indices of the match lines.
 */
export function grepWithContext(
  seed: number,
  pattern: string,
  groups: number,
): { lines: string[]; matches: number[] } {
  const w = new Words(randomFrom(seed));
  const lines: string[] = [];
  const matches: number[] = [];
  for (let g = 0; g < groups; g++) {
    if (g > 0) lines.push("--");
    const path = `src/${w.word()}/${w.word()}-${w.word()}.ts`;
    const at = w.int(3, 2_000);
    for (let d = -2; d <= 2; d++) {
      if (d === 0) {
        matches.push(lines.length);
        lines.push(`${path}:${at}:  const ${w.word()}${g} = ${pattern}(${w.word()}, ${w.int(0, 9000)});`);
      } else lines.push(`${path}-${at + d}-${codeLine(w, at + d)}`);
    }
  }
  return { lines, matches };
}

/** `count` lines of a build or test log: timestamps, steps, compiled modules, passing tests. */
export function logLines(seed: number, count: number): string[] {
  const w = new Words(randomFrom(seed));
  return Array.from({ length: count }, (_, i) => {
    const time = `[${String(Math.floor(i / 3600) % 24).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}]`;
    switch (w.int(0, 3)) {
      case 0:
        return `${time} compiled src/${w.word()}/${w.word()}-${w.word()}.ts in ${w.int(1, 900)} ms`;
      case 1:
        return `${time}   ✓ ${w.word()} ${w.word()}s the ${w.word()} when the ${w.word()} is ${w.word()} (${w.int(1, 90)} ms)`;
      case 2:
        return `${time} [${w.word()}] emitted ${w.int(1, 400)} chunks, ${w.int(1, 9000)} kB`;
      default:
        return `${time} resolving ${w.word()}-${w.word()}@${w.int(1, 9)}.${w.int(0, 20)}.${w.int(0, 9)}`;
    }
  });
}
