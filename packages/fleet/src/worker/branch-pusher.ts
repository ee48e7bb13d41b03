import { join } from "node:path";
import type { CommandOutcome } from "./command-relay.js";
import { failure, runGit } from "./git.js";

/**
 * How long a branch waits for others to go in the same push. A push costs a connection and, on the
 * receiving side, half a dozen processes whatever it carries; a run that took seconds of a model's
 * time does not notice a fifth of a second more before its result is stored.
 */
const PUSH_WINDOW_MS = 200;

interface Waiting {
  /** The run tree whose objects hold the commit. */
  tree: string;
  commit: string;
  branch: string;
  pushed(): void;
  failed(error: Error): void;
}

/**
 * Pushes runs' branches to one repository in batches (group commit, as the session appends and
 * the run events are written): a branch waits `PUSH_WINDOW_MS` for others, then all go in one
 * `git push` with one refspec each. The push runs in the repository's mirror, which has what the
 * runs started from, and borrows each run tree's own objects (its commit) for the time of the push.
 * Each branch succeeds or fails on its own (`--porcelain` tells which); a push that fails as a
 * whole (the server unreachable) fails every branch in it.
 */
export class BranchPusher {
  #waiting: Waiting[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #pushes = new Set<Promise<void>>();

  constructor(
    private readonly url: string,
    /** A repository that has every commit the runs started from. */
    private readonly mirror: string,
  ) {}

  /** Pushes `commit` (in the repository at `tree`) to `refs/heads/<branch>` of the repository. */
  push(tree: string, commit: string, branch: string): Promise<void> {
    return new Promise((pushed, failed) => {
      this.#waiting.push({ tree, commit, branch, pushed, failed });
      this.#timer ??= setTimeout(() => this.#pushWaiting(), PUSH_WINDOW_MS);
    });
  }

  /** Pushes what waits at once, and resolves when every push has ended. */
  async close(): Promise<void> {
    if (this.#waiting.length > 0) this.#pushWaiting();
    await Promise.all([...this.#pushes]);
  }

  #pushWaiting(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#waiting;
    this.#waiting = [];
    const push = this.#push(batch).finally(() => this.#pushes.delete(push));
    this.#pushes.add(push);
  }

  async #push(batch: Waiting[]): Promise<void> {
    const borrowed = batch.map(({ tree }) => quoteAlternate(join(tree, ".git", "objects"))).join(":");
    const refspecs = batch.map(({ commit, branch }) => `${commit}:refs/heads/${branch}`);
    let outcome: CommandOutcome;
    try {
      outcome = await runGit(
        this.mirror,
        "git",
        ["push", ...receiving(this.url), "--porcelain", "--", this.url, ...refspecs],
        {
          GIT_ALTERNATE_OBJECT_DIRECTORIES: borrowed,
        },
      );
    } catch (error) {
      for (const waiting of batch) waiting.failed(error as Error);
      return;
    }
    // One line per ref: "<flag>\t<from>:<to>\t<summary>", "!" when it was refused.
    const refs = new Map<string, { flag: string; summary: string }>();
    for (const line of outcome.stdout.split("\n")) {
      const match = /^(.)\t[^:\t]*:refs\/heads\/(\S+)\t(.*)$/.exec(line);
      if (match !== null)
        refs.set(match[2] as string, { flag: match[1] as string, summary: match[3] as string });
    }
    for (const waiting of batch) {
      const ref = refs.get(waiting.branch);
      if (ref !== undefined && ref.flag !== "!") waiting.pushed();
      else if (ref !== undefined)
        waiting.failed(new Error(`the push of ${waiting.branch} was refused: ${ref.summary}`));
      else
        waiting.failed(
          outcome.code === 0 ? new Error(`git did not push ${waiting.branch}`) : failure(outcome),
        );
    }
  }
}

/**
 * A push to a repository on this machine (`file://`, a path) runs git's receiving side here, with
 * the repository's settings, not the worker's (git clears them for it): it is told to keep what it
 * receives as one pack, as hosting services do, rather than a file per object (what git does with
 * fewer than 100; on a journalled disk each new object directory costs a millisecond).
 */
function receiving(url: string): string[] {
  return url.startsWith("file://") || url.startsWith("/")
    ? ["--receive-pack=git -c receive.unpackLimit=1 receive-pack"]
    : [];
}

/** An entry of `GIT_ALTERNATE_OBJECT_DIRECTORIES`, quoted so a ":" in the path cannot split it. */
function quoteAlternate(dir: string): string {
  return `"${dir.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
