import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where the pids controller is mounted: cgroup v2's unified tree, or v1's own hierarchy. */
const CANDIDATES = [
  { root: "/sys/fs/cgroup", usable: (dir: string) => controllerEnabled(dir) },
  { root: "/sys/fs/cgroup/pids", usable: (dir: string) => existsSync(path.join(dir, "tasks")) },
  { root: "/sys/fs/cgroup/unified", usable: (dir: string) => controllerEnabled(dir) },
];

/** How long a command's cgroup is waited for to empty before it is left behind. */
const REMOVE_TRIES = 100;
const REMOVE_INTERVAL_MS = 100;

let found: string | null | undefined;
let made = 0;

/**
 * A cgroup whose `pids.max` bounds one command's processes, for a root Pod: the kernel exempts
 * the global root user from RLIMIT_NPROC, even inside the sandbox's user namespace, so for root
 * only a cgroup makes `fork` fail at the limit (with EAGAIN, as RLIMIT_NPROC would). Undefined
 * where no pids controller is writable here (a container with a read-only /sys/fs/cgroup): the
 * caller then falls back to counting (see `watchSandboxProcesses`).
 *
 * The cgroup is a child of the controller's root (where root may always make one); `remove`
 * deletes it once its processes are gone.
 */
export function createPidsCgroup(
  maxProcesses: number,
): { procsFile: string; remove: () => void } | undefined {
  const root = pidsRoot();
  if (root === undefined) return undefined;
  const dir = path.join(root, `yoake-${process.pid}-${++made}`);
  try {
    mkdirSync(dir);
    writeFileSync(path.join(dir, "pids.max"), String(maxProcesses));
  } catch {
    removeWhenEmpty(dir);
    return undefined;
  }
  return { procsFile: path.join(dir, "cgroup.procs"), remove: () => removeWhenEmpty(dir) };
}

/** The first pids controller this process can make cgroups in, looked up once. */
function pidsRoot(): string | undefined {
  if (found !== undefined) return found ?? undefined;
  found = null;
  for (const { root, usable } of CANDIDATES) {
    if (!usable(root)) continue;
    const probe = path.join(root, `yoake-probe-${process.pid}`);
    try {
      mkdirSync(probe);
      const writable = existsSync(path.join(probe, "pids.max"));
      rmdirSync(probe);
      if (writable) {
        found = root;
        sweep(root);
        break;
      }
    } catch {
      // Not writable here.
    }
  }
  return found ?? undefined;
}

/**
 * Removes the empty cgroups of Pods that are gone: a command's cgroup empties only after its
 * processes are reaped, which a Pod that exits at once does not wait for.
 */
function sweep(root: string): void {
  for (const name of readdirSync(root)) {
    const owner = /^yoake-(\d+)-\d+$/.exec(name)?.[1];
    if (owner === undefined || isAlive(Number(owner))) continue;
    try {
      rmdirSync(path.join(root, name));
    } catch {
      // Still holds processes: the next Pod tries again.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function controllerEnabled(dir: string): boolean {
  try {
    return readFileSync(path.join(dir, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids");
  } catch {
    return false;
  }
}

/** A cgroup can be removed only once its last process has been reaped: tries for a while. */
function removeWhenEmpty(dir: string, tries = REMOVE_TRIES): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EBUSY" && tries > 0)
      setTimeout(() => removeWhenEmpty(dir, tries - 1), REMOVE_INTERVAL_MS).unref();
  }
}
