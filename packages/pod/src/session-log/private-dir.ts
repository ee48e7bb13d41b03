import { constants } from "node:fs";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";

/** A directory only its owner may enter: what the agent read (a printed `.env`) is in the logs. */
export const PRIVATE_DIR_MODE = 0o700;
/** A file only its owner may read: a session log, a lock. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` (a project's `.yoake/sessions`) and its parent (`.yoake`) exist, each created 0700,
 * and takes group and other bits off either one that exists with a looser mode, as long as it is
 * the user's own: a directory someone else owns is theirs to set (and chmod would fail anyway).
 * A symbolic link is left as it is: it is opened with O_NOFOLLOW, so the mode changed is always
 * the directory's own, never the target of a link swapped in between.
 */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await tightenPrivateDirectory(dir);
}

/** `ensurePrivateDirectory` without creating anything: what exists of the two is tightened. */
export async function tightenPrivateDirectory(dir: string): Promise<void> {
  for (const each of [dirname(dir), dir]) {
    let handle: FileHandle;
    try {
      handle = await open(each, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch {
      // A link, or gone meanwhile: nothing of ours to tighten.
      continue;
    }
    try {
      await tightenOwn(handle, PRIVATE_DIR_MODE);
    } finally {
      await handle.close();
    }
  }
}

/**
 * Takes off the bits of the open file `handle` beyond `mode` (0600, 0700) when the file belongs to
 * the user running this process. Without POSIX owners (Windows) it does nothing.
 */
export async function tightenOwn(handle: FileHandle, mode: number): Promise<void> {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const info = await handle.stat();
  const current = info.mode & 0o7777;
  if (info.uid === uid && (current & ~mode) !== 0) await handle.chmod(current & mode);
}
