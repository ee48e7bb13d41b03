import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import type { FileTree } from "../pod-like.js";

/** A project bigger than this is listed in part: the picker stays responsive, and says so. */
export const MAX_LISTED_FILES = 50_000;

/** The files of a project, relative to its root with `/` separators, and whether the walk stopped early. */
export interface ProjectFiles {
  paths: string[];
  truncated: boolean;
}

/** The `.gitignore` of one directory (`directory` is relative to the root, `""` for the root). */
interface IgnoreLayer {
  directory: string;
  rules: Ignore;
}

/**
 * Every file of the project that git would not ignore, for the `@` picker: `.gitignore` files are
 * applied per directory as git does (a deeper one's match wins, `!` re-includes, nothing below an
 * ignored directory is listed), `.git` is skipped, symbolic links are not followed. Reading goes
 * through `tree`, so with the Pod's `ScopedFs` the picker lists what the agent may read and no
 * more. Unreadable directories are left out, never fatal.
 */
export async function listProjectFiles(tree: FileTree, limit = MAX_LISTED_FILES): Promise<ProjectFiles> {
  const paths: string[] = [];
  // Breadth first: when the limit cuts the walk short, the files near the root are the ones kept.
  const queue: Array<{ directory: string; layers: readonly IgnoreLayer[] }> = [{ directory: "", layers: [] }];
  for (let next = 0; next < queue.length; next++) {
    const { directory, layers: parentLayers } = queue[next] as (typeof queue)[number];
    const entries = await tree.readdir(directory === "" ? "." : directory).catch(() => []);
    const layers = entries.some((entry) => entry.name === ".gitignore" && entry.type === "file")
      ? await withGitignore(tree, directory, parentLayers)
      : parentLayers;
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const relative = directory === "" ? entry.name : `${directory}/${entry.name}`;
      const isDirectory = entry.type === "directory";
      if (!isDirectory && entry.type !== "file") continue;
      if (isIgnored(layers, relative, isDirectory)) continue;
      if (isDirectory) queue.push({ directory: relative, layers });
      else {
        paths.push(relative);
        if (paths.length >= limit) return { paths, truncated: true };
      }
    }
  }
  return { paths, truncated: false };
}

async function withGitignore(
  tree: FileTree,
  directory: string,
  parentLayers: readonly IgnoreLayer[],
): Promise<readonly IgnoreLayer[]> {
  const file = directory === "" ? ".gitignore" : `${directory}/.gitignore`;
  const text = await tree.readFile(file).catch(() => "");
  if (text.trim() === "") return parentLayers;
  return [...parentLayers, { directory, rules: ignore({ ignorecase: false }).add(text) }];
}

/** Deepest `.gitignore` first: the first with an opinion on the path decides. */
function isIgnored(layers: readonly IgnoreLayer[], relative: string, isDirectory: boolean): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i] as IgnoreLayer;
    const inLayer = layer.directory === "" ? relative : relative.slice(layer.directory.length + 1);
    const result = layer.rules.test(isDirectory ? `${inLayer}/` : inLayer);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/** The local disk below `root`, for a Pod that offers no file tree of its own (one in another process). */
export function localFileTree(root: string): FileTree {
  return {
    async readdir(directory) {
      const entries = await readdir(path.resolve(root, directory), { withFileTypes: true });
      return entries.map((entry) => ({
        name: entry.name,
        type: entry.isDirectory()
          ? "directory"
          : entry.isFile()
            ? "file"
            : entry.isSymbolicLink()
              ? "symlink"
              : "other",
      }));
    },
    readFile: (file) => readFile(path.resolve(root, file), "utf8"),
  };
}
