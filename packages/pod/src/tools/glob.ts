import type { Dirent } from "node:fs";
import { type Tool, tool } from "@yoake/llm-worker";
import type { GlobOptions } from "tinyglobby";
import { z } from "zod";
import type { DirEntry, ScopedFs } from "../scope/scoped-fs.js";
import { GitignoreRules } from "./gitignore.js";
import { GLOB_MAX_RESULTS } from "./limits.js";
import { tinyglobby } from "./matchers.js";
import { searchableEntries } from "./searchable-entries.js";
import { attempt } from "./tool-error.js";

export const GLOB_TOOL_NAME = "glob";

const globInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A glob relative to path, e.g. "**/*.ts", "src/**/*.{ts,tsx}" or "*.md" (this directory only)'),
  path: z.string().optional().describe("The directory to search in (default: the project root)"),
});

export type GlobArguments = z.output<typeof globInput>;

/** Stats in flight at once while sorting by modification time: enough to keep the disk busy, no more. */
const STAT_BATCH = 64;

/**
 * `glob`: files matching a pattern, newest first. The walk (tinyglobby) lists each directory
 * through the ScopedFs and the `.gitignore` rules (see `searchableEntries`), so ignored trees such
 * as `node_modules` are never entered and nothing outside the scope is ever listed.
 */
export function createGlobTool(fs: ScopedFs): Tool<GlobArguments> {
  return tool({
    name: GLOB_TOOL_NAME,
    description: [
      "Find files by name pattern. Patterns are relative to path; * does not cross directories, ** does, {a,b} gives alternatives.",
      `Results are paths relative to the project root, most recently modified first, at most ${GLOB_MAX_RESULTS} (a notice gives the total when there are more: narrow the pattern or path).`,
      "Files excluded by .gitignore, the .git directory and symbolic links are left out (to look inside an ignored directory, give it as path); dot files are included.",
    ].join(" "),
    input: globInput,
    async execute({ pattern, path }, context) {
      if (pattern.startsWith("/") || pattern.split("/").includes("..")) {
        throw new Error(
          `the pattern ${JSON.stringify(pattern)} must be relative and stay inside path: to search another directory, set path`,
        );
      }
      const requested = path ?? ".";
      const directory = await attempt(fs.resolve(requested, "read"), requested);
      const info = await attempt(fs.stat(directory), requested);
      if (info.type !== "directory") {
        throw new Error(`${JSON.stringify(requested)} is not a directory (read a file with read_file)`);
      }
      const rules = await GitignoreRules.forSearch(fs, directory);
      const found = await tinyglobby().glob(pattern, {
        cwd: directory,
        absolute: true,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        fs: scopedListing(fs, rules),
        signal: context.signal,
      });
      if (found.length === 0) {
        return `No files match ${JSON.stringify(pattern)} in ${fs.displayPath(directory)}.`;
      }
      const newest = await newestFirst(fs, found, context.signal);
      const shown = newest.slice(0, GLOB_MAX_RESULTS).map((file) => fs.displayPath(file));
      if (newest.length <= GLOB_MAX_RESULTS) return shown.join("\n");
      return `${shown.join("\n")}\n\n[showing the ${GLOB_MAX_RESULTS} most recently modified of ${newest.length} matching files; narrow the pattern or path to see the others]`;
    },
  });
}

/**
 * The file-system adapter tinyglobby walks with: each directory is listed by `searchableEntries`,
 * so the walk never descends into an ignored or out-of-scope directory. A directory that cannot be
 * listed (refused, vanished) is reported as an error, which tinyglobby skips.
 */
function scopedListing(fs: ScopedFs, rules: GitignoreRules): GlobOptions["fs"] {
  const readdir = (
    directory: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void,
  ): void => {
    const canonical = directory.length > 1 && directory.endsWith("/") ? directory.slice(0, -1) : directory;
    searchableEntries(fs, rules, canonical).then(
      (entries) => callback(null, entries.map(asDirent)),
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
  return { readdir: readdir as unknown as NonNullable<GlobOptions["fs"]>["readdir"] };
}

/** The part of `Dirent` the walker uses. Links never get here (`searchableEntries` leaves them out). */
function asDirent(entry: DirEntry): Dirent {
  const isFile = entry.type === "file";
  const isDirectory = entry.type === "directory";
  return {
    name: entry.name,
    isFile: () => isFile,
    isDirectory: () => isDirectory,
    isSymbolicLink: () => false,
  } as Dirent;
}

/** Sorts by modification time, newest first, ties by path; files gone since the walk are dropped. */
async function newestFirst(fs: ScopedFs, files: string[], signal: AbortSignal): Promise<string[]> {
  const dated: Array<{ file: string; mtimeMs: number }> = [];
  for (let start = 0; start < files.length; start += STAT_BATCH) {
    signal.throwIfAborted();
    const batch = files.slice(start, start + STAT_BATCH);
    const stats = await Promise.all(batch.map((file) => fs.stat(file).catch(() => undefined)));
    stats.forEach((info, index) => {
      if (info !== undefined) dated.push({ file: batch[index] as string, mtimeMs: info.mtimeMs });
    });
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return dated.map((entry) => entry.file);
}
