import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunSpec } from "../runs/run-record.js";
import { gitScript, NOTHING_TO_DO } from "./git.js";
import type { RepositoryCache } from "./repository-cache.js";

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
 * A fresh working tree of the run's repository at its ref as it was at some moment after the run
 * was submitted (from the worker's repository cache), or the shared path it names. `.yoake/` (a
 * Pod's own data) is never committed.
 */
export async function prepareWorkspace(
  spec: RunSpec,
  cache: RepositoryCache,
  submittedAt?: Date,
): Promise<Workspace> {
  if (spec.repo === undefined) {
    const dir = spec.path as string;
    return { dir, deliver: (runId) => commitOnBranch(dir, runId, spec), dispose: async () => undefined };
  }
  const repo = spec.repo;
  const tree = await cache.checkout(repo, spec.ref, submittedAt);
  const deliver = async (runId: string): Promise<{ branch?: string; patch?: string }> => {
    if (spec.patchOnly === true) return patchOf(tree.dir);
    if ((await gitScript(tree.dir, `${STAGE}\n${COMMIT}`, [message(runId, spec)])) === undefined) return {};
    // The tree's HEAD is detached: the file holds the commit.
    const commit = (await readFile(join(tree.dir, ".git", "HEAD"), "utf8")).trim();
    const branch = `yoake/${runId}`;
    await cache.push(repo, tree, commit, branch);
    return { branch };
  };
  return { dir: tree.dir, deliver, dispose: tree.dispose };
}

// One script per delivery (see `gitScript`).

/** Stage everything but `.yoake/`. */
const STAGE = "git add --all -- . ':(exclude).yoake'";
/** Commit what is staged (`$1` the message); exit with NOTHING_TO_DO when nothing is. */
const COMMIT = `if ! git commit --quiet --no-verify -m "$1"; then
  if git diff --cached --quiet; then exit ${NOTHING_TO_DO}; fi
  exit 1
fi`;

/** A shared path gets the branch (`$2`) checked out where it is. */
async function commitOnBranch(
  dir: string,
  runId: string,
  spec: RunSpec,
): Promise<{ branch?: string; patch?: string }> {
  if (spec.patchOnly === true) return patchOf(dir);
  const branch = `yoake/${runId}`;
  const script = `${STAGE}\nif git diff --cached --quiet; then exit ${NOTHING_TO_DO}; fi\ngit checkout --quiet -b "$2"\n${COMMIT}`;
  return (await gitScript(dir, script, [message(runId, spec), branch])) === undefined ? {} : { branch };
}

async function patchOf(dir: string): Promise<{ patch?: string }> {
  const patch = await gitScript(dir, `${STAGE}\ngit diff --cached`, []);
  return patch === undefined || patch === "" ? {} : { patch };
}

function message(runId: string, spec: RunSpec): string {
  return `yoake run ${runId}\n\n${spec.prompt.slice(0, 2000)}`;
}
