/**
 * What the install test does as a user would: build and `npm pack` the packages of this
 * repository, and install the tarballs into a scratch project outside it.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundlePackages, PACKAGE_DIRS } from "../../scripts/bundle.js";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CONSUMER_FILES = fileURLToPath(new URL("./consumer/", import.meta.url));

/** Versions of what a user would install beside the packages (those of this repository's lockfile). */
const CONSUMER_DEPENDENCIES = ["zod@4.6.7", "typescript@6.0.3", "@types/node@22.20.5"];

export interface CommandOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: this process's, without what npm and this repository's
 * `.npmrc` add for its own scripts (the `@yoake/source` condition would send an installed package
 * to sources it does not ship).
 */
export function userEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...extra })) {
    if (value === undefined || name === "NODE_OPTIONS" || name === "INIT_CWD") continue;
    if (name.startsWith("npm_") && !(name in extra)) continue;
    env[name] = value;
  }
  return env;
}

/** npm's cache and user config by where they are, so runs with a scratch HOME still find them. */
export function npmLocations(): Record<string, string> {
  return {
    npm_config_cache: process.env.npm_config_cache ?? path.join(homedir(), ".npm"),
    npm_config_userconfig: process.env.npm_config_userconfig ?? path.join(homedir(), ".npmrc"),
  };
}

/** Runs a command to its end; never throws on a non-zero exit (the outcome says it). */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? userEnv(),
        timeout: options.timeoutMs ?? 300_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") reject(error);
        else resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
    // Nothing is piped in: `yoake -p` reads standard input to its end.
    child.stdin?.end();
  });
}

/** Like `run`, but a non-zero exit is an error that shows the command's output. */
export async function succeed(
  command: string,
  args: readonly string[],
  options: Parameters<typeof run>[2],
): Promise<CommandOutcome> {
  const outcome = await run(command, args, options);
  if (outcome.code !== 0)
    throw new Error(
      `${command} ${args.join(" ")} exited ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`,
    );
  return outcome;
}

/** One packed package: its name, its tarball, and the paths of the files in it. */
export interface PackedPackage {
  name: string;
  tarball: string;
  files: string[];
}

/** `npm run build` (tsc -b, incremental, then the bundle), then `npm pack` of every package into `destination`. */
export async function buildAndPack(destination: string): Promise<PackedPackage[]> {
  await succeed(
    process.execPath,
    [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"],
    {
      cwd: REPO_ROOT,
    },
  );
  await bundlePackages(REPO_ROOT);
  const workspaces = PACKAGE_DIRS.flatMap((dir) => ["--workspace", dir]);
  const { stdout } = await succeed(
    "npm",
    ["pack", ...workspaces, "--pack-destination", destination, "--json"],
    {
      cwd: REPO_ROOT,
    },
  );
  const packed = JSON.parse(stdout) as Array<{
    name: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return packed.map((entry) => ({
    name: entry.name,
    tarball: path.join(destination, entry.filename),
    files: entry.files.map((file) => file.path),
  }));
}

/** A scratch directory outside the repository, with `app/` (the user's project) in it. */
export interface Scratch {
  root: string;
  /** The project the tarballs are installed into, holding the consumer programs. */
  app: string;
  /** An isolated HOME (config, state, sessions of the runs). */
  home: string;
  remove(): void;
}

export function createScratch(): Scratch {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-install-")));
  const app = path.join(root, "app");
  const home = path.join(root, "home");
  mkdirSync(home, { recursive: true });
  cpSync(CONSUMER_FILES, app, { recursive: true });
  writeFileSync(
    path.join(app, "package.json"),
    `${JSON.stringify({ name: "scratch-app", private: true, type: "module" }, null, 2)}\n`,
  );
  return { root, app, home, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** `npm install` of the tarballs (and zod, TypeScript, Node's types) in `app`, from the local cache first. */
export async function installTarballs(app: string, packages: readonly PackedPackage[]): Promise<void> {
  await succeed(
    "npm",
    [
      "install",
      ...packages.map((entry) => entry.tarball),
      ...CONSUMER_DEPENDENCIES,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
    ],
    { cwd: app },
  );
}
