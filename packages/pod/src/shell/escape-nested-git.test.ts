/**
 * The escape suite for nested repositories: real commands through the real `bash` tool in the
 * real bubblewrap sandbox try to leave a `.git` in the project whose configuration (an fsmonitor
 * command) or hooks the user's own git would run outside the sandbox. After every attempt the
 * host runs plain `git status`, `git diff` and `git add -A` in the project root (and `git status`
 * in the nested repository that was there before), as the user would; the marker file those
 * commands would create must never appear, and the `.git` entries must be exactly those there
 * were before.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCode, type ShellBed, shellBed } from "../../test/support/shell-test-kit.js";
import { NESTED_REPOSITORY_REASON } from "./project-guard.js";

let bed: ShellBed;
let marker: string;
let before: string;
let attempts = 0;
const escapes: string[] = [];

/** The user's git: no settings of ours, only an identity for the setup's commits. */
function userGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=u", "-c", "user.email=u@u", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: path.join(bed.base, "home") },
  });
}

/** Every entry named `.git` in any case under the project, with its inode, and the configs. */
function repositories(): string {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.name.toLowerCase() === ".git") {
        const inode = statSync(full, { throwIfNoEntry: false })?.ino ?? "dangling";
        found.push(`${path.relative(bed.project, full)} ${inode}`);
      } else if (entry.isDirectory() && !entry.isSymbolicLink()) walk(full);
    }
  };
  walk(bed.project);
  const configs = [".git/config", "tools/nested/.git/config", ".git/modules/vendor/lib/config"].map((file) =>
    readFileSync(path.join(bed.project, file), "utf8"),
  );
  const hook = readFileSync(path.join(bed.project, ".githooks", "pre-commit"), "utf8");
  return [...found.sort(), ...configs, hook].join("\n");
}

/** What the user's git does next in the project; then whether anything ran or stayed behind. */
function check(command: string, output: string): void {
  // `add -A` first: a repository left behind becomes a gitlink, which `status`, `diff` and
  // `commit` then ask for its own status, with its configuration.
  for (const args of [["add", "-A"], ["status"], ["diff"], ["commit", "-qm", "user", "--allow-empty"]]) {
    try {
      userGit(bed.project, ...args);
    } catch {
      // A failing git is no escape; what it ran is.
    }
  }
  try {
    userGit(path.join(bed.project, "tools", "nested"), "status");
  } catch {
    // As above.
  }
  const found: string[] = [];
  if (existsSync(marker)) found.push("the user's git ran a planted command");
  const now = repositories();
  if (now !== before) found.push(`a .git stayed or changed:\n${now}`);
  if (found.length > 0) escapes.push(`${command} → ${found.join(", ")}\n${output}`);
  rmSync(marker, { force: true });
}

async function attempt(command: string): Promise<string> {
  attempts++;
  const output = await bed.bash({ command, timeout_ms: 20_000 });
  check(command, output);
  return output;
}

async function attemptInBackground(command: string): Promise<string> {
  attempts++;
  const started = await bed.bash({ command, run_in_background: true });
  const id = /background as (bg\d+)/.exec(started)?.[1] as string;
  let output = "";
  for (let i = 0; i < 400; i++) {
    const read = await bed.bashOutput({ id });
    output += read;
    if (!read.includes("still running]")) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  check(`(background) ${command}`, output);
  return output;
}

beforeAll(async () => {
  bed = await shellBed({ parentDir: "/var/tmp", shared: true, files: { "README.md": "# project\n" } });
  marker = path.join(bed.outside, "marker");
  const { project, outside } = bed;
  const lib = path.join(outside, "lib");
  execFileSync("mkdir", ["-p", lib]);
  rmSync(path.join(project, ".git"), { recursive: true });
  userGit(lib, "init", "-q");
  writeFileSync(path.join(lib, "lib.txt"), "lib\n");
  userGit(lib, "add", "-A");
  userGit(lib, "commit", "-qm", "lib");
  userGit(project, "init", "-q");
  userGit(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib");
  userGit(project, "init", "-q", "tools/nested");
  writeFileSync(path.join(project, "tools", "nested", "n.txt"), "nested\n");
  userGit(path.join(project, "tools", "nested"), "add", "-A");
  userGit(path.join(project, "tools", "nested"), "commit", "-qm", "nested");
  execFileSync("mkdir", ["-p", path.join(project, ".githooks"), path.join(project, "node_modules", "pkg")]);
  writeFileSync(path.join(project, ".githooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  userGit(project, "config", "core.hooksPath", ".githooks");
  userGit(project, "add", "README.md", ".githooks", ".gitmodules", "vendor/lib");
  userGit(project, "commit", "-qm", "first");
  before = repositories();
});

afterAll(async () => {
  await bed.dispose();
});

describe("nested repositories", () => {
  it("a .git a command creates is removed when it ends, and the result says why", async () => {
    const result = await bed.bash({ command: "git init -q sub && echo made" });
    expect(result).toContain("made\n");
    expect(result).toContain(`removed sub/.git (new directory): ${NESTED_REPOSITORY_REASON}`);
    expect(exitCode(result)).toBe(0);
    expect(existsSync(path.join(bed.project, "sub", ".git"))).toBe(false);
    expect(existsSync(path.join(bed.project, "sub"))).toBe(true);
  });

  it("the plant would run on the host if it stayed: the check catches it", () => {
    const planted = path.join(bed.project, "planted");
    userGit(bed.project, "init", "-q", "planted");
    userGit(planted, "commit", "-q", "--allow-empty", "-m", "planted");
    userGit(planted, "config", "core.fsmonitor", `touch ${marker}`);
    userGit(bed.project, "add", "-A");
    userGit(bed.project, "status");
    expect(existsSync(marker)).toBe(true);
    rmSync(planted, { recursive: true });
    userGit(bed.project, "add", "-A");
    userGit(bed.project, "commit", "-qm", "control");
    rmSync(marker);
    expect(repositories()).toBe(before);
  });

  it("one made by a background command while another runs is removed too", async () => {
    const started = await bed.bash({
      command: `git init -q bgsub && git -C bgsub config core.fsmonitor 'touch ${marker}' && sleep 3`,
      run_in_background: true,
    });
    const id = /background as (bg\d+)/.exec(started)?.[1] as string;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The foreground command's sweep already takes it away.
    const foreground = await bed.bash({ command: "ls bgsub/.git >/dev/null && echo seen" });
    expect(foreground).toContain("removed bgsub/.git (new directory)");
    let output = "";
    for (let i = 0; i < 400 && !/\[bg\d+: (exit|killed|ended)/.test(output); i++) {
      output += await bed.bashOutput({ id });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(output).toMatch(/\[bg\d+: exit code 0\]/);
    check("background and foreground", output);
    expect(escapes).toEqual([]);
  }, 60_000);

  it("hundreds of generated attempts to plant one all fail", async () => {
    const hook = `touch ${marker}`;
    let n = 0;
    const places = (i: number) => [
      `p${i}`,
      `p${i}/a/b`,
      `tools/nested/p${i}`,
      `vendor/lib/p${i}`,
      `node_modules/pkg/p${i}`,
      `.githooks/p${i}`,
    ];
    const names = [".git", ".GIT", ".Git"];
    const plants: ((at: string, name: string, i: number) => string)[] = [
      (at, name) =>
        `mkdir -p ${at}/${name}/objects ${at}/${name}/refs && echo 'ref: refs/heads/main' > ${at}/${name}/HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = ${hook}\\n' > ${at}/${name}/config`,
      (at, name, i) =>
        `git init -q prep${i} && git -C prep${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && mv prep${i}/.git ${at}/${name}`,
      (at, name, i) =>
        `git init -q --bare bare${i} && git -C bare${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && mv bare${i} ${at}/${name}`,
      (at, name, i) =>
        `git init -q --bare bare${i} && git -C bare${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && echo "gitdir: $PWD/bare${i}" > ${at}/${name}`,
      (at, name, i) =>
        `git init -q --bare bare${i} && git -C bare${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && ln -s $PWD/bare${i} ${at}/${name}`,
      (at, name, i) =>
        `git init -q --bare /tmp/t${i} && git -C /tmp/t${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && ln -s /tmp/t${i} ${at}/${name}`,
      (at, name, i) =>
        `git init -q prep${i} && git -C prep${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && cp -r prep${i}/.git ${at}/${name}`,
      (at, name, i) =>
        `git init -q --bare bare${i} && git -C bare${i} config core.fsmonitor '${hook}' && mkdir -p ${at} && /usr/bin/python3 -c "import os; os.rename('bare${i}', '${at}/${name}')"`,
    ];
    const generated: string[] = [];
    for (const plant of plants)
      for (const name of names)
        for (const at of places(n++)) generated.push(plant(at, name, n * 10 + names.indexOf(name)));
    for (const at of places(n++))
      generated.push(`git init -q ${at} && git -C ${at} config core.fsmonitor '${hook}'`);
    // Where nothing is masked yet: a secret-named directory the command makes itself.
    for (const at of [`k${n}.pem`, `deep${n}/.env.d`, `n${n}/id_rsa.d/x`])
      generated.push(`git init -q ${at} && git -C ${at} config core.fsmonitor '${hook}'`);
    const existing = [
      `rm -f vendor/lib/.git; git init -q vendor/lib; git -C vendor/lib config core.fsmonitor '${hook}'`,
      `git init -q --bare /tmp/b && git -C /tmp/b config core.fsmonitor '${hook}'; echo "gitdir: /tmp/b" > vendor/lib/.git`,
      `git -C vendor/lib config core.fsmonitor '${hook}'`,
      `git -C tools/nested config core.fsmonitor '${hook}'`,
      `printf '[core]\\n\\tfsmonitor = ${hook}\\n' >> tools/nested/.git/config`,
      `mkdir -p tools/nested/.git/hooks; printf '#!/bin/sh\\n${hook}\\n' > tools/nested/.git/hooks/post-checkout`,
      `mv tools/nested/.git tools/nested/old && git init -q tools/nested && git -C tools/nested config core.fsmonitor '${hook}'`,
      `rm -rf tools/nested/.git; git init -q tools/nested; git -C tools/nested config core.fsmonitor '${hook}'`,
      `mv tools/nested tools/moved; git init -q tools/nested; git -C tools/nested config core.fsmonitor '${hook}'`,
      `mv vendor/lib vendor/moved; git init -q vendor/lib; git -C vendor/lib config core.fsmonitor '${hook}'`,
      `mv tools tools2; mkdir -p tools/nested; git init -q tools/nested; git -C tools/nested config core.fsmonitor '${hook}'`,
      `printf '#!/bin/sh\\n${hook}\\n' > .githooks/pre-commit`,
      `rm -rf .githooks; mkdir .githooks; printf '#!/bin/sh\\n${hook}\\n' > .githooks/pre-commit; chmod +x .githooks/pre-commit`,
      `mv .githooks hooks-old; mkdir .githooks; printf '#!/bin/sh\\n${hook}\\n' > .githooks/pre-commit; chmod +x .githooks/pre-commit`,
      `printf '[core]\\n\\tfsmonitor = ${hook}\\n' >> .git/modules/vendor/lib/config`,
      `printf '[core]\\n\\tfsmonitor = ${hook}\\n' >> .git/config`,
      `mv .git .git-old; git init -q .; git config core.fsmonitor '${hook}'`,
    ];
    generated.push(...existing);
    const inBackground = generated.filter((_, i) => i % 4 === 0);
    for (const command of generated) await attempt(command);
    for (const command of inBackground) await attemptInBackground(command);
    console.log(`nested repositories: ${attempts} attempts, ${escapes.length} escapes`);
    expect(attempts).toBeGreaterThanOrEqual(200);
    expect({ attempts, escapes }).toEqual({ attempts, escapes: [] });
  }, 1_200_000);

  it("a hooks directory core.hooksPath names, made by a command, is removed when it ends", async () => {
    const own = await shellBed({ parentDir: "/var/tmp", files: { "README.md": "# project\n" } });
    rmSync(path.join(own.project, ".git"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: own.project });
    execFileSync("git", ["config", "core.hooksPath", ".husky/_"], { cwd: own.project });
    const result = await own.bash({
      command: `mkdir -p .husky/_ && printf '#!/bin/sh\\ntouch ${marker}\\n' > .husky/_/pre-commit && echo made`,
    });
    expect(result).toContain("made\n");
    expect(result).toContain("removed .husky/_ (the repository's core.hooksPath, which the user's git runs)");
    expect(existsSync(path.join(own.project, ".husky", "_"))).toBe(false);
  });

  // Last: it closes the shared shell.
  it("one a background command made is removed when the Pod closes", async () => {
    const made = path.join(bed.project, "closing", ".git");
    await bed.bash({ command: "git init -q closing && sleep 60", run_in_background: true });
    for (let i = 0; i < 200 && !existsSync(made); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(made)).toBe(true);
    await bed.shell.close();
    expect(existsSync(made)).toBe(false);
    expect(existsSync(path.dirname(made))).toBe(true);
  });
});
