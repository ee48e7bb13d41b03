/**
 * Measures what an append costs under each durability, on the file system of the directory given
 * (default: the OS temporary directory). Run: `npx tsx packages/pod/bench/session-append-cost.ts [dir]`.
 * The README's numbers come from here.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Durability, SessionLog } from "../src/session-log/session-log.js";
import { testConfig, testKey } from "../test/support/session-test-config.js";

const base = process.argv[2] ?? tmpdir();
const COUNT = 2000;
const text = "a typical assistant reply of a few hundred bytes. ".repeat(8);

async function measure(durability: Durability, concurrency: number): Promise<void> {
  const dir = await mkdtemp(join(base, "yoake-append-cost-"));
  try {
    const log = await SessionLog.create(dir, { config: testConfig(dir) }, { durability, key: testKey });
    const started = process.hrtime.bigint();
    for (let done = 0; done < COUNT; done += concurrency) {
      const burst: Promise<unknown>[] = [];
      for (let i = 0; i < concurrency; i += 1) {
        burst.push(log.append({ type: "item", item: { type: "message", role: "assistant", text } }));
      }
      await Promise.all(burst);
    }
    const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
    await log.close();
    const perAppend = elapsedUs / COUNT;
    console.log(
      `${durability.padEnd(5)} concurrency ${String(concurrency).padStart(2)}: ` +
        `${perAppend.toFixed(1).padStart(7)} µs per append, ${Math.round(1e6 / perAppend)} appends/s`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`${COUNT} appends of ~${text.length + 150}-byte lines in ${base}`);
for (const durability of ["every", "batch"] as const) {
  for (const concurrency of [1, 16]) await measure(durability, concurrency);
}
