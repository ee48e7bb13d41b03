/**
 * Configuration for every git the host runs in a tree a sandboxed command, a model or a
 * repository's author may have written: settings given on the command line (or as
 * `GIT_CONFIG_COUNT`) beat every configuration file, and git passes them on to the git processes
 * it starts in submodules. What each stops:
 */
export const HOST_GIT_CONFIG: Readonly<Record<string, string>> = {
  /** A repository's `core.fsmonitor` is a command git runs at every index refresh (status, diff, add, commit). */
  "core.fsmonitor": "false",
  /** Hooks are programs in the tree or wherever `core.hooksPath` says. */
  "core.hooksPath": "/dev/null",
  /** `core.pager` is a command; so is `pager.<cmd>`, which `cat` as the pager makes moot. */
  "core.pager": "cat",
  /** No descent into submodules: each would run git with the nested repository's own configuration. */
  "submodule.recurse": "false",
  /** `status` and `commit` would run `git log` in every changed submodule, with its configuration. */
  "status.submoduleSummary": "false",
  /** `diff` would run `git diff` in every changed submodule, with its configuration. */
  "diff.submodule": "short",
  /**
   * Whether a submodule has changes of its own is asked of a `git status` inside it, which runs its
   * configuration's clean filters over its files (measured: `git diff` and `git commit` in the top
   * repository ran a planted submodule's filter, even with the settings above). `dirty`: compare
   * the submodule's HEAD with the recorded commit only, which reads a ref and runs nothing.
   */
  "diff.ignoreSubmodules": "dirty",
  /** Nor for fetches: `fetch.recurseSubmodules` would fetch every submodule with its configuration. */
  "fetch.recurseSubmodules": "false",
  /** The untracked cache is written into the index from what the tree holds; nothing to trust there. */
  "core.untrackedCache": "false",
  /** `ext::` URLs run a command (already git's default; a URL comes from whoever submitted the run). */
  "protocol.ext.allow": "never",
};

/**
 * Git's environment for the host's own git processes: `HOST_GIT_CONFIG` (and `extra`) as
 * `GIT_CONFIG_COUNT` settings, so every git a script starts has them too, no prompt for
 * credentials on a terminal (a worker has none to answer it) and no optional locks (`status`
 * refreshing the index behind another git's back). `diff.external` cannot be turned off by
 * configuration (an empty value makes `git diff` fail): pass `--no-ext-diff` to diffs instead.
 * `GIT_CONFIG_NOSYSTEM` is not set: the system's configuration is the administrator's, not the tree's.
 */
export function hostGitEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const settings = Object.entries({ ...HOST_GIT_CONFIG, ...extra });
  return Object.fromEntries([
    ["GIT_CONFIG_COUNT", String(settings.length)],
    ...settings.flatMap(([key, value], i) => [
      [`GIT_CONFIG_KEY_${i}`, key],
      [`GIT_CONFIG_VALUE_${i}`, value],
    ]),
    ["GIT_TERMINAL_PROMPT", "0"],
    ["GIT_OPTIONAL_LOCKS", "0"],
  ]);
}
