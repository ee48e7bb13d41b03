import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RetryPolicy } from "../database/retry.js";
import type { RunSpec, SavedWorkspace } from "../runs/run-record.js";
import { gitScript, NOTHING_TO_DO } from "./git.js";
import { retryGit } from "./git-retry.js";
import type { RepositoryCache, RunTree } from "./repository-cache.js";
import { stageChanges } from "./stage.js";

/** The directory a run works in, and what to do with its changes at the end. */
export interface Workspace {
  dir: string;
  /** The commit the tree started from; none for a shared path. */
  base?: string;
  /**
   * What the run's commands must read outside `dir` for git to work in it: the object store its
   * repository borrows from the cache's mirror (hidden from them with the rest of the cache).
   */
  readable: readonly string[];
  /**
   * Commits every change on `yoake/<run id>` and pushes it to the repository (or returns the diff
   * when the run asked for a patch). Returns nothing when nothing changed.
   */
  deliver(runId: string): Promise<{ branch?: string; patch?: string }>;
  /** The run's branch, if an earlier attempt delivered it already (it is in the repository). */
  delivered(runId: string): Promise<{ branch?: string }>;
  /**
   * The tree as it is now, for the worker that continues the run (`prepareWorkspace`'s `saved`);
   * nothing for a shared path, which every worker sees as it is.
   */
  save(): Promise<SavedWorkspace | undefined>;
  /** Deletes the run's tree (a shared path is left alone). */
  dispose(): Promise<void>;
}

/**
 * A working tree of the run's repository at its ref as it was at some moment after the run was
 * submitted (from the worker's repository cache), or the tree an earlier attempt `saved` (its
 * commit, its changes applied), or the shared path the run names. `.yoake/` (a Pod's own data) is
 * never committed. Fetches and pushes that fail because the remote cannot be reached are tried
 * again for `gitRetry` (`retryGit`); a permanent failure fails at once, in git's words.
 */
export async function prepareWorkspace(
  spec: RunSpec,
  cache: RepositoryCache,
  submittedAt?: Date,
  saved?: SavedWorkspace,
  gitRetry: RetryPolicy = { retryMs: 0 },
): Promise<Workspace> {
  if (spec.repo === undefined) {
    const dir = spec.path as string;
    return {
      dir,
      readable: [],
      deliver: (runId) => commitOnBranch(dir, runId, spec),
      delivered: async (runId) =>
        (await gitScript(
          dir,
          `git rev-parse --verify --quiet "refs/heads/$1" >/dev/null || exit ${NOTHING_TO_DO}`,
          [`yoake/${runId}`],
        )) === undefined
          ? {}
          : { branch: `yoake/${runId}` },
      save: async () => undefined,
      dispose: async () => undefined,
    };
  }
  const repo = spec.repo;
  const tree = await retryGit(
    () => (saved === undefined ? cache.checkout(repo, spec.ref, submittedAt) : restore(repo, saved, cache)),
    gitRetry,
  );
  const deliver = async (runId: string): Promise<{ branch?: string; patch?: string }> => {
    if (spec.patchOnly === true) return patchOf(tree.dir);
    await stageChanges(tree.dir);
    if ((await gitScript(tree.dir, COMMIT, [message(runId, spec)])) === undefined) return {};
    // The tree's HEAD is detached: the file holds the commit.
    const commit = (await readFile(join(tree.dir, ".git", "HEAD"), "utf8")).trim();
    const branch = `yoake/${runId}`;
    await retryGit(() => cache.push(repo, tree, commit, branch), gitRetry);
    return { branch };
  };
  const delivered = async (runId: string): Promise<{ branch?: string }> => {
    if (spec.patchOnly === true) return {};
    const branch = `yoake/${runId}`;
    const listed = await retryGit(
      () => gitScript(tree.dir, 'git ls-remote --heads -- "$1" "$2"', [repo, `refs/heads/${branch}`]),
      gitRetry,
    );
    return (listed ?? "").trim() === "" ? {} : { branch };
  };
  const save = async (): Promise<SavedWorkspace> => {
    const patch = await stageChanges(tree.dir)
      .then(() =>
        gitScript(tree.dir, 'git diff --cached --binary --no-ext-diff --no-textconv "$1"', [tree.commit]),
      )
      .catch((error: Error) => {
        throw new Error(`cannot keep the run's changes for the worker that continues it: ${error.message}`);
      });
    return { base: tree.commit, patch: patch ?? "" };
  };
  return {
    dir: tree.dir,
    base: tree.commit,
    readable: [tree.objectStore],
    deliver,
    delivered,
    save,
    dispose: tree.dispose,
  };
}

/** A tree at the saved commit with the saved changes applied. */
async function restore(repo: string, saved: SavedWorkspace, cache: RepositoryCache): Promise<RunTree> {
  const tree = await cache.checkoutCommit(repo, saved.base);
  if (saved.patch === "") return tree;
  // Beside the tree, not in it (the run's tree is its repository's files only).
  const file = join(dirname(tree.dir), "saved.patch");
  try {
    await writeFile(file, saved.patch);
    await gitScript(tree.dir, 'git apply --index --binary -- "$1"', [file]);
    return tree;
  } catch (error) {
    await tree.dispose();
    throw new Error(`cannot restore the run's changes at ${saved.base}: ${(error as Error).message}`);
  } finally {
    await rm(file, { force: true });
  }
}

// Staging is a step of its own (`stageChanges`); what follows it is one script (see `gitScript`).

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
  await stageChanges(dir);
  const script = `if git diff --cached --quiet; then exit ${NOTHING_TO_DO}; fi\ngit checkout --quiet -b "$2"\n${COMMIT}`;
  return (await gitScript(dir, script, [message(runId, spec), branch])) === undefined ? {} : { branch };
}

async function patchOf(dir: string): Promise<{ patch?: string }> {
  await stageChanges(dir);
  const patch = await gitScript(dir, "git diff --cached --no-ext-diff --no-textconv", []);
  return patch === undefined || patch === "" ? {} : { patch };
}

function message(runId: string, spec: RunSpec): string {
  return `yoake run ${runId}\n\n${spec.prompt.slice(0, 2000)}`;
}
