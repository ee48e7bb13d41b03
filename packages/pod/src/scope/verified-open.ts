import { constants, type Stats } from "node:fs";
import { type FileHandle, open, readlink } from "node:fs/promises";

/*
 * Why the scope verifies what it opened, instead of checking a path and then using it
 * ---------------------------------------------------------------------------------------
 * A path checked a moment ago can lead somewhere else now: another process may swap a parent
 * directory for a symbolic link between the check and the open (renameat2 RENAME_EXCHANGE does it
 * atomically, as often as it likes). Node offers neither openat2(RESOLVE_BENEATH) nor openat, so
 * the scope cannot resolve a path safely; it can only ask the kernel, after the open, where the
 * file it holds really is. On Linux `/proc/self/fd/N` is that answer (the path of the open file
 * itself, not of the name used to open it), and, used as a directory in a longer path
 * (`/proc/self/fd/N/name`), it resolves from the directory the fd holds, wherever that directory
 * has moved since: an `openat(N, name)` Node lacks. So: open with O_NOFOLLOW, read the fd's path,
 * compare it with the path the scope decided on, use only the fd (or paths below a verified
 * directory fd) from then on. What was opened somewhere else is closed unread.
 *
 * Where `/proc/self/fd` is missing (macOS, where the answer would be fcntl F_GETPATH, which Node
 * cannot call; Linux without /proc), nothing can be verified, so every file operation is refused
 * with `ProcFdUnavailableError` rather than done unverified.
 */

const PROC_FD = "/proc/self/fd";

/**
 * O_PATH (Linux): opens a name without reading it, so a stat neither blocks on a FIFO nor wakes a
 * device, and works on files the user cannot read. 0o10000000 on every architecture Node runs on
 * (only alpha, parisc and sparc differ); Node does not export the constant.
 */
const O_PATH = process.platform === "linux" ? 0o10000000 : 0;

const NO_FOLLOW = constants.O_NOFOLLOW | (constants.O_NOCTTY ?? 0);

/** Reading a file: a link in the last component fails (ELOOP) and a FIFO does not block the open. */
export const READ_FILE_FLAGS = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
/** Looking at what a name is (type, size, times) without opening it for reading. */
export const PATH_ONLY_FLAGS =
  (O_PATH === 0 ? constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) : O_PATH) | NO_FOLLOW;
/** Holding a directory, to list it or to create names in it. */
export const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | NO_FOLLOW;
/** Creating a temporary file: never an existing name, never through a link. */
export const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** Refuses file access where the kernel cannot tell what was opened (see the note above). */
export class ProcFdUnavailableError extends Error {
  readonly code = "ENOPROCFD";
  constructor() {
    const why =
      process.platform === "darwin"
        ? "macOS would answer through fcntl F_GETPATH, which Node cannot call"
        : "Yoake's file tools need Linux with /proc mounted";
    super(
      `file access refused: the scope cannot verify what it opened because ${PROC_FD} is not available (${why})`,
    );
    this.name = "ProcFdUnavailableError";
  }
}

/** What was opened is not at the path the scope decided on: something moved in between. */
export class OpenedElsewhereError extends Error {
  readonly code = "ECHANGED";
  constructor(
    readonly expected: string,
    readonly opened: string,
  ) {
    super(`opened ${opened} instead of ${expected}`);
    this.name = "OpenedElsewhereError";
  }
}

/**
 * `name` inside the directory `directory` holds, as a path the kernel resolves from that very
 * directory (where it is now), not from the directory's path.
 */
export function inDirectory(directory: FileHandle, name: string): string {
  return `${PROC_FD}/${directory.fd}/${name}`;
}

/** Where the open file is now, as the kernel tells it. */
export async function openedPath(handle: FileHandle): Promise<string> {
  try {
    return await readlink(`${PROC_FD}/${handle.fd}`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EACCES") throw new ProcFdUnavailableError();
    throw error;
  }
}

/** Throws OpenedElsewhereError unless the open file is at `expected`. */
export async function requireOpenedAt(handle: FileHandle, expected: string): Promise<void> {
  const opened = await openedPath(handle);
  if (opened !== expected) throw new OpenedElsewhereError(expected, opened);
}

/** An open file the kernel says is at the path the scope decided on, with its stats from the fd. */
export interface VerifiedHandle {
  handle: FileHandle;
  stats: Stats;
}

/**
 * Opens `openPath` with `flags`, which must hold O_NOFOLLOW, and returns the handle only if the
 * kernel says it is at `expected` (canonical: no link left in it). `openPath` is `expected`
 * itself, or `inDirectory(verifiedParent, name)`. A file whose last link was removed meanwhile is
 * reported as not found. The caller closes the handle.
 */
export async function openVerified(
  openPath: string,
  expected: string,
  flags: number,
  mode?: number,
): Promise<VerifiedHandle> {
  const handle = await open(openPath, flags, mode).catch((error: NodeJS.ErrnoException) => {
    // The path was canonical when decided on: a link in its last component was put there since.
    if (error.code === "ELOOP") throw new OpenedElsewhereError(expected, "a symbolic link put in its place");
    throw error;
  });
  try {
    await requireOpenedAt(handle, expected);
    const stats = await handle.stat();
    if (stats.isSymbolicLink()) throw new OpenedElsewhereError(expected, "a symbolic link put in its place");
    if (stats.nlink === 0 && !stats.isDirectory()) throw notFound(expected);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export function notFound(path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ENOENT: no such file or directory, '${path}'`);
  error.code = "ENOENT";
  error.path = path;
  return error;
}
