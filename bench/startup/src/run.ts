/**
 * Start-up benchmark: the packages packed and installed as a user installs them, then fresh
 * processes of each scenario, interleaved with bare `node -e 0` in every round so that machine
 * noise hits them alike. Prints the medians and each one's ratio to bare Node's median.
 *
 *   npm run bench:startup            (STARTUP_ROUNDS=<n>, default 15)
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { startMockProvider } from "@yoake/llm-worker/testing";
import {
  buildAndPack,
  createScratch,
  installTarballs,
  npmLocations,
  userEnv,
} from "../../../test/install/scratch.js";
import {
  bareNode,
  headless,
  libraryImport,
  type Scenario,
  type Setup,
  terminalUi,
  version,
} from "./scenarios.js";

interface Row {
  label: string;
  scenario: Scenario;
  /** The target, as a ratio to bare Node; none for the terminal UI. */
  target?: number;
}

const ROWS: Row[] = [
  { label: "`node -e 0`", scenario: bareNode },
  { label: "`yoake --version`", scenario: version, target: 2 },
  { label: "`yoake -p`, until the provider receives the request", scenario: headless, target: 4 },
  { label: "`yoake`, until the terminal UI's first frame", scenario: terminalUi },
  { label: '`import("@yoake/llm-worker")` and `createClient`', scenario: libraryImport, target: 1.5 },
];

const ROUNDS = Number(process.env.STARTUP_ROUNDS ?? 15);

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const scratch = createScratch();
const provider = await startMockProvider();
try {
  const tarballs = path.join(scratch.root, "tarballs");
  mkdirSync(tarballs);
  process.stderr.write("building, packing and installing the packages...\n");
  await installTarballs(scratch.app, await buildAndPack(tarballs));
  const project = path.join(scratch.root, "project");
  mkdirSync(path.join(project, ".yoake"), { recursive: true });
  const setup: Setup = {
    app: scratch.app,
    bin: path.join(scratch.app, "node_modules/yoake/bin/yoake.js"),
    project,
    provider,
    env: userEnv({
      ...npmLocations(),
      HOME: scratch.home,
      ANTHROPIC_API_KEY: "bench-key",
      ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
    }),
  };

  // One unmeasured round: the OS's file cache holds everything afterwards, as on a second run.
  for (const row of ROWS) await row.scenario(setup);
  const samples = ROWS.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order every round, so no scenario always follows the same one.
    for (let i = 0; i < ROWS.length; i++) {
      const index = (i + round) % ROWS.length;
      samples[index]?.push(await (ROWS[index] as Row).scenario(setup));
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
  }

  const base = median(samples[0] as number[]);
  console.log(`\nStart-up, Node ${process.version}, medians of ${ROUNDS} interleaved rounds\n`);
  console.log("| from spawn | median | × `node -e 0` | target |");
  console.log("|---|---:|---:|---:|");
  for (const [index, row] of ROWS.entries()) {
    const ms = median(samples[index] as number[]);
    const ratio = ms / base;
    const target =
      row.target === undefined ? "" : `≤ ${row.target}× ${ratio <= row.target ? "met" : "NOT met"}`;
    console.log(`| ${row.label} | ${ms.toFixed(0)} ms | ${ratio.toFixed(2)}× | ${target} |`);
  }
} finally {
  await provider.close();
  scratch.remove();
}
