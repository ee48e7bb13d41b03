import type { ScopedFs } from "../scope/scoped-fs.js";
import type { GitignoreRules } from "./gitignore.js";
import type { GrepEngine, GrepFileHit, GrepLine, GrepQuery } from "./grep-query.js";
import { GREP_MAX_FILE_BYTES } from "./limits.js";
import { picomatch } from "./matchers.js";
import { entryPath, searchableEntries } from "./searchable-entries.js";
import { withoutCr } from "./text-file.js";

/**
 * The search engine used when the ripgrep binary is missing: the same walk as `glob` (ScopedFs
 * listings, `.gitignore` applied per directory, no `.git`, no symbolic links, dot files included),
 * in ripgrep's `--sort path` order, with the same skips (files over `GREP_MAX_FILE_BYTES`, files
 * with a NUL byte) and the same line semantics (a line is tested with its CR, shown without it).
 * The pattern is a JavaScript regular expression, compiled with the `u` flag when it allows it.
 */
export function createJsEngine(fs: ScopedFs, rules: GitignoreRules): GrepEngine {
  return async function* searchWithJs(query: GrepQuery): AsyncGenerator<GrepFileHit, void, undefined> {
    const regex = compilePattern(query.pattern, query.caseInsensitive);
    const typeMatches =
      query.typeGlobs === undefined ? undefined : picomatch()([...query.typeGlobs], { dot: true });

    async function* searchFile(file: string): AsyncGenerator<GrepFileHit, void, undefined> {
      const prefix = await fs.readFilePrefix(file, GREP_MAX_FILE_BYTES).catch(() => undefined);
      if (prefix === undefined || prefix.totalBytes > GREP_MAX_FILE_BYTES || prefix.bytes.includes(0)) return;
      const hit = searchText(prefix.bytes.toString("utf8"), regex, query);
      if (hit.matchingLines > 0) yield { path: file, ...hit };
    }

    async function* walk(directory: string): AsyncGenerator<GrepFileHit, void, undefined> {
      const entries = await searchableEntries(fs, rules, directory).catch(() => []);
      for (const entry of entries) {
        if (query.signal.aborted) return;
        const child = entryPath(directory, entry);
        if (entry.type === "directory") yield* walk(child);
        else if (typeMatches === undefined || typeMatches(entry.name)) yield* searchFile(child);
      }
    }

    if (query.targetIsFile) yield* searchFile(query.target);
    else yield* walk(query.target);
  };
}

/** The pattern as a JavaScript RegExp; a syntax error becomes a message for the model. */
export function compilePattern(pattern: string, caseInsensitive: boolean): RegExp {
  const flags = caseInsensitive ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    // Without `u`, escapes such as `\-` or `\:` are allowed, as in ripgrep's syntax.
  }
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    throw new Error(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
}

/**
 * The matching lines of one file, with context, as ripgrep reports them: `before` lines ahead of
 * a match and `after` lines behind it, each line once; after the `maxMatchesPerFile`th match only
 * its trailing context follows.
 */
export function searchText(
  text: string,
  regex: RegExp,
  query: Pick<GrepQuery, "before" | "after" | "maxMatchesPerFile" | "collectLines">,
): { matchingLines: number; lines: GrepLine[] } {
  const { before, after, collectLines } = query;
  const maxMatches = query.maxMatchesPerFile ?? Number.POSITIVE_INFINITY;
  const lines: GrepLine[] = [];
  const recent: GrepLine[] = [];
  let matchingLines = 0;
  let afterLeft = 0;
  let number = 0;
  // A final newline ends the last line; it does not start an empty one.
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let start = 0; start <= end && text.length > 0; ) {
    const newline = text.indexOf("\n", start);
    const stop = newline === -1 || newline > end ? end : newline;
    const line = text.slice(start, stop);
    number += 1;
    start = stop + 1;
    if (matchingLines < maxMatches && regex.test(line)) {
      matchingLines += 1;
      afterLeft = after;
      if (!collectLines) {
        if (matchingLines >= maxMatches) break;
        continue;
      }
      lines.push(...recent);
      recent.length = 0;
      lines.push({ number, text: withoutCr(line), isMatch: true });
    } else if (afterLeft > 0) {
      afterLeft -= 1;
      if (collectLines) lines.push({ number, text: withoutCr(line), isMatch: false });
    } else if (matchingLines >= maxMatches) {
      break;
    } else if (before > 0 && collectLines) {
      recent.push({ number, text: withoutCr(line), isMatch: false });
      if (recent.length > before) recent.shift();
    }
  }
  return { matchingLines, lines };
}
