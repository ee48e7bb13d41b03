/**
 * One sample of each start-up scenario: a fresh process of the installed packages, timed from its
 * spawn to the moment the scenario names. Wall-clock milliseconds.
 */
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import type { MockProvider } from "@yoake/llm-worker/testing";

export interface Setup {
  /** The scratch project the tarballs are installed in. */
  app: string;
  /** `node_modules/yoake/bin/yoake.js` there: what a global install's shebang runs. */
  bin: string;
  /** A project for the agent, its HOME, and the variables that point it at the mock provider. */
  project: string;
  env: Record<string, string>;
  provider: MockProvider;
}

export type Scenario = (setup: Setup) => Promise<number>;

/** Spawn to exit. */
function untilExit(args: readonly string[], setup: Setup, cwd = setup.app): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, env: setup.env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      const elapsed = performance.now() - started;
      if (code === 0) resolve(elapsed);
      else reject(new Error(`node ${args.join(" ")} exited ${code}: ${stderr}`));
    });
  });
}

/** Bare Node: the unit of every ratio. */
export const bareNode: Scenario = (setup) => untilExit(["-e", "0"], setup);

/** `yoake --version`, to its exit. */
export const version: Scenario = (setup) => untilExit([setup.bin, "--version"], setup);

/** The library imported and a client created, to the process's exit. */
export const libraryImport: Scenario = (setup) =>
  untilExit(
    [
      "--input-type=module",
      "-e",
      'const { createClient } = await import("@yoake/llm-worker");\n' +
        'createClient({ scheme: "anthropic", model: "claude-sonnet-4-5", apiKey: "unused" });',
    ],
    setup,
  );

/** `yoake -p`, until the mock provider receives its request (the run then finishes, untimed). */
export const headless: Scenario = (setup) =>
  new Promise((resolve, reject) => {
    let received: number | undefined;
    setup.provider.setHandler(() => {
      received ??= performance.now();
      return { blocks: [{ type: "text", text: "ok" }] };
    });
    const started = performance.now();
    const child = spawn(process.execPath, [setup.bin, "-p", "hi"], {
      cwd: setup.project,
      env: setup.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0 && received !== undefined) resolve(received - started);
      else reject(new Error(`yoake -p exited ${code}: ${stderr}`));
    });
  });

/** What every first frame of the terminal UI shows: the input box's hint. */
const FIRST_FRAME = "/help";

/**
 * `yoake` in a terminal (a pseudo-terminal from util-linux `script`), until the UI's first frame
 * is written; then the UI is closed. `script` itself adds a few milliseconds, counted here.
 */
export const terminalUi: Scenario = (setup) =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    // The pseudo-terminal has no size until it is given one; ink lays out for its width.
    const command = `stty cols 120 rows 40; exec ${quote(process.execPath)} ${quote(setup.bin)}`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: setup.project,
      env: { ...setup.env, TERM: "xterm-256color" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let shown = "";
    let elapsed: number | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      shown += chunk;
      if (elapsed === undefined && shown.includes(FIRST_FRAME)) {
        elapsed = performance.now() - started;
        child.stdin.write("\u0004"); // Ctrl-D: the UI's own way out.
      }
    });
    const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(deadline);
      if (elapsed !== undefined) resolve(elapsed);
      else reject(new Error(`the terminal UI showed no first frame:\n${shown}`));
    });
  });

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
