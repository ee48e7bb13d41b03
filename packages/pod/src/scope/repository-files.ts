import path from "node:path";
import type { ScopeRule } from "./rules.js";

/**
 * The rule a write into a `.git` at any depth is refused by, whatever the manifest says: git run
 * by the user reads a nested repository's configuration and runs its hooks, outside every sandbox
 * (an fsmonitor command at the next `git status`). The top `.git` has its own deny rule in the
 * defaults; this one covers the rest, which no rule can name in advance.
 */
export const NESTED_REPOSITORY_RULE: ScopeRule = {
  path: "**/.git",
  access: "write",
  recursive: true,
  source: "built in: a repository's files are run by the user's git",
};

/** Whether a canonical path has a `.git` (any case) among its components. */
export function isInsideRepositoryFiles(realPath: string): boolean {
  return realPath.split(path.sep).some((name) => name.toLowerCase() === ".git");
}
