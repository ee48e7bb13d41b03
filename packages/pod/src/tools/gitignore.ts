import path from "node:path";
import type { Ignore } from "ignore";
import { pathCovers } from "../scope/rules.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { ignore } from "./matchers.js";

/** The `.gitignore` of one directory, compiled. */
interface IgnoreLayer {
  directory: string;
  rules: Ignore;
}

/** A directory as the rules see it: ignored, or not ignored with the layers that apply inside it. */
interface DirectoryState {
  ignored: boolean;
  /** Outermost first: the base directory's `.gitignore`, then each one below it on the way here. */
  layers: readonly IgnoreLayer[];
}

/** Decides whether an entry of a directory is ignored: `name` is its name in that directory. */
export type EntryIgnored = (name: string, isDirectory: boolean) => boolean;

/**
 * The `.gitignore` files of a tree, from a base directory down, applied per directory as git
 * does: each file's patterns are relative to its own directory, a deeper file's match wins over
 * a shallower one's, a negation (`!pattern`) re-includes, and nothing below an ignored directory
 * is seen. Matching is case-sensitive, as ripgrep's is.
 *
 * Only `.gitignore` files are read — not `.git/info/exclude`, the global excludes file nor
 * `.ignore` — and none above the base, which is the project root when the search is inside it
 * (otherwise the searched directory itself). No `.git` directory is needed. Every file is read
 * through the ScopedFs: one the scope does not let the tools read counts as absent. Files are read
 * once per instance, lazily; one instance serves one search.
 *
 * Known difference from git: when a deeper `.gitignore` re-includes a directory that a shallower
 * one excludes, the files inside stay excluded.
 */
export class GitignoreRules {
  private readonly states = new Map<string, Promise<DirectoryState>>();

  private constructor(
    private readonly fs: ScopedFs,
    /** The canonical directory whose `.gitignore` is the outermost one applied. */
    readonly base: string,
  ) {}

  /**
   * The rules for a search of the canonical directory `searchRoot`: from the project root down
   * when the search is inside the project, else from `searchRoot` down. A search that starts
   * inside an ignored directory (the model asked for it by name) applies only the rules from there.
   */
  static async forSearch(fs: ScopedFs, searchRoot: string): Promise<GitignoreRules> {
    if (!pathCovers(fs.root, true, searchRoot)) return new GitignoreRules(fs, searchRoot);
    const fromRoot = new GitignoreRules(fs, fs.root);
    return (await fromRoot.directoryState(searchRoot)).ignored
      ? new GitignoreRules(fs, searchRoot)
      : fromRoot;
  }

  /** Whether the canonical path `realPath`, at or below the base, is ignored (itself or through a parent). */
  async isIgnored(realPath: string, isDirectory: boolean): Promise<boolean> {
    if (realPath === this.base || !pathCovers(this.base, true, realPath)) return false;
    const parent = await this.directoryState(path.dirname(realPath));
    return parent.ignored || matchLayers(parent.layers, realPath, isDirectory);
  }

  /**
   * For a walk: a synchronous test of the entries of the directory `directory`, which must not be
   * ignored itself (the walk never enters one that is). `hasGitignore` says whether the listing
   * holds a `.gitignore`, which spares a failed read in every directory without one.
   */
  async entriesOf(directory: string, hasGitignore?: boolean): Promise<EntryIgnored> {
    const state = await this.directoryState(directory, hasGitignore);
    if (state.ignored) return () => true;
    const { layers } = state;
    if (layers.length === 0) return () => false;
    return (name, isDirectory) => matchLayers(layers, path.join(directory, name), isDirectory);
  }

  private directoryState(directory: string, hasGitignore?: boolean): Promise<DirectoryState> {
    let state = this.states.get(directory);
    if (state === undefined) {
      state = this.computeState(directory, hasGitignore);
      this.states.set(directory, state);
    }
    return state;
  }

  private async computeState(directory: string, hasGitignore: boolean | undefined): Promise<DirectoryState> {
    if (directory === this.base) {
      const own = hasGitignore === false ? undefined : await this.load(directory);
      return { ignored: false, layers: own ? [own] : [] };
    }
    if (!pathCovers(this.base, true, directory)) return { ignored: false, layers: [] };
    const parent = await this.directoryState(path.dirname(directory));
    if (parent.ignored || matchLayers(parent.layers, directory, true)) return { ignored: true, layers: [] };
    const own = hasGitignore === false ? undefined : await this.load(directory);
    return { ignored: false, layers: own ? [...parent.layers, own] : parent.layers };
  }

  private async load(directory: string): Promise<IgnoreLayer | undefined> {
    const text = await this.fs.readFile(path.join(directory, ".gitignore")).catch(() => undefined);
    if (text === undefined || text.trim() === "") return undefined;
    return { directory, rules: ignore()({ ignorecase: false }).add(text) };
  }
}

/** Deepest layer first: the first that has an opinion on the path decides. */
function matchLayers(layers: readonly IgnoreLayer[], realPath: string, isDirectory: boolean): boolean {
  for (let index = layers.length - 1; index >= 0; index -= 1) {
    const layer = layers[index] as IgnoreLayer;
    let relative = realPath.slice(layer.directory.length + (layer.directory.endsWith(path.sep) ? 0 : 1));
    if (path.sep !== "/") relative = relative.split(path.sep).join("/");
    const result = layer.rules.test(isDirectory ? `${relative}/` : relative);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}
