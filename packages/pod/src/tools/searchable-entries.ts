import path from "node:path";
import type { DirEntry, ScopedFs } from "../scope/scoped-fs.js";
import type { GitignoreRules } from "./gitignore.js";

/** Never searched nor listed: git's own data (a directory, or the file a worktree has instead). */
export const GIT_DIRECTORY_NAME = ".git";

/**
 * The entries of a directory a search visits, sorted by name: those the scope lets the tools
 * read, but not `.git`, not what the `.gitignore` files exclude, and not symbolic links (a search
 * does not follow them, as ripgrep does not: a link could lead out of the tree or round in a
 * loop) nor sockets and devices. Dot files are included.
 *
 * `directory` must be canonical and not ignored. The listing goes through the ScopedFs.
 */
export async function searchableEntries(
  fs: ScopedFs,
  rules: GitignoreRules,
  directory: string,
): Promise<DirEntry[]> {
  const entries = await fs.readdir(directory);
  const ignored = await rules.entriesOf(
    directory,
    entries.some((entry) => entry.name === ".gitignore"),
  );
  return entries.filter(
    (entry) =>
      (entry.type === "file" || entry.type === "directory") &&
      entry.name !== GIT_DIRECTORY_NAME &&
      !ignored(entry.name, entry.type === "directory"),
  );
}

/** The path of `entry` in `directory`. */
export function entryPath(directory: string, entry: DirEntry): string {
  return path.join(directory, entry.name);
}
