import type { ShellLimits } from "../manifest/resolve.js";
import type { ShellLaunch } from "./shell-process.js";

/**
 * An OS sandbox compiled from the Pod's scope. `launch` is called per command, so that paths
 * made since the last one (a `.env` created, a denied directory appearing) are confined too.
 */
export interface Sandbox {
  /** The mechanism, as messages name it: `bubblewrap` or `sandbox-exec`. */
  readonly name: string;
  /** The resource limits every command runs under, when this sandbox applies them (bubblewrap does). */
  readonly limits?: ShellLimits;
  /** How to run `argv` in `cwd` with exactly `env`, confined. */
  launch(argv: readonly string[], cwd: string, env: Readonly<Record<string, string>>): Promise<ShellLaunch>;
  /**
   * The same sandbox (mechanism, network, hidden directories, deny rules) with every write rule
   * of the scope made read-only: for what runs files the agent could have rewritten (the
   * manifest's hooks), which must leave nothing behind that runs later.
   */
  readOnly(): Sandbox;
}

/** What the start-up probe found: a sandbox that works, or why there is none and how to get one. */
export type SandboxStatus =
  | { ok: true; sandbox: Sandbox }
  | {
      ok: false;
      /** One line: what failed. */
      reason: string;
      /** One line: what the user can do about it (a package to install, a sysctl). */
      fix: string;
    };

/**
 * The argv of one command: `bash -c <command>` with stderr sent into stdout, so the output is
 * interleaved exactly as it was written. The outer bash only sets that up and `exec`s.
 */
export function bashArgv(command: string): string[] {
  return ["bash", "-c", 'exec bash -c "$1" 2>&1', "bash", command];
}

/** Runs a command with no confinement at all: only after the user approved it, shown as unsandboxed. */
export function unconfinedLaunch(
  argv: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
): ShellLaunch {
  const [file, ...args] = argv;
  return { file: file as string, args, cwd, env };
}
