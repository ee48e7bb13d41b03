import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import { limitHints } from "./limit-hints.js";
import type { Shell } from "./shell.js";
import type { ShellEnd } from "./shell-process.js";

export const BASH_TOOL_NAME = "bash";
export const BASH_OUTPUT_TOOL_NAME = "bash_output";

/** Beyond the longest time limit, how long the Worker waits before it gives up on the call itself. */
const WORKER_GRACE_MS = 30_000;

function bashInput(maxTimeoutMs: number) {
  return z.object({
    command: z.string().min(1).describe("The command, run with bash -c"),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(maxTimeoutMs)
      .optional()
      .describe(`Time limit in milliseconds (at most ${maxTimeoutMs})`),
    description: z.string().optional().describe("What the command does, in a few words, for the user"),
    run_in_background: z
      .boolean()
      .optional()
      .describe("Start it and return at once with an id; read its output later with bash_output"),
  });
}

export type BashArguments = z.output<ReturnType<typeof bashInput>>;

const bashOutputInput = z.object({
  id: z.string().min(1).describe("The id bash returned for a run_in_background command"),
  kill: z.boolean().optional().describe("Stop the command (and everything it started)"),
});

export type BashOutputArguments = z.output<typeof bashOutputInput>;

/**
 * `bash` and `bash_output`: commands in the project directory (a `cd` does not carry over to the
 * next call), confined by the sandbox compiled from the scope. The result is the output, stdout
 * and stderr interleaved, with the exit code and the duration; the output also streams to the
 * user as `tool_progress` while the command runs. At the time limit, on abort and when the Pod
 * closes the command's whole process group is killed and the result says so.
 */
export function createBashTools(shell: Shell): Tool[] {
  const { timeoutMs: defaultTimeoutMs, maxTimeoutMs, network } = shell.settings;
  const where = shell.sandboxed
    ? [
        "Commands run in a sandbox: the file system is read-only except what the scope lets you write (.git and .yoake stay read-only),",
        "secret files (.env, private keys: scope.secret_files) cannot be opened, a .git a command creates is removed when it ends,",
        "/tmp is private and starts empty,",
        network ? "the network is reachable," : "there is no network,",
        "and processes outside the sandbox cannot be seen.",
        shell.limits === undefined
          ? ""
          : `Each command may run ${shell.limits.processes} processes, each using ${shell.limits.memoryMb} MiB of memory and writing files of at most ${shell.limits.fileSizeMb} MiB; /tmp holds ${shell.limits.tmpMb} MiB.`,
      ]
        .filter((part) => part !== "")
        .join(" ")
    : "There is no sandbox on this machine: the user approves every command.";
  const bash = tool({
    name: BASH_TOOL_NAME,
    description: [
      "Run a shell command with bash -c in the project directory and return its output (stdout and stderr interleaved), exit code and duration.",
      "Each call starts in the project directory: cd does not carry over between calls. Standard input is /dev/null.",
      `The time limit is ${defaultTimeoutMs} ms unless timeout_ms says otherwise; at the limit the command and everything it started are killed.`,
      "Processes started with & are killed when the command ends; use run_in_background for a server or watcher, and bash_output to read it.",
      where,
      "Prefer read_file, grep, glob and edit_file for reading and changing files.",
    ].join(" "),
    input: bashInput(maxTimeoutMs),
    timeoutMs: maxTimeoutMs + WORKER_GRACE_MS,
    async execute(args, context) {
      if (args.run_in_background === true) {
        const job = await shell.startBackground(args.command);
        return `Started in the background as ${job.id}. Read its output with bash_output({"id": "${job.id}"}).`;
      }
      const timeoutMs = args.timeout_ms ?? defaultTimeoutMs;
      const progress = context.progress && coalesced(context.progress);
      const process = await shell.start(args.command, progress?.add);
      const timer = setTimeout(() => process.kill("timeout"), timeoutMs);
      const onAbort = (): void => process.kill("aborted");
      context.signal.addEventListener("abort", onAbort, { once: true });
      if (context.signal.aborted) onAbort();
      let end: ShellEnd;
      try {
        end = await process.done;
      } finally {
        clearTimeout(timer);
        context.signal.removeEventListener("abort", onAbort);
        progress?.flush();
      }
      if (end.kind === "spawn_failed") throw new Error(`the command could not be started: ${end.message}`);
      const seconds = ((performance.now() - process.startedAt) / 1000).toFixed(1);
      const output = process.output.since(0);
      const body = output === "" ? "(no output)" : output.endsWith("\n") ? output.slice(0, -1) : output;
      const sandbox = shell.sandboxed ? "" : " · not sandboxed";
      const removed = (await shell.afterEnd(process)).map((line) => `${line}\n`).join("");
      return `${body}\n${removed}[${describeEnd(end, timeoutMs)} · ${seconds} s${sandbox}]${hintsFor(shell, end, output)}`;
    },
  });
  const bashOutput = tool({
    name: BASH_OUTPUT_TOOL_NAME,
    description:
      "Read what a run_in_background command wrote since the last read, and whether it still runs; kill: true stops it.",
    input: bashOutputInput,
    timeoutMs: 10_000,
    async execute({ id, kill }) {
      const job = shell.job(id);
      if (job === undefined) throw new Error(`no background command ${JSON.stringify(id)}`);
      if (kill === true && job.process.running) {
        job.process.kill("stopped");
        await job.process.done;
      }
      // Its end is told with what the sweep after it removed, once that is done.
      if (!job.process.running) await job.finished;
      const log = job.process.output;
      const text = log.since(job.readOffset);
      job.readOffset = log.totalBytes;
      const state = job.end === undefined ? "still running" : describeEnd(job.end, 0);
      const removed = job.end === undefined ? "" : (job.removed ?? []).map((line) => `${line}\n`).join("");
      const hints = job.end === undefined ? "" : hintsFor(shell, job.end, text);
      return `${text === "" ? "(no new output)" : text}\n${removed}[${job.id}: ${state}]${hints}`;
    },
  });
  return [bash, bashOutput] as Tool[];
}

/** Output arriving faster than this is sent as one progress event: a flood of tiny events helps nobody. */
const PROGRESS_INTERVAL_MS = 50;

/** Gathers output pieces and hands them to `report` at most every PROGRESS_INTERVAL_MS. */
function coalesced(report: (text: string) => void): { add: (text: string) => void; flush: () => void } {
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === "") return;
    const text = pending;
    pending = "";
    report(text);
  };
  return {
    add: (text) => {
      pending += text;
      timer ??= setTimeout(flush, PROGRESS_INTERVAL_MS);
    },
    flush,
  };
}

/** The limits a command ran into, one bracketed line each after the end (see `limitHints`). */
function hintsFor(shell: Shell, end: ShellEnd, output: string): string {
  const limits = shell.limits;
  if (limits === undefined) return "";
  return limitHints(end, output, limits)
    .map((hint) => `\n[${hint}]`)
    .join("");
}

/** How a command ended, as the model reads it. */
function describeEnd(end: ShellEnd, timeoutMs: number): string {
  switch (end.kind) {
    case "exited":
      return `exit code ${end.code}`;
    case "signaled":
      return `ended by signal ${end.signal}`;
    case "spawn_failed":
      return `could not start: ${end.message}`;
    case "killed":
      switch (end.reason) {
        case "timeout":
          return `killed: still running after the ${timeoutMs} ms time limit; the command and every process it started were stopped`;
        case "aborted":
          return "killed: the user stopped the run; the command and every process it started were stopped";
        case "closed":
          return "killed: the Pod closed";
        case "stopped":
          return "killed on request";
        case "process_limit":
          return "killed: it ran more processes at once than the sandbox allows; the command and every process it started were stopped";
      }
  }
}
