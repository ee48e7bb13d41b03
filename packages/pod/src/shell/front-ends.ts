/**
 * Commands whose first word says little about what runs: "allow for this session" of one of them
 * must never become "allow every command that starts with this word". `git -c color.ui=never log`
 * allowed as `git` would allow `git -c alias.x='!sh' x`; `python3 -m pytest` as `python3` would
 * allow `python3 -c ...`. See `sessionPrefix` in command-approval.ts for how they are remembered.
 */

/**
 * Commands whose arguments are themselves a command, a program or a place it runs: a wrapper
 * (`sudo`, `env`, `xargs`, `timeout`), a shell (`bash script.sh`, `sh -c`), a remote or a container
 * (`ssh host cmd`, `docker run`, `kubectl exec`), a program in the arguments (`awk`, `sed`'s `e`,
 * `find -exec`). Allowing one for the session allows that exact command line only.
 */
export const EXACT_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  // Wrappers: the next word is the command that runs.
  "sudo",
  "doas",
  "su",
  "runuser",
  "env",
  "xargs",
  "nice",
  "ionice",
  "nohup",
  "time",
  "timeout",
  "exec",
  "command",
  "builtin",
  "eval",
  "source",
  ".",
  "stdbuf",
  "setsid",
  "chroot",
  "unshare",
  "nsenter",
  "flock",
  "watch",
  "parallel",
  "script",
  "strace",
  "ltrace",
  "gdb",
  "valgrind",
  "busybox",
  // Shells.
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "csh",
  "tcsh",
  // Remote machines and containers: whatever runs there is in the arguments.
  "ssh",
  "docker",
  "podman",
  "kubectl",
  "nerdctl",
  // A program in the arguments.
  "awk",
  "gawk",
  "mawk",
  "sed",
  "find",
]);

/**
 * Interpreters, package managers, build tools and VCS front ends: the word after them is a
 * subcommand, a script or a package (`git log`, `npm test`, `python3 tool.py`, `npx prettier`), and
 * options before it (`git -c`, `-C`, `--exec-path`, `python3 -m`, `-c`, `node -e`, `--require`,
 * `npm -s`) change what runs. Allowed for the session, such a command is remembered as the front end
 * and its subcommand only when no option stands between them (else as that exact line), and a later
 * command matches only without an option of `RUN_CHANGING_OPTIONS` or a `NAME=value` word after it.
 */
export const FRONT_ENDS: ReadonlySet<string> = new Set([
  "git",
  "hg",
  "svn",
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "node",
  "nodejs",
  "tsx",
  "ts-node",
  "npm",
  "npx",
  "pnpm",
  "pnpx",
  "yarn",
  "bun",
  "bunx",
  "deno",
  "ruby",
  "perl",
  "php",
  "lua",
  "Rscript",
  "julia",
  "java",
  "dotnet",
  "pip",
  "pip3",
  "pipx",
  "uv",
  "uvx",
  "poetry",
  "make",
  "gmake",
  "cmake",
  "cargo",
  "rustup",
  "go",
  "gradle",
  "mvn",
  "rake",
  "bundle",
  "gem",
  "composer",
  "mix",
  "swift",
  "gh",
  "terraform",
  "helm",
  "tar",
  "rsync",
  "scp",
  "zip",
]);

/** A versioned interpreter name (`python3.12`, `ruby3.3`, `node20`) counts as its front end. */
const VERSIONED = /^(python|pypy|ruby|node|perl|php|lua)[0-9.]*$/;

/**
 * Subcommands that run a thing named by the next word (`npm run build`, `npm exec x`, `deno eval
 * code`, `go run main.go`, `cargo run`): remembered with that word too, so `npm run build` does not
 * allow `npm run anything`; with an option or nothing after them, the exact line.
 */
export const RUNNING_SUBCOMMANDS: ReadonlySet<string> = new Set([
  "run",
  "run-script",
  "exec",
  "x",
  "dlx",
  "eval",
  "shell",
  "script",
  "tool",
]);

/**
 * Options that change what a front end runs, or where (a config, an alias, a hook, another
 * repository or directory, code given inline, a module, a preload, a pager or an external diff, a
 * file written). A later command with one of these after an allowed prefix asks again. Matched
 * before `=` and `.`: `--exec-path=/tmp` is `--exec-path`, `--config.script-shell=x` is `--config`.
 */
export const RUN_CHANGING_OPTIONS: ReadonlySet<string> = new Set([
  "-c",
  "-C",
  "-e",
  "-E",
  "-m",
  "-p",
  "-r",
  "-x",
  "-I",
  "-f",
  "-O",
  "--eval",
  "--print",
  "--exec",
  "--exec-path",
  "--require",
  "--import",
  "--loader",
  "--experimental-loader",
  "--config",
  "--config-file",
  "--config-env",
  "--file",
  "--makefile",
  "--directory",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--upload-pack",
  "--receive-pack",
  "--ext-diff",
  "--textconv",
  "--output",
  "--open-files-in-pager",
  "--prefix",
  "--userconfig",
  "--globalconfig",
  "--script-shell",
  "--node-options",
  "--init-file",
  "--rcfile",
  "--to-command",
  "--use-compress-program",
  "--checkpoint-action",
  "--rsh",
  "--rsync-path",
  "--manifest-path",
  "--target-dir",
  "--cwd",
]);

/** The command name of a first word: its base name, `/usr/bin/git` being `git`. */
export function commandName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** Whether a command named `name` is one whose session approval must stay exact. */
export function isExactOnly(name: string): boolean {
  return EXACT_ONLY_COMMANDS.has(name);
}

/** Whether `name` is a front end (see `FRONT_ENDS`), a versioned interpreter included. */
export function isFrontEnd(name: string): boolean {
  return FRONT_ENDS.has(name) || VERSIONED.test(name);
}

/** Whether `word` (quotes already taken out) is an option of `RUN_CHANGING_OPTIONS`, or joins one (`-cfoo`, `-Cdir`). */
export function changesWhatRuns(word: string): boolean {
  const name = word.split("=", 1)[0] as string;
  // `--config.script-shell=...`: npm's and pnpm's way of setting one key of a listed option.
  if (RUN_CHANGING_OPTIONS.has(name) || RUN_CHANGING_OPTIONS.has(name.split(".", 1)[0] as string))
    return true;
  // A short option with its value joined (`-calias.x=...`, `-Cdir`, `-mpytest`), or in a cluster (`-Sc`).
  if (/^-[A-Za-z]/.test(word) && !word.startsWith("--"))
    return [...word.slice(1)].some((letter) => RUN_CHANGING_OPTIONS.has(`-${letter}`));
  return false;
}
