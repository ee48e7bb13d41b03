import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import type { ManifestLayerInput } from "@yoake/pod";
import { userManifestPath, yoakeStateDir } from "@yoake/pod";
import type { RunSpec } from "../runs/run-record.js";
import { checkRunSpec, RunSpecError } from "../runs/submitter-policy.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The top manifest layer of every run, over the submitter's overrides: commands run in the
 * sandbox or not at all. A worker where the sandbox cannot work runs its runs without `bash`
 * (never with an unsandboxed one that an approval, which anyone who can write the database can
 * give, would let run on the worker itself).
 */
export const WORKER_OVERRIDES = { shell: { sandbox: true, unsandboxed: "off" } } as const;

/** Where PostgreSQL's server puts its socket when nothing says otherwise (Debian, Red Hat). */
const DEFAULT_SOCKET_DIRECTORIES = ["/run/postgresql", "/var/run/postgresql"];

/**
 * The worker's own variables, which no run's Pod (nor its hooks and MCP servers) gets: the
 * database's URL and libpq's settings (`PGHOST`, `PGPASSWORD`, `PGPASSFILE`, ...), and what lets
 * git and ssh act with the worker's credentials (`SSH_AUTH_SOCK`, `GIT_ASKPASS`, `GIT_SSH_COMMAND`,
 * `GIT_CONFIG_*`, ...).
 */
const WORKER_VARIABLE = /^(?:.*DATABASE_URL.*|PG[A-Z0-9_]*|GIT_[A-Z0-9_]*|SSH_[A-Z0-9_]*)$/i;
/** A value that carries a password: a URL with one (`scheme://user:secret@host`) or libpq's `password=`. */
const PASSWORD_VALUE = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@|(?:^|\s)password\s*=/i;

/**
 * The environment a run's Pod is given: the worker's, without its own variables
 * (`WORKER_VARIABLE`) and without any value carrying a password. Provider keys and base URLs,
 * `HOME`, `PATH`, `LANG`, the `XDG_*` directories stay: the Pod needs them, and keeps provider keys
 * from commands and hooks itself.
 */
export function podEnvironment(env: Env): Record<string, string | undefined> {
  const kept: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    if (WORKER_VARIABLE.test(name)) continue;
    if (value !== undefined && PASSWORD_VALUE.test(value)) continue;
    kept[name] = value;
  }
  return kept;
}

/**
 * The directories a run's commands must not see, hidden behind an empty tmpfs
 * (`PodOptions.shellHide`): the worker's home (its `~/.ssh`, credentials, other projects), the
 * `XDG_*` directories, Yoake's own state and configuration (the session key, the trust store), the
 * repository cache (other repositories' mirrors, other runs' trees), the directories of shared
 * paths the worker serves (`allowPaths`: other runs' shared paths), and the directories of
 * PostgreSQL's Unix sockets: the database URL's (`host=/dir`, or a host that is a path), `PGHOST`'s,
 * and the usual defaults. The run's own tree, when it is inside one of them, is bound again on top.
 * Those that do not exist are skipped by the sandbox.
 */
export function hiddenFromRuns(options: {
  env: Env;
  cacheRoot: string;
  databaseUrl: string;
  allowPaths?: readonly string[];
}): string[] {
  const { env } = options;
  const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
  const hidden = [
    home,
    homedir(),
    ...["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"].flatMap((name) => {
      const dir = env[name];
      return dir !== undefined && path.isAbsolute(dir) ? [dir] : [];
    }),
    yoakeStateDir(env),
    path.dirname(userManifestPath(env, home)),
    options.cacheRoot,
    ...(options.allowPaths ?? []),
    ...socketDirectories(options.databaseUrl, env.PGHOST),
    ...DEFAULT_SOCKET_DIRECTORIES,
  ];
  // Never the root itself (a service user's HOME may be `/`): that would hide the toolchains too.
  const absolute = hidden.filter((dir) => path.isAbsolute(dir)).map((dir) => path.resolve(dir));
  return [...new Set(absolute.filter((dir) => dir !== "/"))];
}

/**
 * The Unix socket directories a PostgreSQL URL and `PGHOST` name: a host that is a path
 * (`postgres://u@%2Fvar%2Frun%2Fpg/db`), `?host=/dir`, `socket:/dir`, libpq's `host=/dir`; each may
 * list several, separated by commas. Read with patterns, not `URL`, which refuses some of the
 * forms node-postgres accepts (`postgres://u@/db?host=/dir`).
 */
function socketDirectories(url: string, pgHost: string | undefined): string[] {
  const hosts = [pgHost ?? ""];
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const authority = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url)?.[1];
  if (authority !== undefined) hosts.push(decode(authority));
  for (const match of url.matchAll(/[?&]host=([^&#]*)/gi)) hosts.push(decode(match[1] as string));
  const socket = /^socket:([^?#]*)/i.exec(url)?.[1];
  if (socket !== undefined) hosts.push(decode(socket));
  for (const match of url.matchAll(/(?:^|\s)host\s*=\s*'?([^'\s]+)/gi)) hosts.push(match[1] as string);
  return hosts
    .flatMap((host) => host.split(","))
    .map((host) => host.trim())
    .filter((host) => host.startsWith("/"));
}

/**
 * The spec of a run this worker will run, or a `RunSpecError` saying why not: the spec as a
 * submitter may write it (`checkRunSpec`: the database may hold one no `submit` checked), and a
 * shared path only inside a directory the worker serves (`allowPaths`, `yoake worker --allow-path`),
 * compared by real path. The spec returned names the real path, so a link changed after the check
 * does not move the run elsewhere.
 */
export async function admitRun(spec: unknown, allowPaths: readonly string[]): Promise<RunSpec> {
  const checked = checkRunSpec(spec);
  if (checked.path === undefined) return checked;
  const real = await realpath(checked.path).catch(() => undefined);
  if (real === undefined)
    throw new RunSpecError(`refused run: the shared path ${checked.path} does not exist here`);
  for (const allowed of allowPaths) {
    const root = await realpath(allowed).catch(() => undefined);
    if (root !== undefined && (real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`)))
      return { ...checked, path: real };
  }
  throw new RunSpecError(
    allowPaths.length === 0
      ? `refused run: this worker runs no shared paths (${checked.path}); start it with --allow-path <dir>`
      : `refused run: the shared path ${checked.path} is outside the directories this worker serves (--allow-path)`,
  );
}

/**
 * The manifest layer a run's Pod gets: the submitter's overrides and model, under
 * `WORKER_OVERRIDES`, and read access to `readable` (the object store the run's tree borrows, which
 * the sandbox then shows again inside the hidden cache).
 */
export function runOverrides(spec: RunSpec, readable: readonly string[] = []): ManifestLayerInput {
  const submitted = (spec.overrides ?? {}) as ManifestLayerInput;
  return {
    ...submitted,
    ...(spec.model !== undefined && { model: { ref: spec.model } }),
    ...(readable.length > 0 && {
      scope: { ...submitted.scope, allow: readable.map((dir) => ({ path: dir, access: "read" as const })) },
    }),
    shell: { ...submitted.shell, ...WORKER_OVERRIDES.shell },
  };
}
