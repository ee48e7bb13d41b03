import { stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_SHELL_LIMITS } from "../manifest/defaults.js";
import type { ShellLimits } from "../manifest/resolve.js";
import { canonicalize } from "../scope/canonical-path.js";
import { pathCovers, type Scope, type ScopeRule } from "../scope/rules.js";
import { createPidsCgroup } from "./pids-cgroup.js";
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
   * hidden one (a fleet run's tree in the hidden cache) is bound again on top of the tmpfs, alone,
   * and a readable one read-only (the object store that tree borrows).
   */
  hide: readonly string[];
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

/** One mount of the compiled sandbox, applied parents first. */
interface Mount {
  path: string;
  /** `write`: bound writable; `readonly`: bound read-only over a writable one; `mask`: hidden. */
  kind: "write" | "readonly" | "reveal" | "mask";
  isDirectory: boolean;
}

interface ResolvedRule {
  rule: ScopeRule;
  real: string;
  exists: boolean;
  isDirectory: boolean;
}

/** The order of mounts on one path: make writable, then take writing back, then hide. */
const KIND_ORDER: Readonly<Record<Mount["kind"], number>> = { reveal: 0, write: 1, readonly: 2, mask: 3 };

/**
 * The bubblewrap arguments for a scope (before the command's argv). The whole file system is
 * bound read-only; `/dev`, `/proc` and `/tmp` are the sandbox's own. Each recursive write rule
 * that no deny rule covers is bound writable, with `.git` and `.yoake` inside it bound back
 * read-only; each deny-write rule inside a writable directory is bound read-only; each deny-read
 * rule is masked (an empty read-only tmpfs for a directory, /dev/null for a file). A deny rule
 * always wins, as in the ScopedFs. The directories of `options.hide` (and `/run` without the
 * network) are masked too; a write rule inside one is bound again on top of it, a read rule read-only.
 *
 * The directories between a writable mount and a guarded path inside it are bound onto themselves
 * (`pins`), so no command can rename a hidden path away from its rule for the next one.
 *
 * Narrower than the ScopedFs where bubblewrap cannot say the same thing: a non-recursive write
 * rule grants nothing writable, a non-recursive deny-read rule hides its whole tree, and a rule for a
 * path that does not exist yet binds nothing (so a command can create it, read-only rules
 * notwithstanding, if its parent is writable).
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
): Promise<string[]> {
  const root = (await canonicalize(path.resolve(scope.root))).real;
  const allow = await Promise.all(scope.allow.map((rule) => resolveRule(root, rule)));
  const deny = await Promise.all(scope.deny.map((rule) => resolveRule(root, rule)));
  const hidden: ResolvedRule[] = [];
  for (const dir of options.network ? options.hide : ["/run", ...options.hide]) {
    const resolved = await resolveRule(root, { path: dir, access: "read", recursive: true });
    if (resolved.exists && resolved.isDirectory) hidden.push(resolved);
  }
  const mounts: Mount[] = [];
  for (const rule of allow) {
    if (!rule.exists) continue;
    const denied = deny.some((d) => pathCovers(d.real, d.rule.recursive, rule.real));
    if (denied) continue;
    if (rule.rule.access === "write" && rule.rule.recursive) {
      mounts.push({ path: rule.real, kind: "write", isDirectory: rule.isDirectory });
      if (rule.isDirectory) {
        for (const name of PROTECTED_NAMES) {
          const inside = await resolveRule(rule.real, { path: name, access: "write", recursive: true });
          if (inside.exists && pathCovers(rule.real, true, inside.real))
            mounts.push({ path: inside.real, kind: "readonly", isDirectory: inside.isDirectory });
        }
      }
    } else if (isUnder("/tmp", rule.real) || hidden.some((dir) => pathCovers(dir.real, true, rule.real))) {
      // The private /tmp hides the host's, and a hidden directory its contents: what the scope lets
      // the agent read there is shown again, read-only.
      mounts.push({ path: rule.real, kind: "reveal", isDirectory: rule.isDirectory });
    }
  }
  const writable = mounts.filter((mount) => mount.kind === "write");
  for (const rule of deny) {
    if (!rule.exists) continue;
    if (rule.rule.access === "read")
      mounts.push({ path: rule.real, kind: "mask", isDirectory: rule.isDirectory });
    else if (writable.some((mount) => pathCovers(mount.path, true, rule.real)))
      mounts.push({ path: rule.real, kind: "readonly", isDirectory: rule.isDirectory });
  }
  for (const dir of hidden) mounts.push({ path: dir.real, kind: "mask", isDirectory: true });
  mounts.push(...pins(mounts));
  // Parents first, so a mount on a child is not buried under a later one on its parent.
  const unique = [...new Map(mounts.map((mount) => [`${mount.kind} ${mount.path}`, mount])).values()];
  unique.sort((a, b) => depth(a.path) - depth(b.path) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);

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
  ];
  for (const mount of unique) args.push(...mountArgs(mount));
  // An empty tmpfs is made read-only only once everything inside it is bound: bubblewrap creates
  // the mount points of a directory bound inside it (a writable tree under a hidden one) first.
  for (const mount of unique)
    if (mount.kind === "mask" && mount.isDirectory) args.push("--remount-ro", mount.path);
  const canonicalCwd = (await canonicalize(path.resolve(root, cwd))).real;
  args.push("--chdir", canonicalCwd);
  return args;
}

/**
 * Rules name paths, and a writable directory can be renamed: moving `sub` away would take a
 * hidden `sub/secret` out from under the rule that hides it, for the next command. So every
 * directory between a writable mount and a path hidden or read-only inside it is bound onto
 * itself (writable as it was): a mount point cannot be renamed or removed.
 */
function pins(mounts: readonly Mount[]): Mount[] {
  const writable = mounts.filter((mount) => mount.kind === "write");
  const guarded = mounts.filter((mount) => mount.kind === "mask" || mount.kind === "readonly");
  const pinned = new Map<string, Mount>();
  for (const inner of guarded) {
    const outer = writable.filter((w) => w.path !== inner.path && pathCovers(w.path, true, inner.path));
    for (const w of outer) {
      for (
        let dir = path.dirname(inner.path);
        dir !== w.path && pathCovers(w.path, true, dir);
        dir = path.dirname(dir)
      ) {
        const locked = guarded.some((g) => pathCovers(g.path, true, dir));
        pinned.set(dir, { path: dir, kind: locked ? "readonly" : "write", isDirectory: true });
      }
    }
  }
  return [...pinned.values()];
}

function mountArgs(mount: Mount): string[] {
  switch (mount.kind) {
    case "write":
      return ["--bind", mount.path, mount.path];
    case "readonly":
    case "reveal":
      return ["--ro-bind", mount.path, mount.path];
    case "mask":
      return mount.isDirectory
        ? ["--perms", "0555", "--tmpfs", mount.path]
        : ["--ro-bind", "/dev/null", mount.path];
  }
}

async function resolveRule(root: string, rule: ScopeRule): Promise<ResolvedRule> {
  let real: string;
  let exists: boolean;
  try {
    ({ real, exists } = await canonicalize(path.resolve(root, rule.path)));
  } catch {
    // A link loop leads nowhere: nothing to bind, nothing to hide.
    return { rule, real: path.resolve(root, rule.path), exists: false, isDirectory: false };
  }
  if (!exists) return { rule, real, exists, isDirectory: false };
  const info = await stat(real).catch(() => undefined);
  return { rule, real, exists: info !== undefined, isDirectory: info?.isDirectory() === true };
}

function isUnder(dir: string, target: string): boolean {
  return pathCovers(dir, true, target);
}

function depth(p: string): number {
  return p === "/" ? 0 : p.split("/").length - 1;
}

/**
 * The Linux sandbox: bubblewrap at `bwrapPath`, compiled from `scope` for every command, with the
 * seccomp filter of `seccomp.ts` (none on a machine it is not written for: `filtered` says so)
 * and the resource limits of `options.limits`.
 */
export class BubblewrapSandbox implements Sandbox {
  readonly name = "bubblewrap";
  readonly limits: ShellLimits;
  private readonly filter: Buffer | undefined;

  constructor(
    private readonly bwrapPath: string,
    private readonly scope: Scope,
    private readonly options: ConfinementOptions,
    arch: string = process.arch,
  ) {
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
    const args = await compileBubblewrapArgs(this.scope, cwd, this.options);
    if (this.filter !== undefined) args.push("--seccomp", String(SECCOMP_FD));
    // bwrap itself gets only the command's environment: the sandbox's init is bwrap, and its
    // /proc/1/environ is readable from inside.
    const launch: ShellLaunch = {
      file: this.bwrapPath,
      args: [...args, "--", ...limitedArgv(argv, this.limits)],
      cwd: "/",
      env,
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
      cleanup: cgroup.remove,
    };
  }
}
