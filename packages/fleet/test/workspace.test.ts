import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepositoryCache } from "../src/worker/repository-cache.js";
import { prepareWorkspace } from "../src/worker/workspace.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

let scratch: string;
let url: string;
let other: string;

/** Commits and pushes everything in `other` (someone else working on the repository). */
function pushOther(message: string): void {
  git(other, "add", "--all");
  git(other, "commit", "--quiet", "-m", message);
  git(other, "push", "--quiet", "origin", "main");
}

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "yoake-workspace-"));
  const origin = path.join(scratch, "origin.git");
  other = path.join(scratch, "other");
  git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
  git(scratch, "clone", "--quiet", `file://${origin}`, other);
  git(other, "checkout", "--quiet", "-b", "main");
  await writeFile(path.join(other, "README.md"), "# app\n");
  await writeFile(path.join(other, "gone.txt"), "to be deleted\n");
  await writeFile(path.join(other, "old-name.txt"), "renamed\n");
  await writeFile(path.join(other, "run.sh"), "echo hi\n");
  pushOther("seed");
  url = `file://${origin}`;
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("a run's saved workspace", () => {
  it("restores the tree an earlier attempt left, at its commit, on another machine's cache", async () => {
    const first = await RepositoryCache.open(path.join(scratch, "machine-1"));
    const spec = { repo: url, prompt: "p" };
    const attempt = await prepareWorkspace(spec, first);
    const base = git(attempt.dir, "rev-parse", "HEAD").trim();
    // Every kind of change: edited, deleted, renamed, made executable, new text and binary files.
    const binary = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]);
    await writeFile(path.join(attempt.dir, "README.md"), "# app, edited\n");
    await rm(path.join(attempt.dir, "gone.txt"));
    git(attempt.dir, "mv", "old-name.txt", "new-name.txt");
    await chmod(path.join(attempt.dir, "run.sh"), 0o755);
    await writeFile(path.join(attempt.dir, "new.txt"), "new\n");
    await writeFile(path.join(attempt.dir, "image.bin"), binary);
    // A Pod's own data is not the run's work.
    await mkdir(path.join(attempt.dir, ".yoake"));
    await writeFile(path.join(attempt.dir, ".yoake", "state.json"), "{}\n");
    const saved = await attempt.save();
    await attempt.dispose();
    await first.close();
    expect(saved?.base).toBe(base);

    // Meanwhile the branch moved on: the continued run starts where its first attempt did.
    await writeFile(path.join(other, "later.txt"), "later\n");
    pushOther("later");
    const second = await RepositoryCache.open(path.join(scratch, "machine-2"));
    const continued = await prepareWorkspace(spec, second, undefined, saved);
    const read = (name: string) => readFile(path.join(continued.dir, name), "utf8");
    expect(git(continued.dir, "rev-parse", "HEAD").trim()).toBe(base);
    expect(await read("README.md")).toBe("# app, edited\n");
    expect(await read("new-name.txt")).toBe("renamed\n");
    expect(await read("new.txt")).toBe("new\n");
    expect(await readFile(path.join(continued.dir, "image.bin"))).toEqual(binary);
    expect((await stat(path.join(continued.dir, "run.sh"))).mode & 0o111).not.toBe(0);
    for (const name of ["gone.txt", "old-name.txt", "later.txt", ".yoake/state.json"])
      await expect(read(name)).rejects.toThrow(/ENOENT/);
    // Saved again with nothing more done, it is the same.
    expect(await continued.save()).toEqual(saved);
    await continued.dispose();
    await second.close();
  });

  it("refuses a saved tree it cannot restore, saying why, and leaves no tree behind", async () => {
    const cache = await RepositoryCache.open(path.join(scratch, "cache"));
    const spec = { repo: url, prompt: "p" };
    const base = git(other, "rev-parse", "HEAD").trim();
    await expect(
      prepareWorkspace(spec, cache, undefined, { base, patch: "diff --git a/x b/x\nnot a patch\n" }),
    ).rejects.toThrow(/^cannot restore the run's changes at [0-9a-f]{40}: /);
    await expect(
      prepareWorkspace(spec, cache, undefined, { base: "1".repeat(40), patch: "" }),
    ).rejects.toThrow(/^cannot check out .* at 1{40}: /);
    await expect(prepareWorkspace(spec, cache, undefined, { base: "HEAD", patch: "" })).rejects.toThrow(
      /is not a commit id/,
    );
    await cache.close();
    expect(execFileSync("ls", [path.join(scratch, "cache", "runs")], { encoding: "utf8" })).toBe("");
  });
});
