/** A path the picker offers, with how well it matched and which characters to highlight. */
export interface FuzzyMatch {
  path: string;
  score: number;
  /** Offsets of the matched characters in `path`, ascending. */
  positions: number[];
}

const SEPARATORS = new Set(["/", "_", "-", ".", " "]);

/**
 * How well `query` matches `path` as a fuzzy subsequence (every query character appears in
 * order, case-insensitively), or undefined when it does not. Higher is better: a substring beats
 * scattered characters, matches in the file name beat matches in directories, characters at the
 * start of a word and runs of consecutive characters count more, and shorter paths win ties.
 * One pass per path, no allocation beyond the positions: the picker runs it on every file at
 * each key press.
 */
export function fuzzyScore(query: string, path: string): FuzzyMatch | undefined {
  if (query === "") return { path, score: -path.length / 100, positions: [] };
  const lowerPath = path.toLowerCase();
  const lowerQuery = query.toLowerCase();
  const nameStart = path.lastIndexOf("/") + 1;
  const substring = lowerPath.lastIndexOf(lowerQuery);
  if (substring !== -1) {
    const positions = Array.from({ length: lowerQuery.length }, (_, i) => substring + i);
    const inName = substring >= nameStart;
    const atWord = substring === 0 || SEPARATORS.has(path[substring - 1] as string);
    const score =
      100 + (inName ? 50 : 0) + (substring === nameStart ? 30 : 0) + (atWord ? 15 : 0) - path.length / 100;
    return { path, score, positions };
  }
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  for (let q = 0; q < lowerQuery.length; q++) {
    const at = lowerPath.indexOf(lowerQuery[q] as string, from);
    if (at === -1) return undefined;
    score += 1;
    if (at === 0 || SEPARATORS.has(path[at - 1] as string)) score += 5;
    if (q > 0 && at === (positions[q - 1] as number) + 1) score += 4;
    if (at >= nameStart) score += 2;
    positions.push(at);
    from = at + 1;
  }
  return { path, score: score - path.length / 100, positions };
}

/** The best `limit` matches of `query`, best first; equal scores in path order. */
export function rankPaths(query: string, paths: readonly string[], limit: number): FuzzyMatch[] {
  const matches: FuzzyMatch[] = [];
  for (const path of paths) {
    const match = fuzzyScore(query, path);
    if (match !== undefined) matches.push(match);
  }
  matches.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return matches.slice(0, limit);
}
