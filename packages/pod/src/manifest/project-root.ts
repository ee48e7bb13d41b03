import { stat } from "node:fs/promises";
import path from "node:path";

/** Where a project's own files live, relative to its root. */
export const PROJECT_DIR = ".yoake";

/**
 * The project around `cwd`: the nearest directory with a `.yoake/` directory, else the nearest
 * with a `.git`, else `cwd` itself; the home directory counts only when the search starts there
 * (see `loadManifest`). In a file of its own, so that finding a project's served Pod (the CLI's
 * attach check) does not load the manifest machinery.
 */
export async function findProjectRoot(cwd: string, homeDir: string): Promise<string> {
  const start = path.resolve(cwd);
  const markedBy = async (marker: string, mustBeDirectory: boolean): Promise<string | undefined> => {
    for (let dir = start; ; dir = path.dirname(dir)) {
      if (dir !== homeDir || dir === start) {
        const stats = await stat(path.join(dir, marker)).catch(() => undefined);
        if (stats !== undefined && (!mustBeDirectory || stats.isDirectory())) return dir;
      }
      if (path.dirname(dir) === dir) return undefined;
    }
  };
  return (await markedBy(PROJECT_DIR, true)) ?? (await markedBy(".git", false)) ?? start;
}
