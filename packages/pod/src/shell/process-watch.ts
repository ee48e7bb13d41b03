import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** How often the sandbox's processes are counted. */
const WATCH_INTERVAL_MS = 25;

/**
 * Counts the processes of one bubblewrap sandbox and calls `exceeded` once when there are more
 * than `limit`. For root only: the kernel exempts uid 0 from RLIMIT_NPROC even inside a user
 * namespace (the limit is skipped for the global root user, which the sandbox's uid 0 maps to),
 * so a fork bomb run as root would fill the machine's PID space. Polling lets a fast bomb
 * overshoot by what it forks in one interval; it is then killed whole with its PID namespace.
 *
 * `bwrapPid` is bwrap's own process: its one child is the sandbox's init, whose PID namespace
 * holds every process of the command. Returns the function that stops watching.
 */
export function watchSandboxProcesses(bwrapPid: number, limit: number, exceeded: () => void): () => void {
  let namespace: string | undefined;
  const timer = setInterval(() => {
    namespace ??= sandboxNamespace(bwrapPid);
    if (namespace === undefined) return;
    if (countInNamespace(namespace, limit) > limit) {
      clearInterval(timer);
      exceeded();
    }
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The `pid:[inode]` of the namespace bwrap's child lives in, once it has one of its own. */
function sandboxNamespace(bwrapPid: number): string | undefined {
  try {
    const outer = readlinkSync(`/proc/${bwrapPid}/ns/pid`);
    const children = readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, "utf8").trim();
    const init = children.split(" ")[0];
    if (init === undefined || init === "") return undefined;
    const inner = readlinkSync(`/proc/${init}/ns/pid`);
    return inner === outer ? undefined : inner;
  } catch {
    return undefined;
  }
}

/** The processes in `namespace`, counted up to just past `limit` (no need to count a bomb whole). */
function countInNamespace(namespace: string, limit: number): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/pid`) === namespace && ++count > limit) return count;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}
