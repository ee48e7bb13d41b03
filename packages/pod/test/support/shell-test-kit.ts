/**
 * Shared pieces of the shell tests: a real project in a temporary directory, its manifest loaded
 * as a Pod loads it, and the real `bash` tool on a real Shell (bubblewrap, unless the PATH given
 * has none). Calls go through the tool's own argument parsing, as the model's do. Not a test file.
 */
import {
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
import type { Tool } from "@yoake/llm-worker";
import type { ToolResultValue } from "@yoake/llm-worker/internal";
import { afterEach } from "vitest";
import { loadManifest } from "../../src/manifest/load.js";
import type { Manifest } from "../../src/manifest/resolve.js";
import type { ManifestLayerInput } from "../../src/manifest/schema.js";
import { createBashTools } from "../../src/shell/bash-tool.js";
import { openShell } from "../../src/shell/open-shell.js";
import type { Shell } from "../../src/shell/shell.js";

export interface ShellBed {
  /** Holds `project/`, `home/` and `outside/` (not in the scope). */
  base: string;
  project: string;
  outside: string;
  manifest: Manifest;
  shell: Shell;
  warnings: string[];
  /** Calls `bash` as the model would; returns its result text (a refused call throws). */
  bash(
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; progress?: (text: string) => void },
  ): Promise<string>;
  bashOutput(args: Record<string, unknown>): Promise<string>;
  /** Closes the shell and removes the directory (done after each test unless `shared`). */
  dispose(): Promise<void>;
}

export interface ShellBedOptions {
  overrides?: ManifestLayerInput;
  /** The Pod's environment (default: PATH of this process, HOME in the bed), or a function of the bed's base. */
  env?: Record<string, string> | ((base: string) => Record<string, string>);
  /** Files of the project, made before the manifest is loaded. */
  files?: Record<string, string>;
  /** Where the bed's directory is made (default: the system's temporary directory). */
  parentDir?: string;
  /** Kept across the tests of a file (made in `beforeAll`): the caller disposes of it. */
  shared?: boolean;
  /** Called once the directories and files exist, before the manifest is loaded and the shell probed. */
  prepare?: (dirs: { base: string; project: string }) => void;
}

const open: ShellBed[] = [];

afterEach(async () => {
  for (const bed of open.splice(0)) await bed.dispose();
});

/** A project with `.git`, a Shell from its manifest and the `bash` tools; closed after the test. */
export async function shellBed(options: ShellBedOptions = {}): Promise<ShellBed> {
  const base = realpathSync(mkdtempSync(path.join(options.parentDir ?? tmpdir(), "yoake-shell-")));
  const project = path.join(base, "project");
  const outside = path.join(base, "outside");
  for (const dir of [path.join(project, ".git"), path.join(base, "home"), outside])
    mkdirSync(dir, { recursive: true });
  for (const [relative, content] of Object.entries(options.files ?? {})) {
    const file = path.join(project, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  // The environment first: a `prepare` may plant files where it points (HOME).
  const env =
    typeof options.env === "function"
      ? options.env(base)
      : (options.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: path.join(base, "home") });
  options.prepare?.({ base, project });
  const manifest = await loadManifest({
    cwd: project,
    env,
    overrides: { model: { scheme: "anthropic", id: "m" }, ...options.overrides },
  });
  const opened = await openShell(manifest, project, env);
  if (opened.shell === undefined) throw new Error(`no shell: ${opened.warnings.join("; ")}`);
  const shell = opened.shell;
  const [bashTool, outputTool] = createBashTools(shell) as [Tool, Tool];
  const call = async (
    tool: Tool,
    raw: Record<string, unknown>,
    options: { signal?: AbortSignal; progress?: (text: string) => void } = {},
  ): Promise<string> => {
    const parsed = tool.parseArguments(raw);
    if (!parsed.ok) throw new Error(parsed.error);
    const result: ToolResultValue = await tool.execute(parsed.value, {
      signal: options.signal ?? new AbortController().signal,
      callId: "call",
      toolName: tool.name,
      ...(options.progress !== undefined && { progress: options.progress }),
    });
    return typeof result === "string" ? result : JSON.stringify(result);
  };
  const bed: ShellBed = {
    base,
    project,
    outside,
    manifest,
    shell,
    warnings: opened.warnings,
    bash: (args, callOptions) => call(bashTool, args, callOptions),
    bashOutput: (args) => call(outputTool, args),
    dispose: async () => {
      await shell.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
  if (options.shared !== true) open.push(bed);
  return bed;
}

/** The exit code a `bash` result reports, or undefined when it was killed. */
export function exitCode(result: string): number | undefined {
  const match = /\n?\[exit code (\d+) · /.exec(result);
  return match === null ? undefined : Number(match[1]);
}

/** The PIDs of the processes on this machine whose command line (NUL-separated) `matches`. */
export function processesWhere(matches: (cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (matches(readFileSync(`/proc/${pid}/cmdline`, "utf8"))) pids.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** A PATH directory made at `dir` with every program of /usr/bin but bwrap: no sandbox works on it. */
export function pathWithoutBwrap(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync("/usr/bin")) {
    if (name !== "bwrap") symlinkSync(path.join("/usr/bin", name), path.join(dir, name));
  }
  return dir;
}
