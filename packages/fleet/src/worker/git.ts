import { hostGitEnv } from "@yoake/pod";
import { type CommandOutcome, runCommand } from "./command-relay.js";

/**
 * Settings for every git process of a worker, on top of `HOST_GIT_CONFIG` (no hooks, no
 * fsmonitor, no descent into submodules: the worker runs git outside the Pod's sandbox, in trees a
 * run worked in), as environment (`GIT_CONFIG_COUNT`, git 2.31+) so each git a script starts has
 * them too. A run's tree holds nothing that is not pushed or thrown away, and the mirror is only a
 * cache, so git's fsyncs there only cost time (the receiving repository keeps its own); no
 * automatic maintenance (a `git gc` in the middle of a run would cost more than the run, and must
 * never prune objects a run's tree borrows from the mirror); no reflog (a kept tree must not list
 * an earlier run's commits).
 */
const SETTINGS: Record<string, string> = {
  "user.name": "yoake",
  "user.email": "yoake@localhost",
  "core.fsync": "none",
  "maintenance.auto": "false",
  "gc.auto": "0",
  "core.logAllRefUpdates": "false",
};

const GIT_ENV: Record<string, string> = hostGitEnv(SETTINGS);

/**
 * Runs `file` (git, or `sh` for a script of git commands) in `dir` with the worker's git settings
 * and `env` on top; never rejects for an exit status.
 */
export function runGit(
  dir: string,
  file: "git" | "sh",
  args: string[],
  env: Record<string, string> = {},
): Promise<CommandOutcome> {
  return runCommand({ file, args, cwd: dir, env: { ...process.env, ...GIT_ENV, ...env } });
}

/** Runs git in `dir`; resolves with its output, rejects with what git said when it fails. */
export async function git(dir: string, args: string[]): Promise<string> {
  const outcome = await runGit(dir, "git", args);
  if (outcome.code !== 0) throw failure(outcome);
  return outcome.stdout;
}

/** What a script exits with to say there was nothing to do (git itself exits with 1 or 128). */
export const NOTHING_TO_DO = 3;

/**
 * Runs several git commands as one `sh -e` script in `dir`, its arguments as `$1`, `$2`, ...
 * (never spliced into the script's text): one command through the relay (`runCommand`) instead of
 * one per git command. Resolves with the output, or undefined when the script exits with
 * `NOTHING_TO_DO`; rejects when a command fails.
 */
export async function gitScript(dir: string, script: string, args: string[]): Promise<string | undefined> {
  const outcome = await runGit(dir, "sh", ["-ec", script, "sh", ...args]);
  if (outcome.code === NOTHING_TO_DO) return undefined;
  if (outcome.code !== 0) throw failure(outcome);
  return outcome.stdout;
}

/**
 * A failed command as the error git printed, not the command line: its `fatal:` and `error:`
 * lines (the last three), else its last lines. Git may end with advice after the reason ("Please
 * make sure you have the correct access rights"), which alone says nothing.
 */
export function failure(outcome: CommandOutcome): Error {
  const said = outcome.stderr.trim();
  if (said === "") return new Error(`git exited with ${outcome.code}`);
  const lines = said.split("\n");
  const reasons = lines.filter((line) => /^(fatal|error):/.test(line.trim()));
  return new Error((reasons.length > 0 ? reasons : lines).slice(-3).join("\n"));
}
