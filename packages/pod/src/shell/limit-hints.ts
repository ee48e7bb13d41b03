import type { ShellLimits } from "../manifest/resolve.js";
import type { ShellEnd } from "./shell-process.js";

/** SIGXFSZ's number on Linux: bwrap and bash report a process it killed as exit code 128 + 25. */
const SIGXFSZ_EXIT_CODE = 128 + 25;

/**
 * What the model reads when a command ran into one of the sandbox's resource limits: which limit,
 * its size and the `[shell.limits]` key the user can raise it with. A limit leaves no mark but
 * the way the command ended and what its programs printed, so these are read from the end
 * (SIGXFSZ) and the output (the error texts of libc, bash, Python and Node); a hint may come for
 * output that only quotes such an error, and says "if" where the cause is not certain.
 * One line per limit, none when no limit shows.
 */
export function limitHints(end: ShellEnd, output: string, limits: ShellLimits): string[] {
  const hints: string[] = [];
  const xfsz =
    (end.kind === "exited" && end.code === SIGXFSZ_EXIT_CODE) ||
    (end.kind === "signaled" && end.signal === "SIGXFSZ") ||
    /File size limit exceeded|File too large/.test(output);
  if (xfsz)
    hints.push(
      `file size limit: a file can grow to ${limits.fileSizeMb} MiB, and a process writing past that is stopped (SIGXFSZ, "File size limit exceeded"); the user can raise shell.limits.file_size_mb`,
    );
  const killed = end.kind === "killed" && end.reason === "process_limit";
  const eagain = /Resource temporarily unavailable/.test(output);
  // Python's failed os.fork() prints a BlockingIOError whose traceback need not show the call.
  const forkFailed = eagain && /fork/i.test(output);
  if (killed || forkFailed || (eagain && /BlockingIOError/.test(output)))
    hints.push(
      `process limit: ${killed ? "more processes than that were started" : forkFailed ? "fork failed" : "if that was fork failing"}, the command may run ${limits.processes} processes at once; the user can raise shell.limits.processes`,
    );
  if (/No space left on device/.test(output))
    hints.push(
      `if the full disk was /tmp (or /dev/shm): the private /tmp holds ${limits.tmpMb} MiB; write large files into the project instead, or the user can raise shell.limits.tmp_mb`,
    );
  if (
    /MemoryError|Cannot allocate memory|out of memory|Array buffer allocation failed|Allocation failed|bad_alloc/i.test(
      output,
    )
  )
    hints.push(
      `if memory ran out: each process may use ${limits.memoryMb} MiB of data; the user can raise shell.limits.memory_mb`,
    );
  return hints;
}
