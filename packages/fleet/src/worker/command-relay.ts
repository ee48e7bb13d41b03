import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** What a command printed, and its exit status. */
export interface CommandOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command for the relay: what `execFile` takes. */
export interface Command {
  file: string;
  args: string[];
  cwd: string;
  /** The command's whole environment. */
  env: Record<string, string | undefined>;
}

/**
 * The relay's program (CommonJS for `node -e`): reads one command per line on stdin, starts it,
 * and answers on stdout with one line per command as it ends, in any order, by id.
 */
const RELAY_PROGRAM = `
const { execFile } = require("node:child_process");
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, file, args, cwd, env } = JSON.parse(line);
  execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
    const code = error === null ? 0 : error.code;
    const answer = typeof code === "number" ? { id, code, stdout, stderr } : { id, error: String(error.message) };
    process.stdout.write(JSON.stringify(answer) + "\\n");
  });
});`;

interface Answer {
  id: number;
  code: number;
  stdout: string;
  stderr: string;
  /** Set when the command could not be started or ran over its output limit. */
  error?: string;
}

/**
 * A small Node process that starts a worker's git commands for it. Starting a process copies the
 * page tables of the process that starts it, on that process's thread: from a worker holding a Pod
 * (a few hundred MB) that is ~5 ms of its event loop per command, two to three per run, and the
 * copy is thrown away by the `exec` that follows. The relay is a fresh Node of ~50 MB, so a command
 * costs it a fifth of that, off the worker's thread. One relay per process, started on first use,
 * holding the event loop open only while a command runs; it exits when the worker does (its stdin
 * closes), and a relay that died is replaced by the next command.
 */
class CommandRelay {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<
    number,
    { resolve(outcome: CommandOutcome): void; reject(error: Error): void }
  >();
  #lastId = 0;

  constructor(onGone: () => void) {
    // The worker's NODE_OPTIONS (a loader, a heap size) are for it, not for this small program.
    const { NODE_OPTIONS: _, ...env } = process.env;
    this.#child = spawn(process.execPath, ["-e", RELAY_PROGRAM], { env, stdio: ["pipe", "pipe", "inherit"] });
    const gone = (reason: string) => {
      onGone();
      for (const { reject } of this.#waiting.values()) reject(new Error(`the command relay ${reason}`));
      this.#waiting.clear();
    };
    this.#child.on("error", (error) => gone(`failed: ${error.message}`));
    this.#child.on("exit", (code, signal) => gone(`exited (${signal ?? code})`));
    // Writing to a relay that died: its exit rejects what waits.
    this.#child.stdin?.on("error", () => undefined);
    createInterface({ input: this.#child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const answer = JSON.parse(line) as Answer;
      const waiting = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if (answer.error !== undefined) waiting?.reject(new Error(answer.error));
      else waiting?.resolve({ code: answer.code, stdout: answer.stdout, stderr: answer.stderr });
      if (this.#waiting.size === 0) this.#holdEventLoop(false);
    });
    this.#holdEventLoop(false);
  }

  run(command: Command): Promise<CommandOutcome> {
    return new Promise((resolve, reject) => {
      this.#lastId += 1;
      if (this.#waiting.size === 0) this.#holdEventLoop(true);
      this.#waiting.set(this.#lastId, { resolve, reject });
      this.#child.stdin?.write(`${JSON.stringify({ id: this.#lastId, ...command })}\n`);
    });
  }

  /** An idle relay must not keep its worker's process alive. */
  #holdEventLoop(hold: boolean): void {
    for (const handle of [this.#child, this.#child.stdin, this.#child.stdout] as unknown as Array<{
      ref(): void;
      unref(): void;
    }>)
      if (hold) handle.ref();
      else handle.unref();
  }
}

let relay: CommandRelay | undefined;

/**
 * Runs `command` from this process's relay; rejects only when it could not be run (or printed
 * more than 64 MiB), never for its exit status.
 */
export function runCommand(command: Command): Promise<CommandOutcome> {
  if (relay === undefined) {
    const started: CommandRelay = new CommandRelay(() => {
      if (relay === started) relay = undefined;
    });
    relay = started;
  }
  return relay.run(command);
}
