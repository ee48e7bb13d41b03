import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";

/** Where a path really leads once every symbolic link on the way has been followed. */
export interface CanonicalPath {
  /** Absolute, with no `.`, `..` or symbolic link left in it. */
  real: string;
  /** Whether something exists at `real` (a path about to be created does not). */
  exists: boolean;
}

/** The same limit as Linux's MAXSYMLINKS: more links than this on one path is treated as a loop. */
const MAX_SYMLINKS = 40;

/** A backslash is an ordinary character in POSIX names, a separator only on Windows. */
const SEPARATORS = path.sep === "/" ? /\/+/ : /[\\/]+/;

/**
 * Canonicalizes an absolute path, also when it does not exist yet: the real path of the deepest
 * existing ancestor, with the missing names appended. Dangling links are followed to where they
 * point (a write to one creates its target), so a link inside the scope that points outside is
 * seen for what it is, whether or not its target exists. `..` in the input is resolved lexically
 * first, as `path.resolve` does; `..` inside link targets is resolved physically, as the kernel
 * does.
 *
 * Throws ELOOP for symbolic-link loops and passes through errors other than "not found".
 */
export async function canonicalize(absolutePath: string): Promise<CanonicalPath> {
  return walk(path.resolve(absolutePath), { followed: 0 });
}

async function walk(target: string, budget: { followed: number }): Promise<CanonicalPath> {
  try {
    return { real: await realpath(target), exists: true };
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const parent = path.dirname(target);
  if (parent === target) return { real: target, exists: false };
  const above = await walk(parent, budget);
  const candidate = path.join(above.real, path.basename(target));
  if (!above.exists) return { real: candidate, exists: false };

  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(candidate);
  } catch (error) {
    if (isNotFound(error)) return { real: candidate, exists: false };
    throw error;
  }
  // Something appeared between realpath and lstat: it exists now, and it is not a link.
  if (!stats.isSymbolicLink()) return { real: candidate, exists: true };

  budget.followed += 1;
  if (budget.followed > MAX_SYMLINKS) throw loopError(target);
  return followLinkTarget(above.real, await readlink(candidate), budget);
}

/**
 * Walks a link's target one name at a time, as the kernel does: `..` goes to the parent of the
 * real directory reached so far, not of the name written before it (`x/..` with `x` a link is the
 * parent of where `x` points).
 */
async function followLinkTarget(
  linkDirectory: string,
  linkTarget: string,
  budget: { followed: number },
): Promise<CanonicalPath> {
  let current = path.isAbsolute(linkTarget) ? path.parse(path.resolve(linkTarget)).root : linkDirectory;
  const names = linkTarget.split(SEPARATORS).filter((name) => name !== "" && name !== ".");
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    if (name === "..") {
      current = path.dirname(current);
      continue;
    }
    const step = await walk(path.join(current, name), budget);
    // Below a missing name nothing can be a link, so the rest resolves lexically.
    if (!step.exists) return { real: path.resolve(step.real, ...names.slice(index + 1)), exists: false };
    current = step.real;
  }
  return { real: current, exists: true };
}

/** ENOTDIR counts as not found: `file.txt/x` does not exist and cannot be created either. */
function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function loopError(target: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ELOOP: too many symbolic links, '${target}'`);
  error.code = "ELOOP";
  error.path = target;
  return error;
}
