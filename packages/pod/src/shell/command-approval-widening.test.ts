/**
 * "Allow for this session" in unsandboxed mode never widens to a front end's first word: for
 * generated pairs (a command the user allowed for the session, a later command that runs something
 * else through the same interpreter, package manager, VCS or wrapper), the later one still asks.
 * Ordinary repeats of an allowed command (more flags to the same subcommand) still run unasked.
 */
import { describe, expect, it } from "vitest";
import { CommandApprovals } from "./command-approval.js";

/** Commands a user would allow for the session, per front end. */
const APPROVED: Readonly<Record<string, readonly string[]>> = {
  git: [
    "git -c color.ui=never log",
    "git log",
    "git status",
    "git diff --stat",
    "git --no-pager log -5",
    "git -C . status",
    "/usr/bin/git log --oneline",
  ],
  python: [
    "python3 -m pytest",
    "python3 -m pytest -q tests",
    "python3 tools/check.py",
    "python -m unittest",
    "python3.12 -m mypy src",
  ],
  node: ["node scripts/build.js", "node --test", "npx prettier --check .", "npx -y tsc --noEmit"],
  npm: ["npm -s test", "npm test", "npm run build", "npm ci", "pnpm test", "yarn test", "bun test"],
  make: ["make test", "make -j4", "cargo test", "cargo build --release", "go test ./...", "go vet ./..."],
  wrappers: [
    "env CI=1 npm test",
    "sudo apt-get update",
    "xargs -n1 echo",
    "timeout 60 npm test",
    "bash scripts/test.sh",
    "sh -c 'npm test'",
    "docker ps",
    "ssh build-host uptime",
    "find . -name '*.ts'",
    "awk '{print $1}' file",
    "CI=1 npm test",
    "GIT_PAGER=cat git log",
  ],
  others: ["ruby -Ilib test/all.rb", "perl -w script.pl", "php -l index.php", "deno test", "deno eval 1"],
};

/** Later commands that run something the approvals above did not name: each must ask. */
const LATER: readonly string[] = [
  // git: inline config, aliases, other repositories, the global config, hooks and pagers.
  "git -c alias.x='!sh -c id' x",
  "git -c core.pager='sh -c id' log",
  "git -c core.fsmonitor='touch /tmp/pwned' status",
  "git -c core.sshCommand=id fetch",
  "git config --global core.pager 'sh -c id'",
  "git config --global alias.st '!id'",
  "git config core.hooksPath /tmp/hooks",
  "git --exec-path=/tmp log",
  "git --git-dir=/tmp/evil/.git log",
  "git --work-tree=/ status",
  "git -C /tmp/evil status",
  "git -C/tmp/evil status",
  "git log --ext-diff",
  "git log --output=/tmp/x",
  "git log '-c' alias.x=!id",
  "git diff --ext-diff --textconv",
  "git status -c core.fsmonitor=id",
  "git grep -O id x",
  "git push --receive-pack=id",
  "git fetch --upload-pack=id",
  "git x",
  "git submodule foreach id",
  "git clone evil",
  "git rebase --exec id",
  "GIT_CONFIG_PARAMETERS=\"'core.pager'='id'\" git log",
  "git log $EVIL",
  // Interpreters: inline code, other modules, preloads.
  "python3 -c 'import os; os.system(\"id\")'",
  "python3 -m http.server",
  "python3 -m pip install evil",
  "python3 -mpip install evil",
  "python3 evil.py",
  "python -c id",
  "python3.12 -c 'print(1)'",
  "python3 -m pytest -p evil_plugin",
  "python3 tools/check.py -c evil",
  'node -e \'require("child_process").execSync("id")\'',
  "node --eval 'process.exit(1)'",
  "node -p 'process.env'",
  "node --require ./evil.js scripts/build.js",
  "node --import ./evil.mjs --test",
  "node scripts/build.js --loader=./evil.mjs",
  "node evil.js",
  "npx evil-package",
  "npx -y evil-package",
  "npx prettier --check . --config=/tmp/evil",
  "ruby -e 'system(\"id\")'",
  "ruby -Ilib -e id",
  "perl -e 'system q(id)'",
  "perl -w -e id",
  "php -r 'system(\"id\");'",
  "deno eval 'Deno.exit(1)'",
  "deno run -A evil.ts",
  // Package managers: other scripts, arbitrary packages, other configs and prefixes.
  "npm exec evil",
  "npm x evil",
  "npm -s exec evil",
  "npm run evil",
  "npm run-script evil",
  "npm test --script-shell=/tmp/evil",
  "npm test --prefix /tmp/evil",
  "npm test --userconfig /tmp/npmrc",
  "npm test --node-options=--require=./evil.js",
  "npm install evil",
  "npm ci --prefix=/tmp/evil",
  "npm config set script-shell /tmp/evil",
  "pnpm exec evil",
  "pnpm dlx evil",
  "pnpm test --config.script-shell=/tmp/evil",
  "yarn dlx evil",
  "yarn run evil",
  "bun x evil",
  "bun -e 'Bun.spawn([\"id\"])'",
  "bun run evil.ts",
  // Build tools: other makefiles, directories, shells, runners.
  "make -f /tmp/evil.mk test",
  "make test -f /tmp/evil.mk",
  "make test SHELL=/tmp/evil",
  "make -C /tmp/evil test",
  "make test --eval='x:=$(shell id)'",
  "make evil",
  "cargo test --config 'target.x86_64-unknown-linux-gnu.runner=\"id\"'",
  "cargo test --manifest-path /tmp/evil/Cargo.toml",
  "cargo build --release --config=build.rustc-wrapper=id",
  "cargo run",
  "cargo install evil",
  "go test -exec id ./...",
  "go run evil.go",
  "go generate ./...",
  "go vet -vettool=/tmp/evil ./... -C /tmp",
  // Wrappers, shells, remotes, containers, programs in the arguments.
  "env CI=1 sh -c id",
  "env CI=1 npm exec evil",
  "env -i sh -c id",
  "sudo sh -c id",
  "sudo apt-get install evil",
  "xargs -n1 sh -c id",
  "xargs sh -c id",
  "timeout 60 sh -c id",
  "timeout 60 python3 -c id",
  "bash -c id",
  "bash evil.sh",
  "sh -c id",
  "docker run --privileged -v /:/host alpine sh",
  "docker exec x sh",
  "ssh build-host rm -rf ~",
  "ssh evil-host",
  "find . -exec sh -c id \\;",
  "find . -delete",
  "awk 'BEGIN{system(\"id\")}'",
  "CI=1 sh -c id",
  "CI=1 npm exec evil",
  "GIT_PAGER='sh -c id' git log",
  "LD_PRELOAD=/tmp/evil.so git log",
];

describe("session approvals of front ends", () => {
  it("never widen: a later command through the same front end that runs something else asks again", () => {
    let pairs = 0;
    const widened: string[] = [];
    for (const approved of Object.values(APPROVED).flat()) {
      for (const later of LATER) {
        if (later.trim() === approved.trim()) continue;
        const approvals = new CommandApprovals([], false);
        const ask = approvals.check(approved);
        if (ask === undefined) throw new Error(`expected ${approved} to ask`);
        approvals.allowForSession(ask);
        pairs += 1;
        if (approvals.check(later) === undefined) widened.push(`${approved}  ⇒  ${later}`);
      }
    }
    console.log(`session approvals: ${pairs} (approved, later) pairs, ${widened.length} widened`);
    expect(pairs).toBeGreaterThanOrEqual(300);
    expect(widened).toEqual([]);
  });

  it("remember a front end with an option before its subcommand as the exact line", () => {
    const cases: Array<[string, string]> = [
      ["git -c color.ui=never log", "exact"],
      ["python3 -m pytest", "exact"],
      ["npm -s test", "exact"],
      ["env CI=1 npm test", "exact"],
      ["GIT_PAGER=cat git log", "exact"],
      ["git log --oneline", "git log"],
      ["npm run build", "npm run build"],
      ["python3 tools/check.py -v", "python3 tools/check.py"],
      ["ls -la", "ls"],
    ];
    for (const [command, remembered] of cases) {
      const ask = new CommandApprovals([], false).check(command);
      expect(ask?.sessionAllows).toEqual(
        remembered === "exact" ? { kind: "exact", text: command } : { kind: "prefix", text: remembered },
      );
    }
  });

  it("still let the same subcommand run again with its ordinary flags", () => {
    const allowed: Array<[string, string]> = [
      ["git log", "git log --oneline -20"],
      ["git status", "git status --short"],
      ["git -c color.ui=never log", "git -c color.ui=never log"],
      ["python3 -m pytest", "python3 -m pytest"],
      ["npm test", "npm test -- --watch"],
      ["npm run build", "npm run build --silent"],
      ["cargo test", "cargo test --release"],
      ["python3 tools/check.py", "python3 tools/check.py --verbose"],
      ["ls -la", "ls src"],
    ];
    for (const [approved, later] of allowed) {
      const approvals = new CommandApprovals([], false);
      const ask = approvals.check(approved);
      if (ask === undefined) throw new Error(`expected ${approved} to ask`);
      approvals.allowForSession(ask);
      expect(approvals.check(later), `${approved} then ${later}`).toBeUndefined();
    }
  });
});
