/**
 * What the sandbox must not get in the way of: a project's tests with npm, git reading the
 * repository, a compiler writing into the project, a command reading stdin. Real programs in the real sandbox.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exitCode, shellBed } from "../../test/support/shell-test-kit.js";

describe("ordinary work in the sandbox", () => {
  it("npm test runs a small project's tests and reports their failure through the exit code", async () => {
    const { bash, project } = await shellBed({
      files: {
        "package.json": JSON.stringify({ name: "tiny", version: "1.0.0", scripts: { test: "node test.js" } }),
        "sum.js": "module.exports = (a, b) => a - b;\n",
        "test.js":
          "const assert = require('node:assert');\nassert.strictEqual(require('./sum.js')(2, 3), 5);\nconsole.log('tests pass');\n",
      },
    });
    const failing = await bash({ command: "npm test" });
    expect(exitCode(failing)).not.toBe(0);
    expect(failing).toContain("AssertionError");
    writeFileSync(path.join(project, "sum.js"), "module.exports = (a, b) => a + b;\n");
    const passing = await bash({ command: "npm test" });
    expect(passing).toContain("tests pass");
    expect(exitCode(passing)).toBe(0);
  });

  it("git status and git diff read the repository, and git commit cannot write it", async () => {
    const { bash, project } = await shellBed({ files: { "a.txt": "one\n" } });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: project });
    execFileSync("rm", ["-rf", path.join(project, ".git")]);
    git("init", "-q");
    git("add", "a.txt");
    git("commit", "-qm", "first");
    writeFileSync(path.join(project, "a.txt"), "two\n");
    const status = await bash({ command: "git status --short" });
    expect(status).toMatch(/^ M a\.txt\n\[exit code 0/);
    const diff = await bash({ command: "git diff" });
    expect(diff).toContain("-one\n+two");
    const commit = await bash({ command: "git -c user.name=m -c user.email=m@m commit -qam second" });
    expect(exitCode(commit)).not.toBe(0);
    expect(git("log", "--oneline").toString().trim().split("\n")).toHaveLength(1);
  });

  it("git log, status and diff read a nested repository that was there before, and nothing is removed", async () => {
    const { bash, project } = await shellBed({ files: { "a.txt": "one\n", "lib/b.txt": "lib one\n" } });
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd });
    execFileSync("rm", ["-rf", path.join(project, ".git")]);
    git(project, "init", "-q");
    git(path.join(project, "lib"), "init", "-q");
    git(path.join(project, "lib"), "add", "b.txt");
    git(path.join(project, "lib"), "commit", "-qm", "nested first");
    git(project, "add", "a.txt");
    git(project, "commit", "-qm", "top first");
    writeFileSync(path.join(project, "a.txt"), "two\n");
    writeFileSync(path.join(project, "lib", "b.txt"), "lib two\n");
    const top = await bash({ command: "git log --oneline && git status --short && git diff" });
    expect(top).toContain("top first");
    expect(top).toContain(" M a.txt");
    expect(top).toContain("-one\n+two");
    expect(exitCode(top)).toBe(0);
    const nested = await bash({ command: "cd lib && git log --oneline && git status --short && git diff" });
    expect(nested).toContain("nested first");
    expect(nested).toContain(" M b.txt");
    expect(nested).toContain("-lib one\n+lib two");
    expect(exitCode(nested)).toBe(0);
    expect(`${top}${nested}`).not.toContain("removed");
    expect(existsSync(path.join(project, "lib", ".git", "HEAD"))).toBe(true);
  });

  it("with the home hidden, its toolchains still run, git reads the project, and a revealed ~/.gitconfig is read", async () => {
    const { bash, project } = await shellBed({
      // Not under /tmp, which the sandbox's private /tmp would hide anyway: the home's own mask is tested.
      parentDir: "/var/tmp",
      env: (base) => ({
        PATH: `${path.join(base, "home", ".local", "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
        HOME: path.join(base, "home"),
      }),
      prepare: ({ base }) => {
        const home = path.join(base, "home");
        mkdirSync(path.join(home, ".local", "bin"), { recursive: true });
        writeFileSync(path.join(home, ".local", "bin", "hello-tool"), "#!/bin/sh\necho toolchain runs\n", {
          mode: 0o755,
        });
        writeFileSync(path.join(home, ".gitconfig"), "[user]\n\tname = Revealed Name\n");
        writeFileSync(path.join(home, "notes.txt"), "private notes\n");
      },
      overrides: { shell: { reveal: ["~/.gitconfig"] } },
    });
    execFileSync("rm", ["-rf", path.join(project, ".git")]);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: project });
    git("init", "-q");
    writeFileSync(path.join(project, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-qm", "first commit");
    expect(await bash({ command: "hello-tool" })).toMatch(/^toolchain runs\n\[exit code 0/);
    expect(await bash({ command: "git log --oneline" })).toContain("first commit");
    expect(await bash({ command: "git config user.name" })).toMatch(/^Revealed Name\n\[exit code 0/);
    const hidden = await bash({ command: "cat ~/notes.txt" });
    expect(hidden).toContain("No such file");
    expect(exitCode(hidden)).not.toBe(0);
  });

  it("a compiler writes its output into the scope, and the program it built runs", async () => {
    const { bash, project } = await shellBed({
      files: {
        "hello.c": '#include <stdio.h>\nint main(void) { puts("built in the sandbox"); return 0; }\n',
      },
    });
    const built = await bash({ command: "mkdir -p build && cc -o build/hello hello.c && ./build/hello" });
    expect(built).toContain("built in the sandbox");
    expect(exitCode(built)).toBe(0);
    expect(existsSync(path.join(project, "build", "hello"))).toBe(true);
  });

  it("a command that reads stdin gets /dev/null and ends", async () => {
    const { bash } = await shellBed();
    expect(await bash({ command: 'read line; echo "read returned $?"' })).toContain("read returned 1");
  });
});
