/**
 * The process the crash test kills (not part of the library): it creates a session log in the
 * directory given as its argument, prints `path <file>`, then appends entries without end — in
 * bursts of concurrent appends, some lines large — printing `ack <seq>` as each append resolves.
 * Everything it printed as acknowledged must be in the log after a SIGKILL.
 *
 * With `hugeAfter`, once that many entries are acknowledged it appends only 24 MB lines, one at a
 * time: a write that long is still going when the parent's SIGKILL lands, and is cut short (a torn
 * last line, as a crash leaves it).
 *
 * Run with `node --import tsx session-crash-child.ts <dir> <every|batch> [hugeAfter]`.
 */
import { SessionLog } from "../../src/session-log/session-log.js";
import { testConfig, testKey } from "./session-test-config.js";

const [dir, durability, hugeAfterArgument] = process.argv.slice(2);
const hugeAfter = hugeAfterArgument === undefined ? Number.POSITIVE_INFINITY : Number(hugeAfterArgument);
if (dir === undefined || (durability !== "every" && durability !== "batch")) {
  process.stderr.write("usage: session-crash-child.ts <dir> <every|batch> [hugeAfter]\n");
  process.exit(2);
}

const log = await SessionLog.create(dir, { config: testConfig(dir) }, { durability, key: testKey });
process.stdout.write(`path ${log.path}\n`);

// Sizes vary so that some writes span several pages and a kill can land inside one.
const bulk = "x".repeat(48 * 1024);
for (let burst = 0; log.seq < hugeAfter; burst += 1) {
  const size = 1 + (burst % 7);
  const appends: Promise<void>[] = [];
  for (let i = 0; i < size; i += 1) {
    const text = (burst + i) % 5 === 0 ? `${burst}:${i} ${bulk}` : `${burst}:${i}`;
    appends.push(
      log.append({ type: "item", item: { type: "message", role: "assistant", text } }).then(({ seq }) => {
        // stdout to a pipe is synchronous on Linux: once this returns the parent can see it.
        process.stdout.write(`ack ${seq}\n`);
      }),
    );
  }
  await Promise.all(appends);
}

const huge = "y".repeat(24 * 1024 * 1024);
process.stdout.write("huge\n");
for (;;) {
  const { seq } = await log.append({
    type: "item",
    item: { type: "message", role: "assistant", text: huge },
  });
  process.stdout.write(`ack ${seq}\n`);
}
