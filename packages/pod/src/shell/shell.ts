import path from "node:path";
import { errorMessage } from "@yoake/llm-worker/internal";
import type { ShellLimits, ShellSettings } from "../manifest/resolve.js";
import { bashArgv, type SandboxStatus, unconfinedLaunch } from "./sandbox.js";
import { type ShellEnd, ShellProcess } from "./shell-process.js";

/** What a foreground command keeps of its output: the start and, mostly, the end. */
const FOREGROUND_HEAD_BYTES = 256 * 1024;
const FOREGROUND_TAIL_BYTES = 768 * 1024;
/** A background command keeps only its latest output, for `bash_output` to read. */
const BACKGROUND_TAIL_BYTES = 1024 * 1024;
/** Background commands of one Pod running at once. */
export const MAX_BACKGROUND_JOBS = 16;

export interface ShellOptions {
  /** The project root: commands run there unless `cwd` says otherwise. */
  root: string;
  /** The session's directory; `cd` in a command does not change it. */
  cwd?: string;
  settings: ShellSettings;
  /** The start-up probe's verdict: without a sandbox, commands run unconfined (after approval). */
  status: SandboxStatus;
  /** The whole environment of every command (see `commandEnv`). */
  env: Readonly<Record<string, string>>;
}

/** A command started with `run_in_background`, and how far `bash_output` has read it. */
export interface BackgroundJob {
  id: string;
  command: string;
  process: ShellProcess;
  /** Bytes of output already returned by `bash_output`. */
  readOffset: number;
  end?: ShellEnd;
  /** What the Shell removed after it ended (`Shell.afterEnd`), set with `end`. */
  removed?: string[];
  /** Resolves once `end` and `removed` are set. */
  finished: Promise<void>;
}

/**
 * The Pod's shell: starts each command confined by the sandbox (or unconfined, when the probe
 * found none and the user approved it), keeps the background ones, and kills everything still
 * running when the Pod closes.
 */
export class Shell {
  private readonly running = new Set<ShellProcess>();
  /** Each command's cleanup after it ended, until the Shell closes. */
  private readonly settled = new WeakMap<ShellProcess, Promise<string[]>>();
  private readonly jobs = new Map<string, BackgroundJob>();
  private nextJob = 1;
  private closed = false;

  constructor(private readonly options: ShellOptions) {}

  /** Whether commands run in the sandbox. */
  get sandboxed(): boolean {
    return this.options.status.ok;
  }

  /** The resource limits commands run under; undefined when nothing applies them (no sandbox, macOS). */
  get limits(): ShellLimits | undefined {
    return this.options.status.ok ? this.options.status.sandbox.limits : undefined;
  }

  get settings(): ShellSettings {
    return this.options.settings;
  }

  /** Starts a foreground command; `onOutput` gets its output as it comes. */
  async start(command: string, onOutput?: (text: string) => void): Promise<ShellProcess> {
    return this.spawn(command, {
      headBytes: FOREGROUND_HEAD_BYTES,
      tailBytes: FOREGROUND_TAIL_BYTES,
      ...(onOutput !== undefined && { onOutput }),
    });
  }

  /** Starts a command that outlives the call; `bash_output` reads it by the returned job's id. */
  async startBackground(command: string): Promise<BackgroundJob> {
    const live = [...this.jobs.values()].filter((job) => job.process.running).length;
    if (live >= MAX_BACKGROUND_JOBS)
      throw new Error(
        `${live} background commands are running already; stop one with bash_output (kill: true) first`,
      );
    const process = await this.spawn(command, { headBytes: 0, tailBytes: BACKGROUND_TAIL_BYTES });
    const job: BackgroundJob = {
      id: `bg${this.nextJob++}`,
      command,
      process,
      readOffset: 0,
      finished: Promise.all([process.done, this.afterEnd(process)]).then(([end, removed]) => {
        job.removed = removed;
        job.end = end;
      }),
    };
    this.jobs.set(job.id, job);
    return job;
  }

  /**
   * Once `process` has ended: what the sandbox's sweep removed after it (a `.git` the command
   * made), one line each for the model; empty when nothing was or there is no sandbox.
   */
  afterEnd(process: ShellProcess): Promise<string[]> {
    return this.settled.get(process) ?? Promise.resolve([]);
  }

  job(id: string): BackgroundJob | undefined {
    return this.jobs.get(id);
  }

  /**
   * Kills every command still running, foreground and background, and waits for the sweep after
   * each; no command starts after.
   */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running];
    for (const process of all) process.kill("closed");
    await Promise.all(all.map((process) => this.afterEnd(process)));
  }

  private async spawn(
    command: string,
    output: { headBytes: number; tailBytes: number; onOutput?: (text: string) => void },
  ): Promise<ShellProcess> {
    if (this.closed) throw closing();
    const { status, env, root } = this.options;
    const cwd = path.resolve(root, this.options.cwd ?? ".");
    const argv = bashArgv(command);
    const launch = status.ok ? await status.sandbox.launch(argv, cwd, env) : unconfinedLaunch(argv, cwd, env);
    // `close` may have come while the launch was prepared: it has killed what was running then,
    // and a command started now would outlive the Pod.
    if (this.closed) {
      await launch.settle?.();
      throw closing();
    }
    const process = new ShellProcess(launch, output);
    this.running.add(process);
    const settled = process.done
      .then(() => launch.settle?.() ?? [])
      .catch((error: unknown) => [`the cleanup after the command failed: ${errorMessage(error)}`])
      .finally(() => this.running.delete(process));
    this.settled.set(process, settled);
    return process;
  }
}

function closing(): Error {
  return new Error("the Pod is closing: no command can start");
}
