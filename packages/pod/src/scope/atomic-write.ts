import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, rename, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import {
  CREATE_FLAGS,
  DIRECTORY_FLAGS,
  inDirectory,
  openedPath,
  openVerified,
  requireOpenedAt,
} from "./verified-open.js";

/** A directory held open, verified to have been at `path` (canonical) when it was opened. */
export interface HeldDirectory {
  handle: FileHandle;
  path: string;
}

/** Keeps temporary names under NAME_MAX whatever the target's name. */
const TEMP_NAME_STEM = 64;

/**
 * Opens the canonical directory `directory` to create names in it, making the missing ones first
 * (`mkdir -p`). `beforeCreating` sees every missing directory, outermost first, before any is made,
 * and throws to refuse. Each directory is created inside its verified parent's fd and opened again
 * from that fd with O_NOFOLLOW, then verified itself: a link or a moved directory met on the way
 * fails the call instead of being followed; a directory made in a parent that moved meanwhile is
 * removed again.
 */
export async function holdDirectory(
  directory: string,
  beforeCreating: (missingDirectory: string) => void,
): Promise<HeldDirectory> {
  const missing: string[] = [];
  let current = directory;
  let held: HeldDirectory;
  for (;;) {
    try {
      held = { handle: (await openVerified(current, current, DIRECTORY_FLAGS)).handle, path: current };
      break;
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      missing.push(path.basename(current));
      current = parent;
    }
  }
  try {
    missing.reverse();
    for (let index = 0; index < missing.length; index += 1) {
      beforeCreating(path.join(held.path, ...missing.slice(0, index + 1)));
    }
    for (const name of missing) {
      const child = await createChildDirectory(held, name);
      await held.handle.close();
      held = child;
    }
    return held;
  } catch (error) {
    await held.handle.close();
    throw error;
  }
}

async function createChildDirectory(parent: HeldDirectory, name: string): Promise<HeldDirectory> {
  const childPath = path.join(parent.path, name);
  const at = inDirectory(parent.handle, name);
  await requireOpenedAt(parent.handle, parent.path);
  const created = await mkdir(at).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return false;
      throw error;
    },
  );
  try {
    return { handle: (await openVerified(at, childPath, DIRECTORY_FLAGS)).handle, path: childPath };
  } catch (error) {
    if (created) await rmdir(at).catch(() => {});
    throw error;
  }
}

export interface AtomicWriteOptions {
  /** Builds the refusal of a target that has more than one hard link; undefined when links are allowed. */
  refuseHardLinks?: (links: number) => Error;
  /** Whether a write may stay where the kernel says it landed, should the directory move during the rename. */
  permitsWrite: (realPath: string) => boolean;
}

/*
 * What a racing process can do at each step of a write, and why the end state stays safe:
 * - before the directory is opened: swap a parent for a link. The open lands elsewhere, the fd's
 *   path is not the one decided on, the write fails before anything is created.
 * - after the directory is verified: move or swap it. Every later step goes through its fd, so the
 *   temporary file and the rename stay in that directory wherever it is; its path is checked
 *   again after creating the temporary file, before the rename and after it.
 * - put a link or a directory at the temporary name: O_EXCL|O_NOFOLLOW fails, nothing is created.
 * - put a link at the target name: rename replaces the link itself, it never follows it.
 * - move the directory during the rename to a place writes are not allowed (outside, `.git`): the
 *   written file is removed again, if it is still ours (same inode), and the write fails.
 * The temporary file is unlinked through the directory fd on every failure, so it is removed from
 * where it really is, not from where its path now leads.
 */

/**
 * Replaces or creates `name` in the held directory atomically: a temporary file is created in
 * that same directory (through its fd, with O_EXCL and O_NOFOLLOW, and verified), written, synced,
 * then renamed over the name within the directory, so readers see the old content or the new.
 * The directory is re-verified before and after the rename. On every failure the temporary file
 * is removed; should the directory have moved during the rename to where writes are not allowed,
 * the written file is removed too. An existing file keeps its permission bits. Returns the
 * canonical path written.
 */
export async function writeAtomically(
  directory: HeldDirectory,
  name: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<string> {
  const target = path.join(directory.path, name);
  const previous = await lstat(inDirectory(directory.handle, name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (previous?.isDirectory()) throw errnoError("EISDIR", `is a directory: ${target}`, target);
  if (previous?.isFile() && previous.nlink > 1 && options.refuseHardLinks !== undefined) {
    throw options.refuseHardLinks(previous.nlink);
  }

  const temporaryName = `.${name.slice(0, TEMP_NAME_STEM)}.${randomBytes(6).toString("hex")}.tmp`;
  const temporary = inDirectory(directory.handle, temporaryName);
  const handle = await open(temporary, CREATE_FLAGS, 0o666);
  let written: Stats | undefined;
  try {
    try {
      await requireOpenedAt(handle, path.join(directory.path, temporaryName));
      if (previous?.isFile()) await handle.chmod(previous.mode & 0o7777);
      await handle.writeFile(data);
      await handle.sync();
      written = await handle.stat();
    } finally {
      await handle.close();
    }
    await requireOpenedAt(directory.handle, directory.path);
    await rename(temporary, inDirectory(directory.handle, name));
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  const now = await openedPath(directory.handle);
  if (now !== directory.path) {
    const landed = path.join(now, name);
    if (!options.permitsWrite(landed)) await removeIfSame(directory, name, written);
    await requireOpenedAt(directory.handle, directory.path);
  }
  return target;
}

/** Removes `name` from the held directory if it is still the file written (same inode). */
async function removeIfSame(directory: HeldDirectory, name: string, written: Stats): Promise<void> {
  const at = inDirectory(directory.handle, name);
  const current = await lstat(at).catch(() => undefined);
  if (current !== undefined && current.ino === written.ino && current.dev === written.dev) {
    await unlink(at).catch(() => {});
  }
}

export function errnoError(code: string, message: string, errorPath: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${message}`);
  error.code = code;
  error.path = errorPath;
  return error;
}
