import { homedir } from "node:os";
import path from "node:path";
import { yoakeStateDir } from "../manifest/data-dir.js";
import { TrustStore } from "../manifest/trust-store.js";
import { userConfigPath } from "../manifest/user-config-dir.js";
import { sessionKeyPath } from "../session-log/session-key.js";
import { SESSIONS_DIRECTORY } from "../session-log/sessions.js";

/**
 * Directories under the user's home that hold toolchains a build runs (version managers, user-wide
 * binaries and libraries, package caches of public code), shown read-only again once the home is
 * hidden. None of them is where a tool keeps a credential: those are in `CREDENTIAL_STORES`, and
 * where a toolchain's home holds both (`~/.cargo`, `~/.gradle`, `~/.m2`) only the public part is
 * listed. Anything else a build needs is for `[shell] reveal`.
 */
export const TOOLCHAIN_DIRS: readonly string[] = [
  // Node.js: version managers, global installs, pnpm and bun.
  ".nvm",
  ".volta",
  ".fnm",
  ".local/share/fnm",
  ".local/share/pnpm",
  ".npm/_cacache",
  ".yarn/berry/cache",
  ".bun",
  ".deno",
  // Headers and browsers that native modules and test runners download once.
  ".cache/node-gyp",
  ".cache/ms-playwright",
  ".cache/puppeteer",
  // Rust: binaries and the crates' sources (cargo's credentials are beside them, not in them).
  ".rustup",
  ".cargo/bin",
  ".cargo/registry",
  ".cargo/git",
  // Python, Ruby and the general version managers.
  ".pyenv",
  ".rbenv",
  ".asdf",
  ".local/share/mise",
  ".local/share/virtualenvs",
  ".cache/pypoetry/virtualenvs",
  // The user's own binaries and libraries (pip --user, pipx, make install PREFIX=~/.local).
  ".local/bin",
  ".local/lib",
  // Go, the JVM, .NET, Haskell, OCaml, Lean, Nix.
  "go",
  ".sdkman",
  ".m2/repository",
  ".gradle/wrapper",
  ".gradle/caches",
  ".dotnet",
  ".nuget/packages",
  ".ghcup",
  ".opam",
  ".elan",
  ".nix-profile",
];

/**
 * Where tools keep the user's credentials and private history, relative to the home: masked
 * wherever the sandbox would show them (the home is visible when the project contains it, and a
 * broad `[shell] reveal` shows part of it), unless a reveal or a scope rule names the path or a
 * path inside it. `.config/` entries are also looked for under `$XDG_CONFIG_HOME`.
 */
export const CREDENTIAL_STORES: readonly string[] = [
  // Keys and agents.
  ".ssh",
  ".gnupg",
  ".password-store",
  ".local/share/keyrings",
  ".pki",
  // Generic login files.
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".pgpass",
  ".my.cnf",
  // Package registries.
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".config/pip",
  ".pip",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".m2/settings.xml",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".nuget/NuGet",
  ".docker/config.json",
  // Clouds, clusters and forges.
  ".aws",
  ".azure",
  ".kube",
  ".oci",
  ".config/gcloud",
  ".config/doctl",
  ".config/hcloud",
  ".config/rclone",
  ".s3cfg",
  ".boto",
  ".vault-token",
  ".terraform.d/credentials.tfrc.json",
  ".fly",
  ".config/gh",
  ".config/hub",
  ".config/glab-cli",
  ".config/op",
  // Other agents' logins.
  ".claude",
  ".claude.json",
  ".codex",
  // Browsers (cookies, saved passwords).
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  // Shell and REPL histories: passwords typed on a command line end up there.
  ".bash_history",
  ".zsh_history",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
];

/** What the sandbox hides from reads outside the project, and what it shows again. */
export interface HostReads {
  /** The user's home (as `$HOME` says and as the password database says): hidden wholesale. */
  homes: string[];
  /** Shown read-only again (toolchains, `[shell] reveal`), absolute, `~` expanded. */
  reveal: string[];
  /** Paths a reveal counts as naming explicitly (`[shell] reveal` as written). */
  named: string[];
  /** Masked wherever visible, unless named: credential stores, Yoake's state and config, other projects' `.yoake`. */
  secrets: string[];
  /** Masked wherever visible, named or not: the session key. */
  sealed: string[];
}

/** Nothing hidden beyond the scope: for a probe that asks only whether bubblewrap works here. */
export const NO_HOST_READS: HostReads = { homes: [], reveal: [], named: [], secrets: [], sealed: [] };

/**
 * The read confinement of a Pod's shell: the user's home hidden but for its toolchains and
 * `reveal` (`[shell] reveal`, already `~`-expanded), credential stores and Yoake's own files
 * masked wherever they would show, the session key always. Other projects' `.yoake` directories
 * are those the trust store knows; this project's session logs (other sessions') are masked too.
 */
export async function hostReads(
  projectRoot: string,
  reveal: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<HostReads> {
  const homes = [
    ...new Set([env.HOME, homedir()].filter((h): h is string => h !== undefined && path.isAbsolute(h))),
  ];
  const xdgConfig = env.XDG_CONFIG_HOME;
  const configHomes = xdgConfig !== undefined && path.isAbsolute(xdgConfig) ? [xdgConfig] : [];
  const secrets = homes.flatMap((home) => CREDENTIAL_STORES.map((store) => path.join(home, store)));
  for (const configHome of configHomes)
    for (const store of CREDENTIAL_STORES)
      if (store.startsWith(".config/")) secrets.push(path.join(configHome, store.slice(".config/".length)));
  secrets.push(yoakeStateDir(env), path.dirname(userConfigPath(env, "x")));
  for (const root of await TrustStore.forEnv(env).knownProjects())
    if (root !== projectRoot) secrets.push(path.join(root, ".yoake"));
  secrets.push(path.join(projectRoot, SESSIONS_DIRECTORY));
  const expanded = reveal.map((p) => path.resolve(p));
  // Toolchains are those of the home the commands get (`$HOME`: where PATH and the tools look);
  // the password database's home, when another, is only hidden.
  const toolchainHome = homes[0];
  return {
    homes,
    reveal: [
      ...(toolchainHome === undefined ? [] : TOOLCHAIN_DIRS.map((dir) => path.join(toolchainHome, dir))),
      ...expanded,
    ],
    named: expanded,
    secrets: [...new Set(secrets)],
    sealed: [sessionKeyPath(env)],
  };
}
