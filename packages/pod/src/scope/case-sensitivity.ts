import { lstat } from "node:fs/promises";
import path from "node:path";

/**
 * Whether the file system holding `canonicalPath` ignores case (macOS and Windows defaults; Linux
 * file systems normally do not). Probed, not guessed: the nearest component of the path that has
 * an ASCII letter in it is looked up again with its case swapped; the same inode means case-insensitive,
 * nothing there means case-sensitive. A path with no letters at all falls back to the platform's
 * usual default.
 */
export async function isCaseInsensitiveAt(canonicalPath: string): Promise<boolean> {
  let current = canonicalPath;
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current) return platformDefault();
    const name = path.basename(current);
    const swapped = swapCase(name);
    if (swapped !== name) {
      const verdict = await compareEntries(current, path.join(parent, swapped));
      if (verdict !== undefined) return verdict;
    }
    current = parent;
  }
}

/** `undefined` when `original` does not exist, so the probe must move up a level. */
async function compareEntries(original: string, variant: string): Promise<boolean | undefined> {
  let originalStats: Awaited<ReturnType<typeof lstat>>;
  try {
    originalStats = await lstat(original);
  } catch {
    return undefined;
  }
  try {
    const variantStats = await lstat(variant);
    return variantStats.ino === originalStats.ino && variantStats.dev === originalStats.dev;
  } catch {
    return false;
  }
}

/** ASCII letters only: their case mapping is the same on every file system (unlike `ß` or `ı`). */
function swapCase(text: string): string {
  let swapped = "";
  for (const char of text) {
    if (char >= "a" && char <= "z") swapped += char.toUpperCase();
    else if (char >= "A" && char <= "Z") swapped += char.toLowerCase();
    else swapped += char;
  }
  return swapped;
}

function platformDefault(): boolean {
  return process.platform === "darwin" || process.platform === "win32";
}

/** How paths are compared on a case-insensitive file system. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}
