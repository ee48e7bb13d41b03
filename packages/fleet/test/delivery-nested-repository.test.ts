/**
 * A run's tree with repositories planted in it (as a run's commands would, had they got past the
 * Pod's sandbox): the worker's delivery (`git add`, `git commit`, the push, a patch, a save) must
 * run none of their configuration (fsmonitor, clean filters, hooks), and the branch it pushes must
 * not record them. Real git, a real local bare repository as the remote.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepositoryCache } from "../src/worker/repository-cache.js";
import { prepareWorkspace } from "../src/worker/workspace.js";

/** The user's git, with no settings of ours. */
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always", ...args],
    {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );

let scratch: string;
let origin: string;
let marker: string;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "yoake-nested-delivery-"));
  origin = path.join(scratch, "origin.git");
  marker = path.join(scratch, "marker");
  const lib = path.join(scratch, "lib");
  const seed = path.join(scratch, "seed");
  git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
  git(scratch, "init", "--quiet", "--initial-branch=main", lib);
  await writeFile(path.join(lib, "lib.txt"), "lib\n");
  git(lib, "add", "-A");
  git(lib, "commit", "-qm", "lib");
  git(scratch, "clone", "--quiet", `file://${origin}`, seed);
  git(seed, "checkout", "--quiet", "-b", "main");
  await writeFile(path.join(seed, "README.md"), "# app\n");
  git(seed, "submodule", "add", "--quiet", lib, "vendor/lib");
  git(seed, "add", "-A");
  git(seed, "commit", "--quiet", "-m", "seed");
  git(seed, "push", "--quiet", "origin", "main");
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * Makes `dir` a repository whose configuration runs `touch <marker>` as its fsmonitor, as the
 * clean filter of every file, and from its hooks, with a tracked file changed since its commit.
 */
async function plantRepository(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  git(dir, "init", "--quiet");
  await writeFile(path.join(dir, ".gitattributes"), "* filter=planted\n");
  await writeFile(path.join(dir, "tracked.txt"), "one\n");
  git(dir, "add", "-A");
  git(dir, "-c", "core.hooksPath=/dev/null", "commit", "--quiet", "-m", "planted");
  const touch = `touch ${marker}`;
  git(dir, "config", "core.fsmonitor", touch);
  git(dir, "config", "filter.planted.clean", `${touch}; cat`);
  git(dir, "config", "core.hooksPath", path.join(dir, "hooks"));
  await mkdir(path.join(dir, "hooks"));
  for (const hook of ["pre-commit", "post-commit", "post-checkout", "pre-push", "reference-transaction"])
    await writeFile(path.join(dir, "hooks", hook), `#!/bin/sh\n${touch}\n`, { mode: 0o755 });
  await writeFile(path.join(dir, "tracked.txt"), "two\n");
}

describe("delivering a tree with planted repositories", () => {
  it("runs none of their configuration and pushes no gitlink for them", async () => {
    const cache = await RepositoryCache.open(path.join(scratch, "cache"));
    const spec = { repo: `file://${origin}`, prompt: "p" };
    const workspace = await prepareWorkspace(spec, cache);
    const tree = workspace.dir;
    // The run's work, and its plants: a new repository, and one where the submodule's checkout goes.
    await writeFile(path.join(tree, "work.txt"), "done\n");
    await plantRepository(path.join(tree, "planted"));
    await plantRepository(path.join(tree, "vendor", "lib"));

    // The check can fail: the user's own git in that tree runs what was planted.
    git(tree, "diff");
    expect(existsSync(marker)).toBe(true);
    await rm(marker);

    const saved = await workspace.save();
    expect(saved?.patch).toContain("work.txt");
    expect(saved?.patch).not.toContain("planted");
    expect(saved?.patch).not.toContain("Subproject commit");
    const { branch } = await workspace.deliver("run-1");
    expect(branch).toBe("yoake/run-1");
    expect(existsSync(marker)).toBe(false);

    const pushed = git(origin, "ls-tree", "-r", "yoake/run-1");
    const seeded = git(origin, "ls-tree", "-r", "main");
    expect(pushed).toContain("\twork.txt\n");
    expect(pushed).not.toMatch(/\tplanted/);
    // The submodule is recorded exactly as it was.
    const gitlinks = (listing: string) => listing.split("\n").filter((line) => line.startsWith("160000 "));
    expect(gitlinks(pushed)).toEqual(gitlinks(seeded));
    expect(gitlinks(pushed)).toHaveLength(1);
    await workspace.dispose();
    await cache.close();
    expect(existsSync(marker)).toBe(false);
  });

  it("a run whose only change is a plant delivers nothing, and its commit's status runs none of it", async () => {
    // With nothing staged, `git commit` prints the status, which asks every submodule for its own.
    const cache = await RepositoryCache.open(path.join(scratch, "cache"));
    const workspace = await prepareWorkspace({ repo: `file://${origin}`, prompt: "p" }, cache);
    await plantRepository(path.join(workspace.dir, "planted"));
    await plantRepository(path.join(workspace.dir, "vendor", "lib"));
    expect(await workspace.deliver("run-3")).toEqual({});
    expect(existsSync(marker)).toBe(false);
    expect(git(origin, "branch", "--list", "yoake/*")).toBe("");
    await workspace.dispose();
    await cache.close();
  });

  it("a patch-only run's diff runs none of it and names none of it", async () => {
    const cache = await RepositoryCache.open(path.join(scratch, "cache"));
    const workspace = await prepareWorkspace(
      { repo: `file://${origin}`, prompt: "p", patchOnly: true },
      cache,
    );
    await writeFile(path.join(workspace.dir, "work.txt"), "done\n");
    await plantRepository(path.join(workspace.dir, "planted"));
    await plantRepository(path.join(workspace.dir, "vendor", "lib"));
    const { patch } = await workspace.deliver("run-2");
    expect(patch).toContain("+done");
    expect(patch).not.toContain("planted");
    expect(patch).not.toContain("Subproject commit");
    expect(existsSync(marker)).toBe(false);
    await workspace.dispose();
    await cache.close();
  });
});
