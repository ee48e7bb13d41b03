/**
 * One measured process: `child.ts <framework> <scheme> <mock url> <rounds> <warm-ups> <samples>`.
 * Runs whole conversations against the mock (checking each one), first to warm the JIT up, then
 * measured, and prints one JSON line: the medians of the measured ones and the peak RSS.
 */
import { type BenchScheme, FINAL_TEXT, TOOL_NAMES } from "./conversation.js";
import { type Conversation, type FrameworkName, frameworks } from "./frameworks/index.js";
import type { ChildSample } from "./table.js";

const [name, scheme, url, roundsArg, warmupsArg, samplesArg] = process.argv.slice(2) as [
  FrameworkName,
  BenchScheme,
  string,
  string,
  string,
  string,
];
const rounds = Number(roundsArg);

async function checked(conversation: Conversation): Promise<void> {
  const outcome = await conversation();
  if (outcome.text !== FINAL_TEXT) throw new Error(`final text was ${JSON.stringify(outcome.text)}`);
  if (outcome.toolRuns !== rounds * TOOL_NAMES.length) throw new Error(`tools ran ${outcome.toolRuns} times`);
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const prepare = await frameworks[name].load();
const conversation = await prepare({ scheme, url, rounds });
for (let i = 0; i < Number(warmupsArg); i++) await checked(conversation);
const cpu: number[] = [];
const wall: number[] = [];
for (let i = 0; i < Number(samplesArg); i++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await checked(conversation);
  wall.push(performance.now() - t0);
  const used = process.cpuUsage(cpu0);
  cpu.push((used.user + used.system) / 1000);
}
const sample: ChildSample = {
  cpuMs: median(cpu),
  wallMs: median(wall),
  rssMB: process.resourceUsage().maxRSS / 1024,
};
// Idle keep-alive sockets of some clients would hold the process open for seconds.
process.stdout.write(`${JSON.stringify(sample)}\n`, () => process.exit(0));
