import { type ChildProcess, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { errorMessage } from "@yoake/llm-worker/internal";
import { OutputLog } from "./output-log.js";
import { watchSandboxProcesses } from "./process-watch.js";

/** How to start one command: the program (bash, or the sandbox that starts bash), where, with what. */
export interface ShellLaunch {
  file: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment of the command: nothing of the Pod's own is inherited. */
  env: Readonly<Record<string, string>>;
  /**
   * To be called once when the command has ended (or was never started): cleans up what the
   * command must not leave behind and says what it removed, one line each.
   */
  settle?: () => Promise<string[]>;
  /**
   * Bytes the program reads from its file descriptor 3, a pipe closed after them (bwrap's
   * `--seccomp 3`). Without it the program has no fd 3.
   */
  fd3?: Uint8Array;
  /**
   * Kill the command when its bubblewrap sandbox holds more processes than this (see
   * `watchSandboxProcesses`): where RLIMIT_NPROC does not apply, for root.
   */
  processLimit?: number;
}

/** Why the Pod killed a command. */
export type KillReason = "timeout" | "aborted" | "closed" | "stopped" | "process_limit";

/** How a command ended. */
export type ShellEnd =
  | { kind: "exited"; code: number }
  /** Ended by a signal nobody here sent (it killed itself, or crashed). */
  | { kind: "signaled"; signal: string }
  /** The Pod killed its whole process group. */
  | { kind: "killed"; reason: KillReason }
  | { kind: "spawn_failed"; message: string };

export interface ShellProcessOptions {
  /** Each piece of output as it arrives, decoded (stdout and stderr interleaved). */
  onOutput?: (text: string) => void;
  /** What `output` keeps of the start and of the end (bytes). */
  headBytes: number;
  tailBytes: number;
}

/**
 * How long to wait for the output pipe to close once the command's process group is gone: an
 * unsandboxed process that made itself a new session keeps the pipe open and is not waited for.
 */
const PIPE_GRACE_MS = 500;

/**
 * One running command. It gets its own process group (its own session), and when it ends,
 * times out, is aborted or the Pod closes, the whole group is killed with SIGKILL: a
 * background process started with `&` does not outlive the call. In the sandbox the command is
 * also the init of its own PID namespace, whose death takes every process in it along.
 *
 * Standard input is /dev/null; stdout and stderr are one pipe, so the output is interleaved in the
 * order it was written.
 */
export class ShellProcess {
  readonly output: OutputLog;
  readonly done: Promise<ShellEnd>;
  readonly startedAt = performance.now();
  private child: ChildProcess | undefined;
  private killedFor: KillReason | undefined;
  private ended = false;

  constructor(launch: ShellLaunch, options: ShellProcessOptions) {
    this.output = new OutputLog(options.headBytes, options.tailBytes);
    this.done = new Promise<ShellEnd>((resolve) => {
      const settle = (end: ShellEnd): void => {
        if (this.ended) return;
        this.ended = true;
        resolve(end);
      };
      try {
        this.child = spawn(launch.file, [...launch.args], {
          cwd: launch.cwd,
          env: { ...launch.env },
          // `bashArgv` sends stderr into stdout; the stderr pipe still catches what the sandbox says.
          stdio: launch.fd3 === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", "pipe", "pipe", "pipe"],
          detached: true,
        });
        const input = this.child.stdio[3] as Writable | null | undefined;
        if (launch.fd3 !== undefined && input) {
          // A program that fails before reading it closes the pipe: that failure is what it says.
          input.on("error", () => {});
          input.end(launch.fd3);
        }
      } catch (error) {
        settle({ kind: "spawn_failed", message: errorMessage(error) });
        return;
      }
      const child = this.child;
      const stopWatching =
        launch.processLimit !== undefined && child.pid !== undefined
          ? watchSandboxProcesses(child.pid, launch.processLimit, () => this.kill("process_limit"))
          : () => {};
      const decoder = new StringDecoder("utf8");
      const take = (chunk: Buffer): void => {
        this.output.add(chunk);
        const text = decoder.write(chunk);
        if (text !== "") options.onOutput?.(text);
      };
      child.stdout?.on("data", take);
      child.stderr?.on("data", take);
      let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      let grace: NodeJS.Timeout | undefined;
      const finish = (): void => {
        if (exit === undefined) return;
        clearTimeout(grace);
        child.stdout?.destroy();
        child.stderr?.destroy();
        const rest = decoder.end();
        if (rest !== "") options.onOutput?.(rest);
        if (this.killedFor !== undefined) settle({ kind: "killed", reason: this.killedFor });
        else if (exit.code !== null) settle({ kind: "exited", code: exit.code });
        else settle({ kind: "signaled", signal: exit.signal ?? "unknown" });
      };
      child.on("error", (error) => {
        stopWatching();
        this.killGroup();
        settle({ kind: "spawn_failed", message: errorMessage(error) });
      });
      child.on("exit", (code, signal) => {
        exit = { code, signal };
        stopWatching();
        // What the command left running in its group goes with it.
        this.killGroup();
        grace = setTimeout(finish, PIPE_GRACE_MS);
      });
      child.on("close", finish);
    });
  }

  get running(): boolean {
    return !this.ended;
  }

  /** Kills the command and everything in its process group; `done` then says why. */
  kill(reason: KillReason): void {
    if (this.ended) return;
    this.killedFor ??= reason;
    this.killGroup();
  }

  private killGroup(): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
  }
}
