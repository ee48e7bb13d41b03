/** A path the picker offers, with how well it matched and which characters to highlight. */
export interface FuzzyMatch {
  path: string;
  score: number;
  /** Offsets of the matched characters in `path`, ascending. */
  positions: number[];
}

/** A path prepared once per file list, so a key press does not lower-case every path again. */
export interface FileCandidate {
  readonly path: string;
  readonly lower: string;
  /** Where the file name starts (after the last `/`). */
  readonly nameStart: number;
}

export function fileCandidates(paths: readonly string[]): FileCandidate[] {
  return paths.map((path) => ({ path, lower: path.toLowerCase(), nameStart: path.lastIndexOf("/") + 1 }));
}

const SEPARATORS = new Set(["/", "_", "-", ".", " "]);

/**
 * How well `query` matches `path` as a fuzzy subsequence (every query character appears in
 * order, case-insensitively), or undefined when it does not. Higher is better: a substring beats
 * scattered characters, matches in the file name beat matches in directories, characters at the
 * start of a word and runs of consecutive characters count more, and shorter paths win ties.
 */
export function fuzzyScore(query: string, path: string): FuzzyMatch | undefined {
  const [candidate] = fileCandidates([path]) as [FileCandidate];
  const positions: number[] = [];
  const score = scoreOf(query.toLowerCase(), candidate, positions);
  return score === undefined ? undefined : { path, score, positions };
}

/**
 * The best `limit` matches of `query`, best first; equal scores in path order. One pass that
 * allocates nothing per path, keeping only the best few; the matched positions are worked out
 * for those alone. The picker runs this on every file at each key press.
 */
export function rankPaths(
  query: string,
  candidates: readonly FileCandidate[] | readonly string[],
  limit: number,
): FuzzyMatch[] {
  const prepared = isPrepared(candidates) ? candidates : fileCandidates(candidates);
  const lowerQuery = query.toLowerCase();
  const best: Array<{ candidate: FileCandidate; score: number }> = [];
  for (const candidate of prepared) {
    const score = scoreOf(lowerQuery, candidate, undefined);
    if (score === undefined) continue;
    if (
      best.length === limit &&
      !ranksBefore(score, candidate.path, best[limit - 1] as (typeof best)[number])
    )
      continue;
    let at = best.length;
    while (at > 0 && ranksBefore(score, candidate.path, best[at - 1] as (typeof best)[number])) at--;
    best.splice(at, 0, { candidate, score });
    if (best.length > limit) best.pop();
  }
  return best.map(({ candidate, score }) => {
    const positions: number[] = [];
    scoreOf(lowerQuery, candidate, positions);
    return { path: candidate.path, score, positions };
  });
}

function isPrepared(
  candidates: readonly FileCandidate[] | readonly string[],
): candidates is readonly FileCandidate[] {
  return typeof candidates[0] !== "string";
}

function ranksBefore(
  score: number,
  path: string,
  other: { candidate: FileCandidate; score: number },
): boolean {
  return score > other.score || (score === other.score && path < other.candidate.path);
}

/** The score, filling `positions` when given; undefined when the query is not a subsequence. */
function scoreOf(
  lowerQuery: string,
  candidate: FileCandidate,
  positions: number[] | undefined,
): number | undefined {
  const { path, lower, nameStart } = candidate;
  const lengthPenalty = path.length / 100;
  if (lowerQuery === "") return -lengthPenalty;
  const substring = lower.lastIndexOf(lowerQuery);
  if (substring !== -1) {
    if (positions !== undefined) for (let i = 0; i < lowerQuery.length; i++) positions.push(substring + i);
    const inName = substring >= nameStart;
    const atWord = substring === 0 || SEPARATORS.has(path[substring - 1] as string);
    return 100 + (inName ? 50 : 0) + (substring === nameStart ? 30 : 0) + (atWord ? 15 : 0) - lengthPenalty;
  }
  let score = 0;
  let from = 0;
  let previous = -2;
  for (let q = 0; q < lowerQuery.length; q++) {
    const at = lower.indexOf(lowerQuery[q] as string, from);
    if (at === -1) return undefined;
    score += 1;
    if (at === 0 || SEPARATORS.has(path[at - 1] as string)) score += 5;
    if (at === previous + 1) score += 4;
    if (at >= nameStart) score += 2;
    positions?.push(at);
    previous = at;
    from = at + 1;
  }
  return score - lengthPenalty;
}
