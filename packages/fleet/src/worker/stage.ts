import { failure, runGit } from "./git.js";

/** A gitlink's mode in the index: the commit of a nested repository, not a file. */
const GITLINK = "160000";

/**
 * Stages every change in the tree at `dir` but `.yoake/` (a Pod's own data), then takes back every
 * gitlink that is not as the commit had it. A run cannot change a submodule (its repository is
 * read-only in the sandbox), so a new or changed gitlink is a repository the run made, whose
 * configuration and hooks whoever checks the branch out would meet: it is left out, and the files
 * beside it are delivered. Resolves with the paths left out.
 */
export async function stageChanges(dir: string): Promise<string[]> {
  const staged = await runGit(dir, "sh", [
    "-ec",
    "git add --all -- . ':(exclude).yoake'\ngit diff --cached --no-renames --no-ext-diff --raw -z",
  ]);
  if (staged.code !== 0) throw failure(staged);
  // `-z --raw`: ":<old mode> <new mode> <old id> <new id> <status>" NUL path NUL, for each change.
  const fields = staged.stdout.split("\0");
  const added: string[] = [];
  const changed: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode] = (fields[i] as string).slice(1).split(" ");
    if (newMode !== GITLINK) continue;
    (oldMode === "000000" ? added : changed).push(fields[i + 1] as string);
  }
  // Literal pathspecs: a name is a name, whatever characters it holds.
  const unstage = async (args: string[], paths: string[]): Promise<void> => {
    if (paths.length === 0) return;
    const outcome = await runGit(dir, "git", ["--literal-pathspecs", ...args, "--", ...paths]);
    if (outcome.code !== 0) throw failure(outcome);
  };
  // `--force`: what is staged there differs from the tree and HEAD, by design; the tree is left alone.
  await unstage(["rm", "--cached", "--force", "--quiet"], added);
  await unstage(["reset", "--quiet", "HEAD"], changed);
  return [...added, ...changed];
}
