import { type ChildProcessByStdio, spawn } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
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
    "--json",
    "--no-config",
    "--sort=path",
    "--hidden",
    `--glob=!${GIT_DIRECTORY_NAME}`,
    "--no-require-git",
    "--no-ignore-parent",
    "--no-ignore-dot",
    "--no-ignore-exclude",
    "--no-ignore-global",
    `--max-filesize=${GREP_MAX_FILE_BYTES}`,
    "--engine=auto",
    query.caseInsensitive ? "--ignore-case" : "--case-sensitive",
  ];
  if (query.before > 0) args.push(`--before-context=${query.before}`);
  if (query.after > 0) args.push(`--after-context=${query.after}`);
  if (query.maxMatchesPerFile !== undefined) args.push(`--max-count=${query.maxMatchesPerFile}`);
  if (query.typeGlobs !== undefined) {
    for (const glob of query.typeGlobs) args.push(`--type-add=${TYPE_NAME}:${glob}`);
    args.push(`--type=${TYPE_NAME}`);
  }
  args.push(`--regexp=${query.pattern}`, "--", query.target);
  return args;
}

/** A search by the ripgrep binary at `rgPath`, read from its `--json` output as it streams. */
export function createRipgrepEngine(rgPath: string): GrepEngine {
  return async function* searchWithRipgrep(query: GrepQuery): AsyncGenerator<GrepFileHit, void, undefined> {
    const child = spawn(rgPath, ripgrepArguments(query), {
      cwd: query.targetIsFile ? path.dirname(query.target) : query.target,
      stdio: ["ignore", "pipe", "pipe"],
    });
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
    query.signal.addEventListener("abort", stop, { once: true });

    let yielded = 0;
    try {
      for await (const hit of parseJsonStream(child, query.collectLines)) {
        yielded += 1;
        yield hit;
      }
      const code = await exited;
      // 1 is "no match". 2 is an error, also when only some files could not be read: that matters
      // only when nothing was found (a bad pattern fails before any output).
      if (code === 2 && yielded === 0 && stderr.trim() !== "" && !query.signal.aborted) {
        throw new Error(`grep failed: ${stderr.trim()}`);
      }
    } finally {
      query.signal.removeEventListener("abort", stop);
      if (child.exitCode === null && child.signalCode === null) child.kill();
    }
  };
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
          if (current !== undefined && current.matchingLines > 0) yield current;
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
  | { type: "end"; data: { path: RipgrepText } }
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
