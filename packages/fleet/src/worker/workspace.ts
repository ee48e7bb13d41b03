import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunSpec } from "../runs/run-record.js";

const run = promisify(execFile);
/**
 * A scratch clone is thrown away after the run and its branch is pushed before that, so nothing in
 * it needs to survive a crash: git's fsyncs there only cost time (the receiving repository keeps its own).
 */
const GIT_OPTIONS = ["-c", "user.name=yoake", "-c", "user.email=yoake@localhost", "-c", "core.fsync=none"];

/** The directory a run works in, and what to do with its changes at the end. */
export interface Workspace {
  dir: string;
  /**
   * Commits every change on `yoake/<run id>` and pushes it to the repository (or returns the diff
   * when the run asked for a patch). Returns nothing when nothing changed.
   */
  deliver(runId: string): Promise<{ branch?: string; patch?: string }>;
  /** Deletes a scratch clone (a shared path is left alone). */
  dispose(): Promise<void>;
}

async function git(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", [...GIT_OPTIONS, ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/**
 * A fresh clone of the run's repository at its ref in a scratch directory, or the shared path it
 * names. `.yoake/` (a Pod's own data) is never committed.
 */
export async function prepareWorkspace(spec: RunSpec): Promise<Workspace> {
  if (spec.repo === undefined) {
    const dir = spec.path as string;
    return { dir, deliver: (runId) => deliver(dir, runId, spec, false), dispose: async () => undefined };
  }
  const scratch = await mkdtemp(join(tmpdir(), "yoake-run-"));
  const dir = join(scratch, "repo");
  try {
    // "--" keeps a repository URL that starts with "-" from being read as an option.
    await run("git", [
      ...GIT_OPTIONS,
      "clone",
      "--no-tags",
      "--quiet",
      ...(spec.ref === undefined ? [] : ["--branch", spec.ref]),
      "--",
      spec.repo,
      dir,
    ]);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw new Error(
      `cannot clone ${spec.repo}${spec.ref === undefined ? "" : ` at ${spec.ref}`}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  return {
    dir,
    deliver: (runId) => deliver(dir, runId, spec, true),
    dispose: () => rm(scratch, { recursive: true, force: true }),
  };
}

/**
 * Three git processes for a scratch clone (each one costs more than the PostgreSQL work of a whole
 * run on a busy machine): stage everything, commit on the detached HEAD, push that straight to
 * `refs/heads/yoake/<run id>`. A shared path gets the branch checked out instead.
 */
async function deliver(
  dir: string,
  runId: string,
  spec: RunSpec,
  push: boolean,
): Promise<{ branch?: string; patch?: string }> {
  await git(dir, ["add", "--all", "--", ".", ":(exclude).yoake"]);
  if (spec.patchOnly === true) {
    const patch = await git(dir, ["diff", "--cached"]);
    return patch === "" ? {} : { patch };
  }
  const branch = `yoake/${runId}`;
  if (!push) {
    if ((await git(dir, ["diff", "--cached", "--name-only"])).trim() === "") return {};
    await git(dir, ["checkout", "--quiet", "-b", branch]);
  }
  try {
    await git(dir, [
      "commit",
      "--quiet",
      "--no-verify",
      "-m",
      `yoake run ${runId}\n\n${spec.prompt.slice(0, 2000)}`,
    ]);
  } catch (error) {
    // `git commit` fails when nothing is staged: the run changed no file, so there is no branch.
    if ((await git(dir, ["diff", "--cached", "--name-only"])).trim() === "") return {};
    throw error;
  }
  if (push) await git(dir, ["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
  return { branch };
}
