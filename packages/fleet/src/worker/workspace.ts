import type { RunSpec } from "../runs/run-record.js";
import { git, type RepositoryCache } from "./repository-cache.js";

/** The directory a run works in, and what to do with its changes at the end. */
export interface Workspace {
  dir: string;
  /**
   * Commits every change on `yoake/<run id>` and pushes it to the repository (or returns the diff
   * when the run asked for a patch). Returns nothing when nothing changed.
   */
  deliver(runId: string): Promise<{ branch?: string; patch?: string }>;
  /** Deletes the run's tree (a shared path is left alone). */
  dispose(): Promise<void>;
}

/**
 * A fresh working tree of the run's repository at its ref (from the worker's repository cache),
 * or the shared path it names. `.yoake/` (a Pod's own data) is never committed.
 */
export async function prepareWorkspace(spec: RunSpec, cache: RepositoryCache): Promise<Workspace> {
  if (spec.repo === undefined) {
    const dir = spec.path as string;
    return { dir, deliver: (runId) => deliver(dir, runId, spec), dispose: async () => undefined };
  }
  const tree = await cache.checkout(spec.repo, spec.ref);
  return { dir: tree.dir, deliver: (runId) => deliver(tree.dir, runId, spec), dispose: tree.dispose };
}

/**
 * Three git processes for a run's tree (each one costs more than the PostgreSQL work of a whole
 * run on a busy machine): stage everything, commit on the detached HEAD, push that straight to
 * `refs/heads/yoake/<run id>` of the run's repository. A shared path gets the branch checked out
 * instead.
 */
async function deliver(
  dir: string,
  runId: string,
  spec: RunSpec,
): Promise<{ branch?: string; patch?: string }> {
  await git(dir, ["add", "--all", "--", ".", ":(exclude).yoake"]);
  if (spec.patchOnly === true) {
    const patch = await git(dir, ["diff", "--cached"]);
    return patch === "" ? {} : { patch };
  }
  const branch = `yoake/${runId}`;
  const push = spec.repo !== undefined;
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
  if (push) await git(dir, ["push", "--quiet", "--", spec.repo as string, `HEAD:refs/heads/${branch}`]);
  return { branch };
}
