import { type ChildProcessByStdio, spawn } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { ReadableFile, ScopedFs } from "../scope/scoped-fs.js";
import type { GrepEngine, GrepFileHit, GrepLine, GrepQuery } from "./grep-query.js";
import { GREP_MAX_FILE_BYTES } from "./limits.js";
import { GIT_DIRECTORY_NAME } from "./searchable-entries.js";
import { withoutCr } from "./text-file.js";

let ripgrepPath: Promise<string | undefined> | undefined;

/**
 * The `rg` binary shipped in `@vscode/ripgrep` (its platform package holds the binary), or
 * undefined when it is not installed or cannot be run here. Looked up once per process.
 */
export function findRipgrep(): Promise<string | undefined> {
  ripgrepPath ??= import("@vscode/ripgrep")
    .then(
      async ({ rgPath }) => {
        await access(rgPath, constants.X_OK);
        return rgPath;
      },
      () => undefined,
    )
    .catch(() => undefined);
  return ripgrepPath;
}

/** The name the type filter's globs are registered under (`--type-add`), clear of ripgrep's own types. */
const TYPE_NAME = "yoakefilter";

/** What ripgrep's standard error keeps for an error message; the rest is noise about unreadable files. */
const STDERR_KEEP_BYTES = 4096;

/**
 * ripgrep's arguments for a query, set so that it selects exactly what the JS engine does: its
 * own configuration file ignored, `.gitignore` files applied without a `.git` directory and only
 * from the searched directory down (the caller applies those above it), no `.ignore`, global or
 * `info/exclude` files, dot files searched but not `.git`, links not followed, files in path
 * order, the type filter given as our own definitions.
 */
export function ripgrepArguments(query: GrepQuery): string[] {
  const args = [
    "--sort=path",
    "--hidden",
    `--glob=!${GIT_DIRECTORY_NAME}`,
    "--no-require-git",
    "--no-ignore-parent",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-global",
    `--max-filesize=${GREP_MAX_FILE_BYTES}`,
  ];
  if (query.typeGlobs !== undefined) {
    for (const glob of query.typeGlobs) args.push(`--type-add=${TYPE_NAME}:${glob}`);
    args.push(`--type=${TYPE_NAME}`);
  }
  return [...args, ...matchArguments(query), "--", query.target];
}

/** How lines are matched and reported: the same for the walk and for the verified files. */
function matchArguments(query: GrepQuery): string[] {
  const args = [
    "--json",
    "--no-config",
    "--engine=auto",
    query.caseInsensitive ? "--ignore-case" : "--case-sensitive",
  ];
  if (query.before > 0) args.push(`--before-context=${query.before}`);
  if (query.after > 0) args.push(`--after-context=${query.after}`);
  if (query.maxMatchesPerFile !== undefined) args.push(`--max-count=${query.maxMatchesPerFile}`);
  args.push(`--regexp=${query.pattern}`);
  return args;
}

/** Verified files handed to one ripgrep run: few enough fds, enough to spread a spawn's cost. */
const VERIFY_BATCH = 32;

/**
 * A search by the ripgrep binary at `rgPath`, safe against a process that moves directories and
 * links while it runs. ripgrep opens files by path, so a directory swapped for a link during its
 * walk would make it read (and report under an inside name) a file outside the scope. Its walk
 * therefore only proposes candidate files (one match each is enough). Each candidate is then
 * opened through the ScopedFs, which verifies by fd what it opened, and searched again by ripgrep
 * through that very fd (`/dev/fd/<n>` in the child, inherited, never a path): every line, count
 * and name shown comes from a file verified to be where it is shown. A candidate that moved is
 * dropped; at worst a race hides a match, it never shows what is outside.
 */
export function createRipgrepEngine(rgPath: string, fs: ScopedFs): GrepEngine {
  return async function* searchWithRipgrep(query: GrepQuery): AsyncGenerator<GrepFileHit, void, undefined> {
    const proposal: GrepQuery = { ...query, before: 0, after: 0, maxMatchesPerFile: 1, collectLines: false };
    const candidates = runRipgrep(rgPath, ripgrepArguments(proposal), {
      cwd: query.targetIsFile ? path.dirname(query.target) : query.target,
      signal: query.signal,
      collectLines: false,
    });
    let batch: string[] = [];
    for await (const candidate of candidates) {
      batch.push(candidate.path);
      if (batch.length < VERIFY_BATCH) continue;
      yield* searchVerified(rgPath, fs, query, batch);
      batch = [];
    }
    if (batch.length > 0) yield* searchVerified(rgPath, fs, query, batch);
  };
}

/** The candidates that open verified, searched by ripgrep through their fds; hits in candidate order. */
async function* searchVerified(
  rgPath: string,
  fs: ScopedFs,
  query: GrepQuery,
  candidates: readonly string[],
): AsyncGenerator<GrepFileHit, void, undefined> {
  const files: ReadableFile[] = [];
  try {
    for (const candidate of candidates) {
      const file = await fs.openReadableFile(candidate).catch(() => undefined);
      if (file === undefined) continue;
      if (file.stats.size <= GREP_MAX_FILE_BYTES) files.push(file);
      else await file.close();
    }
    if (files.length === 0 || query.signal.aborted) return;
    // The child's fds 3, 4, ...: stdin, stdout and stderr come first.
    const fdPaths = files.map((_, index) => `/dev/fd/${index + 3}`);
    const hits = new Map<string, GrepFileHit>();
    const search = runRipgrep(rgPath, [...matchArguments(query), "--", ...fdPaths], {
      signal: query.signal,
      collectLines: query.collectLines,
      inheritedFds: files.map((file) => file.handle.fd),
    });
    for await (const hit of search) hits.set(hit.path, hit);
    for (const [index, file] of files.entries()) {
      const hit = hits.get(fdPaths[index] as string);
      if (hit !== undefined) yield { ...hit, path: file.realPath };
    }
  } finally {
    await Promise.all(files.map((file) => file.close()));
  }
}

interface RipgrepRun {
  cwd?: string;
  signal: AbortSignal;
  collectLines: boolean;
  /** Open fds the child inherits as its fds 3, 4, ... */
  inheritedFds?: readonly number[];
}

/** One ripgrep process, its `--json` output read as it streams. */
async function* runRipgrep(
  rgPath: string,
  args: readonly string[],
  run: RipgrepRun,
): AsyncGenerator<GrepFileHit, void, undefined> {
  const child = spawn(rgPath, args, {
    ...(run.cwd !== undefined && { cwd: run.cwd }),
    stdio: ["ignore", "pipe", "pipe", ...(run.inheritedFds ?? [])],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  // Attached at once: a spawn failure must not surface as an unhandled rejection before it is awaited.
  exited.catch(() => {});
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (stderr.length < STDERR_KEEP_BYTES) stderr += chunk;
  });
  const stop = (): void => {
    child.kill();
  };
  run.signal.addEventListener("abort", stop, { once: true });

  let yielded = 0;
  try {
    for await (const hit of parseJsonStream(child, run.collectLines)) {
      yielded += 1;
      yield hit;
    }
    const code = await exited;
    // 1 is "no match". 2 is an error, also when only some files could not be read: that matters
    // only when nothing was found (a bad pattern fails before any output).
    if (code === 2 && yielded === 0 && stderr.trim() !== "" && !run.signal.aborted) {
      throw new Error(`grep failed: ${stderr.trim()}`);
    }
  } finally {
    run.signal.removeEventListener("abort", stop);
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

/**
 * ripgrep's JSON lines: `begin`, then `match` / `context`, then `end` per file, in order. Lines
 * are kept only when `collectLines` (a count needs only their number).
 */
async function* parseJsonStream(
  child: ChildProcessByStdio<null, Readable, Readable>,
  collectLines: boolean,
): AsyncGenerator<GrepFileHit, void, undefined> {
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  let current: GrepFileHit | undefined;
  try {
    for await (const line of lines) {
      const message = JSON.parse(line) as RipgrepMessage;
      switch (message.type) {
        case "begin":
          current = { path: decode(message.data.path), matchingLines: 0, lines: [] };
          break;
        case "match":
        case "context": {
          if (current === undefined) break;
          const isMatch = message.type === "match";
          if (isMatch) current.matchingLines += 1;
          if (collectLines) current.lines.push(lineOf(message.data, isMatch));
          break;
        }
        case "end":
          // A file given by name is searched even when binary; the JS engine skips those, as the walk does.
          if (current !== undefined && current.matchingLines > 0 && message.data.binary_offset == null)
            yield current;
          current = undefined;
          break;
      }
    }
  } finally {
    lines.close();
  }
}

type RipgrepText = { text: string } | { bytes: string };

type RipgrepMessage =
  | { type: "begin"; data: { path: RipgrepText } }
  | { type: "match" | "context"; data: { lines: RipgrepText; line_number: number | null } }
  | { type: "end"; data: { path: RipgrepText; binary_offset?: number | null } }
  | { type: "summary"; data: unknown };

function lineOf(data: { lines: RipgrepText; line_number: number | null }, isMatch: boolean): GrepLine {
  const text = decode(data.lines);
  const withoutNewline = text.endsWith("\n") ? text.slice(0, -1) : text;
  return { number: data.line_number ?? 0, text: withoutCr(withoutNewline), isMatch };
}

/** ripgrep gives text that is not valid UTF-8 as base64 bytes: decoded with U+FFFD, as the JS engine reads files. */
function decode(value: RipgrepText): string {
  return "text" in value ? value.text : Buffer.from(value.bytes, "base64").toString("utf8");
}
