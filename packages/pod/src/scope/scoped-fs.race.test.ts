/**
 * The scope against a racing process: a child process swaps directories inside the scope with
 * symbolic links (to a directory outside, to `.git`, to `.yoake`) using renameat2(RENAME_EXCHANGE)
 * in a tight loop, while reads, `@path` references, greps and writes (also into directories they
 * must create) go through the real ScopedFs and tools. Whatever the interleaving, nothing from
 * outside may come back, nothing may be written outside or into `.git`/`.yoake`, and no temporary
 * file may be left anywhere.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTool } from "../../test/support/temp-project.js";
import { resolveFileRef } from "../file-ref/resolver.js";
import { createGrepTool } from "../tools/grep.js";
import { findRipgrep } from "../tools/grep-rg.js";
import { createReadFileTool } from "../tools/read-file.js";
import { ReadTracker } from "../tools/read-tracker.js";
import { createWriteFileTool } from "../tools/write-file.js";
import { ScopedFs } from "./scoped-fs.js";

/** renameat2's number per architecture (Node has no binding for it; perl's `syscall` reaches it). */
const RENAMEAT2: Partial<Record<string, number>> = { x64: 316, arm64: 276 };
const syscallNumber = process.platform === "linux" ? RENAMEAT2[process.arch] : undefined;

const OUTSIDE_MARK = "OUTSIDE-SECRET";
const OUTSIDE_ONLY_NAME = "only-outside.txt";
const FILES = 8;
/** Raced operations through ScopedFs and the tools, greps excluded (they are counted apart). */
const OPERATIONS = 20_000;
const GREPS = 160;
const CONCURRENCY = 24;

/**
 * Exchanges each pair of paths (a directory and a symbolic link) as fast as it can until SIGTERM,
 * then prints how many exchanges it made.
 */
const RACER = `
my ($nr, @pairs) = @ARGV; my $n = 0; $| = 1;
$SIG{TERM} = sub { print "$n\\n"; exit 0 };
print "ready\\n";
while (1) { for (my $i = 0; $i < @pairs; $i += 2) { my ($a, $b) = @pairs[$i, $i + 1]; $n++ if syscall($nr, -100, $a, -100, $b, 2) == 0; } }
`;

let base: string;
let project: string;
let outside: string;

/** Every file below `directory` with its content, links as `-> target`, not following links. */
function snapshot(directory: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const at = path.join(current, entry.name);
      if (entry.isDirectory()) {
        found.set(`${path.relative(directory, at)}/`, "");
        walk(at);
      } else if (entry.isSymbolicLink()) found.set(path.relative(directory, at), "link");
      else found.set(path.relative(directory, at), readFileSync(at, "utf8"));
    }
  };
  walk(directory);
  return found;
}

function temporaryFiles(directory: string): string[] {
  return [...snapshot(directory).keys()].filter((name) => name.endsWith(".tmp"));
}

function put(relative: string, content: string): void {
  const file = path.join(base, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

beforeAll(() => {
  const parent = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  base = realpathSync(mkdtempSync(path.join(parent, "yoake-race-")));
  project = path.join(base, "project");
  outside = path.join(base, "outside");
  put("project/.git/config", "[core]\n");
  put("project/.yoake/manifest.toml", "# manifest\n");
  for (const dir of ["sub", "wsub", "ysub"]) {
    for (let index = 0; index < FILES; index += 1)
      put(`project/${dir}/f${index}.txt`, `INSIDE ${dir} ${index}\n`);
  }
  for (let index = 0; index < FILES; index += 1) put(`outside/f${index}.txt`, `${OUTSIDE_MARK} ${index}\n`);
  put(`outside/${OUTSIDE_ONLY_NAME}`, `${OUTSIDE_MARK} only\n`);
  symlinkSync(outside, path.join(project, "swap"));
  symlinkSync(path.join(project, ".git"), path.join(project, "gitlink"));
  symlinkSync(path.join(project, ".yoake"), path.join(project, "yoakelink"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function startRacer(nr: number): Promise<ChildProcess & { exchanges: Promise<number> }> {
  const pairs = [
    ["sub", "swap"],
    ["wsub", "gitlink"],
    ["ysub", "yoakelink"],
  ].flatMap(([a, b]) => [path.join(project, a as string), path.join(project, b as string)]);
  const child = spawn("perl", ["-e", RACER, String(nr), ...pairs], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.setEncoding("utf8");
  const exchanges = new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", () => resolve(Number(output.split("\n")[1])));
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (output.startsWith("ready\n")) resolve(Object.assign(child, { exchanges }));
    });
  });
}

interface Tally {
  operations: number;
  succeeded: number;
  refused: number;
  /** Greps that found inside files: the search worked while racing, it did not just come back empty. */
  greppedInside: number;
  /** Refusals by the fd verification itself: the swap happened between the check and the open. */
  caughtByVerification: number;
  leaks: string[];
}

describe.skipIf(syscallNumber === undefined)("ScopedFs against a racing renameat2(RENAME_EXCHANGE)", () => {
  it(`leaks nothing, writes nothing outside or into .git/.yoake and leaves no temporary file over ${OPERATIONS} raced operations`, async () => {
    const fs = await ScopedFs.create({
      root: project,
      allow: [{ path: ".", access: "write", recursive: true }],
      deny: [
        { path: ".git", access: "write", recursive: true },
        { path: ".yoake", access: "write", recursive: true },
      ],
    });
    const tracker = new ReadTracker();
    const readTool = createReadFileTool(fs, { tracker });
    const writeTool = createWriteFileTool(fs, { tracker });
    const engine = (await findRipgrep()) === undefined ? "js" : "rg";
    const grepTool = createGrepTool(fs, { engine });
    const protectedBefore = {
      outside: snapshot(outside),
      git: snapshot(path.join(project, ".git")),
      yoake: snapshot(path.join(project, ".yoake")),
    };

    const tally: Tally = {
      operations: 0,
      succeeded: 0,
      refused: 0,
      greppedInside: 0,
      caughtByVerification: 0,
      leaks: [],
    };
    const observe = async (label: string, operation: () => Promise<string | undefined>): Promise<void> => {
      tally.operations += 1;
      let seen: string | undefined;
      try {
        seen = await operation();
        tally.succeeded += 1;
      } catch (error) {
        tally.refused += 1;
        seen = error instanceof Error ? error.message : String(error);
      }
      if (label.startsWith("grep") && /f\d\.txt/.test(seen ?? "")) tally.greppedInside += 1;
      if (seen?.includes("changed while it was being opened")) tally.caughtByVerification += 1;
      if (seen !== undefined && (seen.includes(OUTSIDE_MARK) || seen.includes(OUTSIDE_ONLY_NAME))) {
        tally.leaks.push(`${label}: ${seen.slice(0, 200)}`);
      }
    };
    const dirs = ["sub", "wsub", "ysub"];
    const operation = (index: number): Promise<void> => {
      const dir = dirs[index % dirs.length] as string;
      const file = `${dir}/f${index % FILES}.txt`;
      switch (index % 10) {
        case 0:
        case 1:
          return observe("readFile", () => fs.readFile(file));
        case 2:
          return observe("read_file", () => runTool(readTool, { path: file }));
        case 3:
          return observe("@path", async () => {
            const resolved = await resolveFileRef(fs, index % 20 === 3 ? dir : file);
            return resolved.ok ? resolved.item.text : resolved.message;
          });
        case 4:
          return observe("@path only-outside", async () => {
            const resolved = await resolveFileRef(fs, `${dir}/${OUTSIDE_ONLY_NAME}`);
            return resolved.ok ? resolved.item.text : undefined;
          });
        case 5:
          return observe("readdir", async () => (await fs.readdir(dir)).map((entry) => entry.name).join(" "));
        case 6:
          return observe("writeFile", async () => {
            await fs.writeFile(`${dir}/w${index}.txt`, `written ${index}\n`);
            return undefined;
          });
        case 7:
          return observe("writeFile in new directories", async () => {
            await fs.writeFile(`${dir}/n${index}/deeper/x.txt`, `created ${index}\n`);
            return undefined;
          });
        case 8:
          return observe("write_file", () =>
            runTool(writeTool, { path: `${dir}/t${index}.txt`, content: "tool\n" }),
          );
        default:
          return observe("stat", async () => JSON.stringify(await fs.stat(file)));
      }
    };
    const grep = (index: number): Promise<void> =>
      observe(`grep ${engine}`, () =>
        runTool(grepTool, {
          pattern: "SECRET|INSIDE",
          output_mode: index % 2 === 0 ? "content" : "files_with_matches",
          ...(index % 3 === 0 && { path: "sub" }),
          head_limit: 500,
        }),
      );

    const racer = await startRacer(syscallNumber as number);
    try {
      let next = 0;
      let nextGrep = 0;
      const worker = async (): Promise<void> => {
        for (;;) {
          // One grep per so many operations, spread over the run.
          if (nextGrep < GREPS && next >= (nextGrep * OPERATIONS) / GREPS) {
            await grep(nextGrep++);
            continue;
          }
          if (next >= OPERATIONS) return;
          await operation(next++);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    } finally {
      racer.kill("SIGTERM");
    }
    const exchanges = await racer.exchanges;

    expect(tally.leaks).toEqual([]);
    expect(tally.operations).toBe(OPERATIONS + GREPS);
    // The race was real: the racer swapped all along, and the operations both succeeded and were refused.
    expect(exchanges).toBeGreaterThan(1000);
    expect(tally.succeeded).toBeGreaterThan(OPERATIONS / 10);
    expect(tally.refused).toBeGreaterThan(OPERATIONS / 100);
    expect(tally.caughtByVerification).toBeGreaterThan(0);
    expect(tally.greppedInside).toBeGreaterThan(GREPS / 4);
    expect(snapshot(outside)).toEqual(protectedBefore.outside);
    expect(snapshot(path.join(project, ".git"))).toEqual(protectedBefore.git);
    expect(snapshot(path.join(project, ".yoake"))).toEqual(protectedBefore.yoake);
    expect(temporaryFiles(base)).toEqual([]);
  }, 240_000);
});
