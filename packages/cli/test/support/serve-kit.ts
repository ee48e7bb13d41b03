/**
 * Shared pieces of the `yoake serve` tests: the real `yoake` as child processes with their output
 * gathered, a served project's server started and its socket read from what it prints, replies
 * the mock holds back, and the command line that runs an attached `yoake` in tmux. Not a test file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MockReply } from "@yoake/llm-worker/testing";

/** The real `yoake` of this checkout. */
export const BIN = fileURLToPath(new URL("../../bin/yoake.js", import.meta.url));

export const answer = (text: string): MockReply => ({ blocks: [{ type: "text", text }] });

/** A call that needs approval by default: writing `out.txt`. */
export const writeCall: MockReply = {
  blocks: [
    {
      type: "tool_call",
      id: "toolu_write",
      name: "write_file",
      arguments: { path: "out.txt", content: "written\n" },
    },
  ],
};

/** A child process with its output gathered as it comes. */
export interface Child {
  process: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

/** Runs `yoake <args>` in `cwd`; its standard input is closed at once. */
export function start(args: readonly string[], cwd: string, env: Record<string, string | undefined>): Child {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const gathered: Child = {
    process: child,
    stdout: "",
    stderr: "",
    exited: new Promise((resolve) => child.on("close", (code) => resolve(code))),
  };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (gathered.stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (gathered.stderr += chunk));
  child.stdin?.end();
  return gathered;
}

/** Waits (no deadline of its own: the test's timeout is the limit) until `holds`. */
export async function until(holds: () => boolean): Promise<void> {
  while (!holds()) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** `yoake serve` in `cwd`, once it says where it serves; `socketPath` names its failure if it did not. */
export async function startServer(
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ server: Child; socketPath: string }> {
  const server = start(["serve"], cwd, env);
  await until(() => /on (\S+\.sock)\n/.test(server.stdout) || server.process.exitCode !== null);
  const socketPath = /on (\S+\.sock)\n/.exec(server.stdout)?.[1] ?? `no socket: ${server.stderr}`;
  return { server, socketPath };
}

/** A held reply: the request waits until `release()`. */
export function held(reply: MockReply): { reply: Promise<MockReply>; release(): void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: gate.then(() => reply), release };
}

/** The shell command line that runs the real `yoake` with exactly `env` (for a tmux pane). */
export function yoakeInEnv(env: Record<string, string | undefined>, ...args: string[]): string {
  return [
    "env",
    ...Object.entries(env)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${value}`),
    process.execPath,
    BIN,
    ...args,
  ].join(" ");
}
