import path from "node:path";
import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { fileTypeGlobs } from "./file-types.js";
import { GitignoreRules } from "./gitignore.js";
import { createJsEngine } from "./grep-js.js";
import { GrepPage } from "./grep-output.js";
import type { GrepEngine, GrepOutputMode, GrepQuery } from "./grep-query.js";
import { createRipgrepEngine, findRipgrep } from "./grep-rg.js";
import {
  GREP_DEFAULT_HEAD_LIMIT,
  GREP_MAX_CONTEXT_LINES,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_HEAD_LIMIT,
  GREP_MAX_LINE_CHARS,
} from "./limits.js";
import { picomatch } from "./matchers.js";
import { formatBytes } from "./text-file.js";
import { attempt } from "./tool-error.js";

export const GREP_TOOL_NAME = "grep";

const contextLines = z.number().int().min(0).max(GREP_MAX_CONTEXT_LINES);

const grepInput = z.object({
  pattern: z.string().min(1).describe("The regular expression to search for"),
  path: z.string().optional().describe("The file or directory to search (default: the project root)"),
  glob: z
    .string()
    .optional()
    .describe(
      'Only files matching this glob: "*.ts" (a glob without "/" matches file names at any depth) or "src/**/*.{ts,tsx}" (relative to path)',
    ),
  type: z.string().optional().describe('Only files of this type, e.g. "ts", "js", "py", "rust", "go", "md"'),
  output_mode: z
    .enum(["files_with_matches", "content", "count"])
    .default("files_with_matches")
    .describe(
      "files_with_matches: the paths of matching files (default); content: the matching lines as path:line:text; count: path:number of matching lines",
    ),
  case_insensitive: z.boolean().default(false).describe("Ignore case (like grep -i)"),
  context: contextLines.optional().describe("Lines of context before and after each match (content mode)"),
  before_context: contextLines.optional().describe("Lines of context before each match (overrides context)"),
  after_context: contextLines.optional().describe("Lines of context after each match (overrides context)"),
  head_limit: z
    .number()
    .int()
    .min(1)
    .max(GREP_MAX_HEAD_LIMIT)
    .optional()
    .describe(`How many entries (lines, or files) to return at most (default ${GREP_DEFAULT_HEAD_LIMIT})`),
  offset: z.number().int().min(0).default(0).describe("Entries to skip, to see the next page of results"),
});

export type GrepArguments = z.output<typeof grepInput>;

export interface GrepToolOptions {
  /**
   * `rg`: the ripgrep binary of `@vscode/ripgrep` (an error if it is missing); `js`: the JS
   * engine; `auto` (default): ripgrep when it is installed, else JS.
   */
  engine?: "auto" | "rg" | "js";
}

/**
 * `grep`: a regular-expression search of file contents. Both engines select the same files in the
 * same order (see `ripgrepArguments` and `createJsEngine`); what is shown is then filtered here,
 * the same for both: only files the scope lets the tools read, the `glob` filter, and the
 * `.gitignore` files above the searched directory, which ripgrep is told not to read.
 */
export function createGrepTool(fs: ScopedFs, options: GrepToolOptions = {}): Tool<GrepArguments> {
  return tool({
    name: GREP_TOOL_NAME,
    description: [
      "Search file contents with a regular expression (ripgrep syntax: Rust regex; lookaround and backreferences also work). Lines are matched one at a time.",
      "Filter files with glob and/or type. Files excluded by .gitignore, the .git directory, binary files, symbolic links and files over",
      `${formatBytes(GREP_MAX_FILE_BYTES)} are skipped (a file named in path is searched even if .gitignore excludes it).`,
      `Returns at most head_limit entries (default ${GREP_DEFAULT_HEAD_LIMIT}): lines in content mode, files otherwise; a notice gives the offset to see more. Lines longer than ${GREP_MAX_LINE_CHARS} characters are cut.`,
    ].join(" "),
    input: grepInput,
    async execute(args, context) {
      const requested = args.path ?? ".";
      const target = await attempt(fs.resolve(requested, "read"), requested);
      const info = await attempt(fs.stat(target), requested);
      const targetIsFile = info.type !== "directory";
      if (targetIsFile) await requireSearchableFile(fs, target, requested);

      const mode: GrepOutputMode = args.output_mode;
      const headLimit = args.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
      const inContent = mode === "content";
      const before = inContent ? (args.before_context ?? args.context ?? 0) : 0;
      const after = inContent ? (args.after_context ?? args.context ?? 0) : 0;
      const typeGlobs = args.type === undefined || targetIsFile ? undefined : fileTypeGlobs(args.type);
      const globMatches = args.glob === undefined || targetIsFile ? undefined : globFilter(args.glob);

      const rules = await GitignoreRules.forSearch(fs, targetIsFile ? path.dirname(target) : target);
      const { engine, appliesAllGitignores } = await chooseEngine(fs, rules, options.engine ?? "auto");
      // ripgrep reads the .gitignore files from the searched directory down; those above it are ours.
      const checkGitignore = !targetIsFile && !appliesAllGitignores && rules.base !== target;

      const controller = new AbortController();
      const stop = (): void => controller.abort();
      context.signal.addEventListener("abort", stop, { once: true });
      const query: GrepQuery = {
        target,
        targetIsFile,
        pattern: args.pattern,
        caseInsensitive: args.case_insensitive,
        typeGlobs,
        before,
        after,
        // A page can show no more matching lines of one file than it has entries.
        maxMatchesPerFile:
          mode === "files_with_matches" ? 1 : inContent ? args.offset + headLimit + 1 : undefined,
        collectLines: inContent,
        signal: controller.signal,
      };
      const page = new GrepPage({
        mode,
        offset: args.offset,
        headLimit,
        withContext: before > 0 || after > 0,
        displayPath: (realPath) => fs.displayPath(realPath),
      });
      try {
        for await (const hit of engine(query)) {
          if (!fs.permits(hit.path, "read")) continue;
          if (globMatches !== undefined && !globMatches(relativePosix(target, hit.path))) continue;
          if (checkGitignore && (await rules.isIgnored(hit.path, false))) continue;
          if (!page.add(hit)) break;
        }
      } finally {
        context.signal.removeEventListener("abort", stop);
        controller.abort();
      }
      context.signal.throwIfAborted();
      if (page.empty) return `No matches for ${JSON.stringify(args.pattern)} in ${fs.displayPath(target)}.`;
      return page.render();
    },
  });
}

async function chooseEngine(
  fs: ScopedFs,
  rules: GitignoreRules,
  choice: "auto" | "rg" | "js",
): Promise<{ engine: GrepEngine; appliesAllGitignores: boolean }> {
  if (choice !== "js") {
    const rgPath = await findRipgrep();
    if (rgPath !== undefined) return { engine: createRipgrepEngine(rgPath, fs), appliesAllGitignores: false };
    if (choice === "rg") throw new Error("grep: the ripgrep binary (@vscode/ripgrep) is not installed");
  }
  return { engine: createJsEngine(fs, rules), appliesAllGitignores: true };
}

/** A file named in `path` must be text and not too large, as the engines would skip it silently. */
async function requireSearchableFile(fs: ScopedFs, target: string, requested: string): Promise<void> {
  const head = await attempt(fs.readFilePrefix(target, 8192), requested);
  if (head.totalBytes > GREP_MAX_FILE_BYTES) {
    throw new Error(
      `${JSON.stringify(requested)} is ${head.totalBytes} bytes, more than grep searches (${formatBytes(GREP_MAX_FILE_BYTES)})`,
    );
  }
  if (head.bytes.includes(0))
    throw new Error(`${JSON.stringify(requested)} is a binary file; grep searches text`);
}

/**
 * The user's glob as .gitignore and ripgrep read one: without a `/` it matches the file name at
 * any depth, with one it matches the path relative to the searched directory.
 */
function globFilter(glob: string): (relativePath: string) => boolean {
  return picomatch()(glob, { dot: true, basename: !glob.includes("/") });
}

function relativePosix(directory: string, file: string): string {
  const relative = path.relative(directory, file);
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}
