import { type SpawnOptions, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { errorMessage } from "@yoake/llm-worker/internal";

/** How a hook's command ended. Output is kept up to `MAX_CAPTURED_BYTES` per stream. */
export type CommandOutcome =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  /** Ended by a signal it did not ask for (killed from outside, crashed). */
  | { kind: "signaled"; signal: string; stdout: string; stderr: string }
  /** Still running at the time limit: its whole process group was killed. */
  | { kind: "timeout"; stdout: string; stderr: string }
  /** The shell could not be started at all. */
  | { kind: "spawn_failed"; message: string };

/**
 * What to start: a command line for the system shell on the host, or a program with its arguments
 * started as it is (the sandbox, which runs the shell inside), with the bytes it reads on fd 3
 * (the sandbox's seccomp filter, see `ShellLaunch.fd3`).
 */
export type HookProgram = string | { file: string; args: readonly string[]; fd3?: Uint8Array };

export interface RunCommandOptions {
  /** Written to the command's standard input, which is then closed. */
  input: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
}

/** A hook answers in a line of JSON; more than this is not an answer, and is not kept. */
export const MAX_CAPTURED_BYTES = 64 * 1024;

/**
 * How long to wait for the output pipes to close once the shell exited: a hook that started a
 * background process sharing its stdout is done when the shell is, not when that process is.
 */
const PIPE_GRACE_MS = 200;

/**
 * Runs a hook's program (a command line: by `/bin/sh -c` on Unix, `cmd.exe` on Windows) with
 * `input` on stdin, and never rejects. The program gets its own process group, so at the time limit
 * the shell and everything it started are killed together (in bubblewrap, killing the group kills
 * the sandbox's init, and the PID namespace with it), and nothing is left waiting on the turn.
 */
export function runHookCommand(program: HookProgram, options: RunCommandOptions): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const groupKill = process.platform !== "win32";
    let child: ReturnType<typeof spawn>;
    try {
      const spawnOptions: SpawnOptions = {
        cwd: options.cwd,
        env: options.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: groupKill,
      };
      const fd3 = typeof program === "string" ? undefined : program.fd3;
      if (fd3 !== undefined) spawnOptions.stdio = ["pipe", "pipe", "pipe", "pipe"];
      child =
        typeof program === "string"
          ? spawn(program, { ...spawnOptions, shell: true })
          : spawn(program.file, [...program.args], spawnOptions);
      const extra = child.stdio[3] as Writable | null | undefined;
      if (fd3 !== undefined && extra) {
        // A program that fails before reading it closes the pipe: that failure is what it says.
        extra.on("error", () => {});
        extra.end(fd3);
      }
    } catch (error) {
      resolve({ kind: "spawn_failed", message: errorMessage(error) });
      return;
    }
    const stdout = new CappedText();
    const stderr = new CappedText();
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let graceTimer: NodeJS.Timeout | undefined;

    const settle = (outcome: CommandOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(limitTimer);
      clearTimeout(graceTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(outcome);
    };
    const finish = (): void => {
      if (exit === undefined) return;
      const { code, signal } = exit;
      if (code !== null) settle({ kind: "exited", code, stdout: stdout.text(), stderr: stderr.text() });
      else
        settle({
          kind: "signaled",
          signal: signal ?? "unknown",
          stdout: stdout.text(),
          stderr: stderr.text(),
        });
    };
    const killAll = (): void => {
      try {
        if (groupKill && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    };

    const limitTimer = setTimeout(() => {
      killAll();
      settle({ kind: "timeout", stdout: stdout.text(), stderr: stderr.text() });
    }, options.timeoutMs);

    child.on("error", (error) => {
      killAll();
      settle({ kind: "spawn_failed", message: errorMessage(error) });
    });
    child.stdout?.on("data", (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.add(chunk));
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      graceTimer = setTimeout(finish, PIPE_GRACE_MS);
    });
    child.on("close", finish);
    // A command that does not read its input closes the pipe early: that is its right, not a failure.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input);
  });
}

/** Collects a stream's bytes up to the cap; decodes once, at the end. */
class CappedText {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;

  add(chunk: Buffer): void {
    if (this.bytes >= MAX_CAPTURED_BYTES) return;
    const room = MAX_CAPTURED_BYTES - this.bytes;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks, this.bytes).toString("utf8");
  }
}
