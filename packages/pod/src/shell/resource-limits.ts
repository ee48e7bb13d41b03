import type { ShellLimits } from "../manifest/resolve.js";

/** KiB in a MiB: bash's `ulimit -d` and `-f` count KiB (outside POSIX mode). */
const KIB_PER_MIB = 1024;

/**
 * The argv that runs `argv` under `limits`: a bash that sets the resource limits, soft and hard,
 * then `exec`s it, so nothing the command starts can raise them again. Runs inside the sandbox:
 * RLIMIT_NPROC is counted per user in a user namespace, and the sandbox's is its own, so the
 * process limit counts the command's processes only, never the host's (for root too: outside a
 * user namespace of its own, root's forks ignore RLIMIT_NPROC).
 *
 * - processes: RLIMIT_NPROC (`ulimit -u`);
 * - memory: RLIMIT_DATA (`ulimit -d`), per process. Not RLIMIT_AS: V8 reserves address space far
 *   beyond what it uses (a WebAssembly.Memory alone takes 10 GiB of it) and fails under it;
 * - file size: RLIMIT_FSIZE (`ulimit -f`): a write beyond it gets SIGXFSZ (or EFBIG);
 * - core dumps: none (`ulimit -c 0`), so a crash writes no core file into the project.
 *
 * A limit that cannot be set is one the sandbox already holds lower (a hard limit can only be
 * lowered), so the failure is ignored: the command runs under the tighter one.
 */
export function limitedArgv(argv: readonly string[], limits: ShellLimits): string[] {
  const set = (option: string, value: number): string => `ulimit -SH -${option} ${value} 2>/dev/null`;
  const script = [
    set("u", limits.processes),
    set("d", limits.memoryMb * KIB_PER_MIB),
    set("f", limits.fileSizeMb * KIB_PER_MIB),
    set("c", 0),
    'exec "$@"',
  ].join("; ");
  return ["bash", "-c", script, "bash", ...argv];
}

/** The bwrap `--size` of the private /tmp and /dev/shm, in bytes. */
export function tmpfsBytes(limits: ShellLimits): number {
  return limits.tmpMb * 1024 * 1024;
}
