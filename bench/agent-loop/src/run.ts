/**
 * `npm run bench` (agent loop): the same conversation — `rounds` rounds of three parallel tool calls
 * that return at once, then a final answer — run by our Worker and by the other agent frameworks,
 * against one local mock provider that serves every scheme and checks every request. Each
 * measurement is a fresh process (warm-ups, then the median of a few conversations); processes of
 * all contenders are interleaved so machine noise hits them alike. Prints a markdown table per
 * round, with ratios to ours on the same scheme.
 *
 * Environment: AGENT_LOOP_RUNS (processes per contender, default 5), AGENT_LOOP_ROUNDS (50),
 * AGENT_LOOP_WARMUPS (2) and AGENT_LOOP_SAMPLES (3) conversations per process, AGENT_LOOP_WRITE_SIZE
 * (bytes per write of the mock's streams, 256), AGENT_LOOP_SCHEMES and AGENT_LOOP_FRAMEWORKS
 * (comma-separated filters).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startMockProvider } from "@yoake/llm-worker/testing";
import { type BenchScheme, benchSchemes, DEFAULT_ROUNDS } from "./conversation.js";
import { type FrameworkName, frameworkNames, frameworks } from "./frameworks/index.js";
import { conversationHandler } from "./mock-script.js";
import { type CaseResult, type ChildSample, formatTable } from "./table.js";

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const RUNS = env("AGENT_LOOP_RUNS", 5);
const ROUNDS = env("AGENT_LOOP_ROUNDS", DEFAULT_ROUNDS);
const WARMUPS = env("AGENT_LOOP_WARMUPS", 2);
const SAMPLES = env("AGENT_LOOP_SAMPLES", 3);
const WRITE_SIZE = env("AGENT_LOOP_WRITE_SIZE", 256);
const onlySchemes = process.env.AGENT_LOOP_SCHEMES?.split(",");
const onlyFrameworks = process.env.AGENT_LOOP_FRAMEWORKS?.split(",");

const child = fileURLToPath(new URL("./child.ts", import.meta.url));
const workspace = fileURLToPath(new URL("..", import.meta.url));

const cases: CaseResult[] = benchSchemes
  .filter((scheme) => !onlySchemes || onlySchemes.includes(scheme))
  .flatMap((scheme) =>
    frameworkNames
      .filter((name) => frameworks[name].schemes.includes(scheme))
      .filter((name) => name === "yoake" || !onlyFrameworks || onlyFrameworks.includes(name))
      .map((name) => ({ name, scheme, samples: [] })),
  );

const mock = await startMockProvider({ writeSize: WRITE_SIZE });
mock.setHandler(conversationHandler(ROUNDS));

function measure(name: FrameworkName, scheme: BenchScheme): Promise<ChildSample> {
  const args = [child, name, scheme, mock.url, ROUNDS, WARMUPS, SAMPLES].map(String);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", "tsx", ...args], { cwd: workspace }, (err, stdout, stderr) =>
      err
        ? reject(new Error(stderr.trim().split("\n").slice(-3).join(" ") || err.message))
        : resolve(JSON.parse(stdout)),
    );
  });
}

for (let run = 0; run < RUNS; run++) {
  // Rotate the order every run so no contender always follows the same neighbour.
  for (let i = 0; i < cases.length; i++) {
    const entry = cases[(i + run) % cases.length] as CaseResult;
    if (entry.error) continue;
    try {
      entry.samples.push(await measure(entry.name, entry.scheme));
    } catch (err) {
      entry.error = (err as Error).message;
      process.exitCode = 1;
    }
  }
  process.stderr.write(`agent-loop bench: run ${run + 1}/${RUNS} done\n`);
}
await mock.close();

console.log(
  `Agent loop: ${ROUNDS} rounds of 3 parallel tool calls + a final answer per conversation; ` +
    `medians of ${RUNS} processes × ${SAMPLES} conversations (after ${WARMUPS} warm-ups), ` +
    `mock writes of ${WRITE_SIZE} bytes, node ${process.version}\n`,
);
console.log(formatTable(cases, ROUNDS));
