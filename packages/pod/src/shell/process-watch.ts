import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** How often the sandboxes' processes are counted. */
const WATCH_INTERVAL_MS = 50;

interface Watched {
  bwrapPid: number;
  /** `pid:[inode]` of the sandbox's PID namespace, once bwrap has made it. */
  namespace?: string;
  limit: number;
  exceeded: () => void;
}

/** Every sandbox being watched; one scan of /proc per interval counts them all. */
const watched = new Set<Watched>();
let timer: NodeJS.Timeout | undefined;

/**
 * Counts the processes of one bubblewrap sandbox and calls `exceeded` once when there are more
 * than `limit`. For root only: the kernel exempts the global root user from RLIMIT_NPROC, and a
 * root Pod's sandbox runs as that user even inside its own user namespace, so a fork bomb would
 * fill the machine's PID space. The fallback where root cannot make a pids cgroup
 * (`createPidsCgroup`), which bounds it exactly. Every process of the PID namespace is counted,
 * whoever its parent (a process cannot hide by forking from a thread or being orphaned), and the
 * command is killed whole with its namespace. Best effort: a fast fork bomb starves the Pod of CPU
 * and the count of time, so it can reach thousands of processes before it is stopped.
 *
 * `bwrapPid` is bwrap's own process: its one child is the sandbox's init, whose PID namespace
 * holds every process of the command. Returns the function that stops watching.
 */
export function watchSandboxProcesses(bwrapPid: number, limit: number, exceeded: () => void): () => void {
  const entry: Watched = { bwrapPid, limit, exceeded };
  watched.add(entry);
  if (timer === undefined) {
    timer = setInterval(scan, WATCH_INTERVAL_MS);
    timer.unref();
  }
  return () => unwatch(entry);
}

function unwatch(entry: Watched): void {
  watched.delete(entry);
  if (watched.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

function scan(): void {
  const byNamespace = new Map<string, Watched>();
  for (const entry of watched) {
    entry.namespace ??= sandboxNamespace(entry.bwrapPid);
    if (entry.namespace !== undefined) byNamespace.set(entry.namespace, entry);
  }
  if (byNamespace.size === 0) return;
  // A sandbox is stopped the moment its count passes the limit: a bomb's processes are many, and
  // every one read while it grows is time it forks in.
  const counts = new Map<string, number>();
  for (const name of readdirSync("/proc")) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    let namespace: string;
    try {
      namespace = readlinkSync(`/proc/${name}/ns/pid`);
    } catch {
      continue; // Gone meanwhile.
    }
    const entry = byNamespace.get(namespace);
    if (entry === undefined) continue;
    const count = (counts.get(namespace) ?? 0) + 1;
    counts.set(namespace, count);
    if (count <= entry.limit) continue;
    byNamespace.delete(namespace);
    unwatch(entry);
    entry.exceeded();
    if (byNamespace.size === 0) return;
  }
}

/** The PID namespace of bwrap's child, once it has one of its own. */
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
