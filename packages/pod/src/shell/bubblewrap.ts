import path from "node:path";
import { DEFAULT_SHELL_LIMITS } from "../manifest/defaults.js";
import type { ShellLimits } from "../manifest/resolve.js";
import { canonicalize } from "../scope/canonical-path.js";
import { pathCovers, type Scope, type ScopeRule } from "../scope/rules.js";
import { childScope } from "../subagents/child-scope.js";
import { MountPlan, mountArgs } from "./bubblewrap-mounts.js";
import { confineHostReads } from "./host-confinement.js";
import type { HostReads } from "./host-reads.js";
import { createPidsCgroup } from "./pids-cgroup.js";
import { type GuardedPaths, ProjectGuard } from "./project-guard.js";
import { type ResolvedPath, resolvePath } from "./resolved-path.js";
import { limitedArgv, tmpfsBytes } from "./resource-limits.js";
import type { Sandbox } from "./sandbox.js";
import { buildSeccompFilter, seccompArchFor } from "./seccomp.js";
import type { ShellLaunch } from "./shell-process.js";

/** What the sandbox confines beyond the scope rules. */
export interface ConfinementOptions {
  /** Share the host's network (default: a network namespace of its own, with nothing in it). */
  network: boolean;
  /**
   * Directories hidden behind an empty tmpfs: where Unix sockets of the user's session live (the
   * Pod's own protocol socket among them), and what the embedder hides (`PodOptions.shellHide`).
   * A read-only mount does not stop `connect()` on a socket. A writable scope directory inside a
   * hidden one (a fleet run's tree in the hidden cache) is bound again on top of the tmpfs, and a
   * readable one read-only (the object store that tree borrows).
   */
  hide: readonly string[];
  /** What outside the project commands may not read, and what they may again (see `hostReads`). */
  reads: HostReads;
  /** What one command may take (default: `[shell.limits]`'s defaults). */
  limits?: ShellLimits;
}

/** `DEFAULT_SHELL_LIMITS`, resolved: for confinement options that name no limits (tests, probes). */
export const DEFAULT_LIMITS: ShellLimits = {
  processes: DEFAULT_SHELL_LIMITS.processes,
  memoryMb: DEFAULT_SHELL_LIMITS.memory_mb,
  fileSizeMb: DEFAULT_SHELL_LIMITS.file_size_mb,
  tmpMb: DEFAULT_SHELL_LIMITS.tmp_mb,
};

/** The file descriptor bwrap reads the seccomp filter from (see `ShellLaunch.fd3`). */
const SECCOMP_FD = 3;

/** Names that stay read-only inside every writable directory: history, and the agent's own manifest. */
export const PROTECTED_NAMES = [".git", ".yoake"] as const;

interface ResolvedRule extends ResolvedPath {
  rule: ScopeRule;
}

/**
 * The bubblewrap arguments for a scope (before the command's argv). The whole file system is
 * bound read-only; `/dev`, `/proc` and `/tmp` are the sandbox's own. Each recursive write rule
 * that no deny rule covers is bound writable, with `.git` and `.yoake` inside it bound back
 * read-only; each deny-write rule inside a writable directory is bound read-only; each deny-read
 * rule is masked (an empty read-only tmpfs for a directory, /dev/null for a file). A deny rule
 * always wins, as in the ScopedFs.
 *
 * Outside the writable roots, `options.reads` decides what shows (see `confineHostReads`): the
 * user's home hidden but for its toolchains, the scope's other rules and `[shell] reveal`; /run
 * hidden; credential stores, Yoake's own files and the host's Unix sockets masked.
 *
 * The directories between a writable mount and a guarded path inside it are bound onto themselves
 * (`pins`), so no command can rename a hidden path away from its rule for the next one.
 *
 * Narrower than the ScopedFs where bubblewrap cannot say the same thing: a non-recursive write
 * rule grants nothing writable, a non-recursive deny-read rule hides its whole tree, and a rule for a
 * path that does not exist yet binds nothing (so a command can create it, read-only rules
 * notwithstanding, if its parent is writable).
 *
 * `guarded` adds what a scan of the project found (`ProjectGuard`): secret files masked as deny-read
 * rules are, nested repositories bound read-only as deny-write rules are (pinned the same way).
 *
 * Every namespace is unshared (the network too, unless `network`), the user namespace always
 * (also for root: RLIMIT_NPROC then counts the sandbox's processes only, and applies at all) with
 * no nested one allowed, capabilities dropped, the command is in a session of its own (no TIOCSTI
 * into the user's terminal) and dies with the Pod. The private /tmp and /dev/shm are tmpfs of
 * `limits.tmpMb` each; the rest of /dev is read-only, so no unbounded tmpfs is writable.
 */
export async function compileBubblewrapArgs(
  scope: Scope,
  cwd: string,
  options: ConfinementOptions,
  guarded: GuardedPaths = { masks: [], readOnly: [] },
): Promise<string[]> {
  const root = (await canonicalize(path.resolve(scope.root))).real;
  const allow = await Promise.all(scope.allow.map((rule) => resolveRule(root, rule)));
  const deny = await Promise.all(scope.deny.map((rule) => resolveRule(root, rule)));
  const plan = new MountPlan();
  /** What the scope lets commands read outside the writable roots: shown again where hidden. */
  const readable: string[] = [];
  for (const rule of allow) {
    if (!rule.exists) continue;
    const denied = deny.some((d) => pathCovers(d.real, d.rule.recursive, rule.real));
    if (denied) continue;
    if (rule.rule.access === "write" && rule.rule.recursive) {
      plan.add({ path: rule.real, kind: "write", isDirectory: rule.isDirectory });
      if (rule.isDirectory) {
        for (const name of PROTECTED_NAMES) {
          const inside = await resolveRule(rule.real, { path: name, access: "write", recursive: true });
          if (inside.exists && pathCovers(rule.real, true, inside.real))
            plan.add({ path: inside.real, kind: "readonly", isDirectory: inside.isDirectory });
        }
      }
    } else readable.push(path.resolve(root, rule.rule.path));
  }
  const writable = plan.all().filter((mount) => mount.kind === "write");
  for (const rule of deny) {
    if (!rule.exists) continue;
    if (rule.rule.access === "read")
      plan.add({ path: rule.real, kind: "mask", isDirectory: rule.isDirectory });
    else if (writable.some((mount) => pathCovers(mount.path, true, rule.real)))
      plan.add({ path: rule.real, kind: "readonly", isDirectory: rule.isDirectory });
  }
  for (const secret of guarded.masks) plan.add({ ...secret, kind: "mask" });
  for (const repository of guarded.readOnly) plan.add({ ...repository, kind: "readonly" });
  const deniedRead = (p: string): boolean =>
    deny.some((d) => d.exists && d.rule.access === "read" && pathCovers(d.real, d.rule.recursive, p));
  await confineHostReads(plan, options, readable, deniedRead);

  const tmpSize = String(tmpfsBytes(options.limits ?? DEFAULT_LIMITS));
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--size",
    tmpSize,
    "--tmpfs",
    "/dev/shm",
    "--remount-ro",
    "/dev",
    "--proc",
    "/proc",
    "--size",
    tmpSize,
    "--tmpfs",
    "/tmp",
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    ...(options.network ? ["--share-net"] : []),
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    ...mountArgs(plan.ordered()),
  ];
  const canonicalCwd = (await canonicalize(path.resolve(root, cwd))).real;
  args.push("--chdir", canonicalCwd);
  return args;
}

async function resolveRule(root: string, rule: ScopeRule): Promise<ResolvedRule> {
  return { rule, ...(await resolvePath(path.resolve(root, rule.path))) };
}

/**
 * The Linux sandbox: bubblewrap at `bwrapPath`, compiled from `scope` and a scan of the project
 * (`ProjectGuard`) for every command, with the seccomp filter of `seccomp.ts` (none on a machine
 * it is not written for: `filtered` says so) and the resource limits of `options.limits`; each
 * launch's `settle` sweeps what the command must not leave.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly name = "bubblewrap";
  readonly limits: ShellLimits;
  private readonly guard: ProjectGuard;
  private readonly filter: Buffer | undefined;

  constructor(
    private readonly bwrapPath: string,
    private readonly scope: Scope,
    private readonly options: ConfinementOptions,
    arch: string = process.arch,
  ) {
    this.guard = new ProjectGuard(scope);
    this.limits = options.limits ?? DEFAULT_LIMITS;
    const filterArch = seccompArchFor(arch);
    this.filter = filterArch === undefined ? undefined : buildSeccompFilter(filterArch);
  }

  /** Whether commands run under the seccomp filter (false on machines other than x86_64 and aarch64). */
  get filtered(): boolean {
    return this.filter !== undefined;
  }

  async launch(
    argv: readonly string[],
    cwd: string,
    env: Readonly<Record<string, string>>,
  ): Promise<ShellLaunch> {
    const guarded = await this.guard.beginCommand();
    let args: string[];
    try {
      args = await compileBubblewrapArgs(this.scope, cwd, this.options, guarded);
    } catch (error) {
      await this.guard.endCommand();
      throw error;
    }
    if (this.filter !== undefined) args.push("--seccomp", String(SECCOMP_FD));
    // bwrap itself gets only the command's environment: the sandbox's init is bwrap, and its
    // /proc/1/environ is readable from inside.
    const launch: ShellLaunch = {
      file: this.bwrapPath,
      args: [...args, "--", ...limitedArgv(argv, this.limits)],
      cwd: "/",
      env,
      settle: () => this.guard.endCommand(),
      ...(this.filter !== undefined && { fd3: this.filter }),
    };
    if (process.geteuid?.() !== 0) return launch;
    // The kernel does not apply RLIMIT_NPROC to root, not even in the sandbox's user namespace:
    // a cgroup's pids.max does (bwrap's own two processes count there too), else the Pod counts.
    const cgroup = createPidsCgroup(this.limits.processes + 2);
    if (cgroup === undefined) return { ...launch, processLimit: this.limits.processes };
    return {
      ...launch,
      file: "/bin/sh",
      args: ["-c", 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, launch.file, ...launch.args],
      settle: () => {
        cgroup.remove();
        return this.guard.endCommand();
      },
    };
  }

  readOnly(): Sandbox {
    return new BubblewrapSandbox(this.bwrapPath, childScope(this.scope, false), this.options);
  }
}
