import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { git as workerGit } from "../src/worker/git.js";
import { RepositoryCache } from "../src/worker/repository-cache.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

let scratch: string;
let root: string;

/** A bare repository on `main` with `files` files, and a clone of it to push from as "someone else". */
function makeOrigin(name: string, files: number): { url: string; other: string } {
  const origin = path.join(scratch, `${name}.git`);
  const other = path.join(scratch, `${name}-other`);
  git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
  git(scratch, "clone", "--quiet", `file://${origin}`, other);
  git(other, "checkout", "--quiet", "-b", "main");
  for (let i = 0; i < files; i += 1)
    execFileSync("sh", ["-c", `echo 'file ${i}' > f${i}.txt`], { cwd: other });
  execFileSync("sh", ["-c", "echo '# origin' > README.md"], { cwd: other });
  git(other, "add", ".");
  git(other, "commit", "--quiet", "-m", "seed");
  git(other, "push", "--quiet", "origin", "main");
  return { url: `file://${origin}`, other };
}

/** Objects a repository holds in its own store (a run's tree borrows the rest from the mirror). */
function objectCounts(dir: string): { loose: number; packed: number } {
  const counts = git(dir, "count-objects", "-v");
  const field = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, "m").exec(counts)?.[1]);
  return { loose: field("count"), packed: field("in-pack") };
}

function ownObjects(dir: string): number {
  const { loose, packed } = objectCounts(dir);
  return loose + packed;
}

const mirrors = async () => (await readdir(root)).filter((name) => name.endsWith(".git"));

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "yoake-repo-cache-"));
  root = path.join(scratch, "cache");
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("RepositoryCache", () => {
  it("reuses one mirror per repository and still sees what someone else pushed in between", async () => {
    const { url, other } = makeOrigin("app", 30);
    const cache = await RepositoryCache.open(root);
    const first = await cache.checkout(url, "main");
    expect(await readFile(path.join(first.dir, "f7.txt"), "utf8")).toBe("file 7\n");
    await first.dispose();

    execFileSync("sh", ["-c", "echo theirs > theirs.txt"], { cwd: other });
    git(other, "add", ".");
    git(other, "commit", "--quiet", "-m", "theirs");
    git(other, "push", "--quiet", "origin", "main", "main:refs/heads/feature");

    const [mirror] = await mirrors();
    const before = ownObjects(path.join(root, mirror as string));
    const second = await cache.checkout(url, "main");
    expect(await readFile(path.join(second.dir, "theirs.txt"), "utf8")).toBe("theirs\n");
    expect(git(second.dir, "rev-parse", "HEAD")).toBe(git(other, "rev-parse", "HEAD"));
    const feature = await cache.checkout(url, "feature");
    expect(existsSync(path.join(feature.dir, "theirs.txt"))).toBe(true);
    // One mirror; the second run's fetch brought only the new commit (commit, tree, blob) into it,
    // not 30 files, and a run's tree holds nothing of its own but what it commits.
    expect(await mirrors()).toHaveLength(1);
    expect(ownObjects(path.join(root, mirror as string)) - before).toBe(3);
    expect(ownObjects(second.dir)).toBe(0);
    await second.dispose();
    await feature.dispose();
    // This process's refs in the mirror go with it.
    expect(existsSync(path.join(root, mirror as string, "refs", "yoake", String(process.pid)))).toBe(true);
    await cache.close();
    expect(existsSync(path.join(root, mirror as string, "refs", "yoake", String(process.pid)))).toBe(false);
  });

  it("serves every run submitted before a fetch began from that fetch, and fetches again for a later one", async () => {
    const { url, other } = makeOrigin("app", 2);
    const cache = await RepositoryCache.open(root);
    const submitted = new Date();
    const first = await cache.checkout(url, "main", submitted);
    const seen = git(first.dir, "rev-parse", "HEAD");
    execFileSync("sh", ["-c", "echo later > later.txt"], { cwd: other });
    git(other, "add", ".");
    git(other, "commit", "--quiet", "-m", "later");
    git(other, "push", "--quiet", "origin", "main");
    const pushed = git(other, "rev-parse", "HEAD");
    // Runs queued before the first fetch began start where it found the ref (the second one from
    // a tree checked out ahead), each in a fresh tree of its own.
    await writeFile(path.join(first.dir, "mine.txt"), "first run's\n");
    const second = await cache.checkout(url, "main", submitted);
    const third = await cache.checkout(url, "main", submitted);
    for (const tree of [second, third]) {
      expect(git(tree.dir, "rev-parse", "HEAD")).toBe(seen);
      expect(git(tree.dir, "status", "--porcelain", "--untracked-files=all")).toBe("");
    }
    expect(new Set([first.dir, second.dir, third.dir]).size).toBe(3);
    // A run submitted after that fetch began sees what was pushed since.
    const later = await cache.checkout(url, "main", new Date());
    expect(git(later.dir, "rev-parse", "HEAD")).toBe(pushed);
    expect(await readFile(path.join(later.dir, "later.txt"), "utf8")).toBe("later\n");
    for (const tree of [first, second, third, later]) await tree.dispose();
    // The tree checked out ahead for a run that never came is deleted on close.
    await cache.close();
    expect(await readdir(path.join(root, "runs"))).toEqual([]);
  });

  it("pushes the branches of runs that end together in one push, each accepted or refused on its own", async () => {
    const { url, other } = makeOrigin("app", 1);
    const origin = new URL(url).pathname;
    // The origin counts its pushes; a branch that exists there already refuses a commit not on it.
    const log = path.join(scratch, "pushes.log");
    await writeFile(
      path.join(origin, "hooks", "pre-receive"),
      `#!/bin/sh\ncat >> '${log}'\necho push >> '${log}'\n`,
    );
    execFileSync("chmod", ["+x", path.join(origin, "hooks", "pre-receive")]);
    git(other, "push", "--quiet", "origin", "main:refs/heads/yoake/taken");
    execFileSync("sh", ["-c", "echo moved > moved.txt"], { cwd: other });
    git(other, "add", ".");
    git(other, "commit", "--quiet", "-m", "moved");
    git(other, "push", "--quiet", "origin", "HEAD:refs/heads/yoake/taken");
    await writeFile(log, "");
    const received = objectCounts(origin);

    const cache = await RepositoryCache.open(root);
    const runs = await Promise.all(
      ["a", "b", "taken"].map(async (name) => {
        const tree = await cache.checkout(url, "main");
        await writeFile(path.join(tree.dir, `${name}.txt`), `${name}\n`);
        git(tree.dir, "add", ".");
        git(tree.dir, "commit", "--quiet", "-m", name);
        return { name, tree, commit: git(tree.dir, "rev-parse", "HEAD").trim() };
      }),
    );
    const pushed = await Promise.allSettled(
      runs.map(({ name, tree, commit }) => cache.push(url, tree, commit, `yoake/${name}`)),
    );
    expect(pushed.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(String((pushed[2] as PromiseRejectedResult).reason)).toMatch(/yoake\/taken was refused/);
    for (const name of ["a", "b"]) expect(git(origin, "show", `yoake/${name}:${name}.txt`)).toBe(`${name}\n`);
    expect(git(origin, "show", "yoake/taken:moved.txt")).toBe("moved\n");
    const lines = (await readFile(log, "utf8")).trim().split("\n");
    expect(lines.filter((line) => line === "push")).toHaveLength(1);
    // The receiving side ran here (file://): it kept what it got as a pack, not a file per object.
    expect(objectCounts(origin).loose).toBe(received.loose);
    expect(objectCounts(origin).packed).toBeGreaterThan(received.packed);
    expect(
      lines.filter((line) => line.endsWith("refs/heads/yoake/a") || line.endsWith("refs/heads/yoake/b")),
    ).toHaveLength(2);
    for (const { tree } of runs) await tree.dispose();
    await cache.close();
  });

  it("gives each run a fresh tree: nothing uncommitted, staged or committed by the previous run", async () => {
    const { url, other } = makeOrigin("app", 2);
    const cache = await RepositoryCache.open(root);
    const first = await cache.checkout(url, "main");
    await writeFile(path.join(first.dir, "README.md"), "changed\n");
    await writeFile(path.join(first.dir, "staged.txt"), "staged\n");
    git(first.dir, "add", "staged.txt");
    await writeFile(path.join(first.dir, "untracked.txt"), "untracked\n");
    await writeFile(path.join(first.dir, "committed.txt"), "committed\n");
    git(first.dir, "add", "committed.txt");
    git(first.dir, "commit", "--quiet", "-m", "local only");
    // The first run is still going (not disposed) while the second starts.
    const second = await cache.checkout(url, "main");
    expect(second.dir).not.toBe(first.dir);
    expect(git(second.dir, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(await readFile(path.join(second.dir, "README.md"), "utf8")).toBe("# origin\n");
    for (const name of ["staged.txt", "untracked.txt", "committed.txt"])
      expect(existsSync(path.join(second.dir, name))).toBe(false);
    expect(git(second.dir, "rev-parse", "HEAD")).toBe(git(other, "rev-parse", "HEAD"));
    await first.dispose();
    await second.dispose();
    expect(existsSync(first.dir)).toBe(false);
    await cache.close();
  });

  it("keeps a tree whose branch was pushed and resets it for a later run: nothing of that run is left in it", async () => {
    const { url, other } = makeOrigin("app", 2);
    await writeFile(path.join(other, ".gitignore"), "node_modules/\n");
    git(other, "add", ".gitignore");
    git(other, "commit", "--quiet", "-m", "ignore");
    git(other, "push", "--quiet", "origin", "main");
    const cache = await RepositoryCache.open(root);
    const first = await cache.checkout(url, "main");
    await writeFile(path.join(first.dir, "committed.txt"), "committed\n");
    // Committed as a worker commits (its git settings: no reflog).
    await workerGit(first.dir, ["add", "committed.txt"]);
    await workerGit(first.dir, ["commit", "--quiet", "-m", "the first run"]);
    const commit = git(first.dir, "rev-parse", "HEAD").trim();
    await cache.push(url, first, commit, "yoake/first");
    // What the run left besides its commit: changes, untracked and ignored files, a nested repository.
    await writeFile(path.join(first.dir, "README.md"), "changed\n");
    await writeFile(path.join(first.dir, "untracked.txt"), "untracked\n");
    await mkdir(path.join(first.dir, "node_modules"));
    await writeFile(path.join(first.dir, "node_modules", "ignored.js"), "ignored\n");
    git(first.dir, "init", "--quiet", "nested");
    await first.dispose();
    expect(existsSync(first.dir)).toBe(true);

    const second = await cache.checkout(url, "main");
    expect(second.dir).toBe(first.dir);
    expect(git(second.dir, "status", "--porcelain", "--untracked-files=all", "--ignored")).toBe("");
    expect(await readFile(path.join(second.dir, "README.md"), "utf8")).toBe("# origin\n");
    expect(await readdir(second.dir)).toEqual(
      expect.not.arrayContaining(["committed.txt", "node_modules", "nested"]),
    );
    expect(git(second.dir, "rev-parse", "HEAD")).toBe(git(other, "rev-parse", "HEAD"));
    // No ref or reflog names the first run's commit (its objects are the repository's own now).
    expect(git(second.dir, "for-each-ref")).toBe("");
    expect(git(second.dir, "reflog", "--all")).not.toContain(commit.slice(0, 7));
    expect(git(second.dir, "log", "--all", "--format=%s")).not.toContain("the first run");
    await second.dispose();
    // A tree given to a run and not pushed is deleted, and close deletes the kept ones.
    expect(existsSync(second.dir)).toBe(false);
    const third = await cache.checkout(url, "main");
    await cache.push(url, third, git(third.dir, "rev-parse", "HEAD").trim(), "yoake/third");
    await third.dispose();
    expect(existsSync(third.dir)).toBe(true);
    await cache.close();
    expect(existsSync(third.dir)).toBe(false);
  });

  it("refuses a ref that is not a branch or tag name, and reports a missing one", async () => {
    const { url } = makeOrigin("app", 1);
    const cache = await RepositoryCache.open(root);
    await expect(cache.checkout(url, "main:refs/heads/x")).rejects.toThrow(/not a branch or tag name/);
    await expect(cache.checkout(url, "--upload-pack=touch")).rejects.toThrow(/not a branch or tag name/);
    await expect(cache.checkout(url, "nope")).rejects.toThrow(/^cannot clone .* at nope: /);
    expect(await readdir(path.join(root, "runs"))).toEqual([]);
  });

  it("says why a repository cannot be cloned, in git's words", async () => {
    const cache = await RepositoryCache.open(root);
    const missing = `file://${path.join(scratch, "no-such-repo.git")}`;
    const failure = await cache.checkout(missing, undefined).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    // Git ends with advice after a blank line: the reason is its `fatal:` line, never nothing.
    expect((failure as Error).message).toMatch(/^cannot clone file:\/\/.*no-such-repo\.git: fatal: .*\S/);
    expect((failure as Error).message).toContain("no-such-repo.git");
    await cache.close();
  });

  it("works on after a worker was SIGKILLed mid-run, and clears what that worker left", async () => {
    const { url } = makeOrigin("app", 3);
    const { url: otherUrl } = makeOrigin("lib", 3);
    const child = spawn(
      process.execPath,
      [
        "--conditions=@yoake/source",
        "--import",
        "tsx",
        new URL("./support/dying-cache-user.ts", import.meta.url).pathname,
        root,
        url,
        otherUrl,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const signal = await new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    expect(signal, stderr).toBe("SIGKILL");
    const deadTree = stdout.trim();
    expect(existsSync(path.join(deadTree, "left-by-the-dead-worker.txt"))).toBe(true);
    // Its fetch left a ref of its own in the mirror of `url` (named after the URL's hash).
    const mirror = `${createHash("sha256").update(url).digest("hex").slice(0, 24)}.git`;
    const deadRefs = path.join(root, mirror, "refs", "yoake", String(child.pid));
    expect(existsSync(deadRefs)).toBe(true);

    const cache = await RepositoryCache.open(root);
    expect(existsSync(deadRefs)).toBe(false);
    const tree = await cache.checkout(url, "main");
    expect(git(tree.dir, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(await readFile(path.join(tree.dir, "README.md"), "utf8")).toBe("# origin\n");
    const lib = await cache.checkout(otherUrl, undefined);
    expect(existsSync(path.join(lib.dir, "f2.txt"))).toBe(true);
    expect(await mirrors()).toHaveLength(2);
    await tree.dispose();
    await lib.dispose();
    await cache.close();
    // The dead worker's own git process may still be finishing its half-made mirror: a cache
    // opened once it is done deletes that, and the dead worker's run tree.
    const partials = async () => (await readdir(root)).filter((name) => name.endsWith(".partial"));
    for (let attempt = 0; ; attempt += 1) {
      await RepositoryCache.open(root);
      if ((await partials()).length === 0 && !existsSync(deadTree)) break;
      if (attempt > 300) throw new Error(`left behind: ${await partials()} ${deadTree}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);
});
