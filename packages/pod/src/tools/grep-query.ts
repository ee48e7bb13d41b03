/** What `grep` shows: matching files, matching lines (with context), or a count per file. */
export type GrepOutputMode = "files_with_matches" | "content" | "count";

/**
 * One search, as both engines (ripgrep and the JS fallback) take it. Paths are canonical. Filters
 * applied after the search (scope, the user's glob, `.gitignore` files above the searched
 * directory) are the caller's, the same for both engines.
 */
export interface GrepQuery {
  /** The canonical file or directory to search. */
  target: string;
  /** A file given by name is searched whatever `.gitignore` and the type filter say. */
  targetIsFile: boolean;
  /** A regular expression (Rust syntax for ripgrep, which switches to PCRE2 for lookaround; JS syntax for the fallback). */
  pattern: string;
  caseInsensitive: boolean;
  /** File-name globs of the type filter (directory searches only). */
  typeGlobs: readonly string[] | undefined;
  /** Context lines before and after each match. */
  before: number;
  after: number;
  /** Stop searching a file after this many matching lines (undefined: count them all). */
  maxMatchesPerFile: number | undefined;
  /** Whether the matching lines themselves are wanted (content mode), or only their number. */
  collectLines: boolean;
  signal: AbortSignal;
}

/** A line of a file's result: a match, or context around one. `text` has no line ending. */
export interface GrepLine {
  number: number;
  text: string;
  isMatch: boolean;
}

/** One file with at least one match. Engines yield files in path order (each directory's entries by name, depth first). */
export interface GrepFileHit {
  path: string;
  matchingLines: number;
  /** Matches and context in line order (empty unless `collectLines`). */
  lines: GrepLine[];
}

/** A search engine: the files that match, in path order, stopping when the consumer stops. */
export type GrepEngine = (query: GrepQuery) => AsyncGenerator<GrepFileHit, void, undefined>;
