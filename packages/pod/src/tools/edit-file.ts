import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { requireFreshRead } from "./change-guard.js";
import { READ_MAX_FILE_BYTES } from "./limits.js";
import type { ReadTracker } from "./read-tracker.js";
import { formatBytes, plural, usesCrlf } from "./text-file.js";
import { attempt } from "./tool-error.js";
import { unifiedDiff } from "./unified-diff.js";

export const EDIT_FILE_TOOL_NAME = "edit_file";

const editFileInput = z.object({
  path: z.string().min(1).describe("The file to edit, relative to the project root or absolute"),
  old_string: z
    .string()
    .describe("The exact text to replace, as it is in the file (without read_file's line-number prefixes)"),
  new_string: z.string().describe("The text to put in its place"),
  replace_all: z
    .boolean()
    .default(false)
    .describe("Replace every occurrence of old_string (default: old_string must occur exactly once)"),
});

export type EditFileArguments = z.output<typeof editFileInput>;

export interface EditFileToolOptions {
  tracker: ReadTracker;
}

/** What an exact replacement came to. */
export type Replacement =
  | { kind: "replaced"; text: string; count: number }
  | { kind: "not-found" }
  | { kind: "ambiguous"; count: number };

/**
 * Replaces `oldString` by `newString` in `text`: the only occurrence, or every one with
 * `replaceAll`. In a CRLF file the model's LF line breaks are taken as CRLF (read_file shows lines
 * without their CR), and the replacement is written with CRLF too; if that finds nothing, the
 * strings are tried as given. Plain string operations: `$&` in `newString` means nothing special.
 */
export function replaceExact(
  text: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
): Replacement {
  const candidates: Array<[string, string]> = [];
  if (usesCrlf(text)) candidates.push([toCrlf(oldString), toCrlf(newString)]);
  candidates.push([oldString, newString]);
  for (const [search, replacement] of candidates) {
    const count = countOccurrences(text, search);
    if (count === 0) continue;
    if (count > 1 && !replaceAll) return { kind: "ambiguous", count };
    const replaced = replaceAll
      ? text.split(search).join(replacement)
      : spliceAt(text, text.indexOf(search), search.length, replacement);
    return { kind: "replaced", text: replaced, count };
  }
  return { kind: "not-found" };
}

/**
 * `edit_file`: exact string replacement in a file the model has read in this session and that
 * has not changed since (tracked by content hash). The result shows the unified diff.
 */
export function createEditFileTool(fs: ScopedFs, options: EditFileToolOptions): Tool<EditFileArguments> {
  return tool({
    name: EDIT_FILE_TOOL_NAME,
    description: [
      "Replace an exact string in a file. old_string must match the file exactly, whitespace and indentation included, and occur exactly once; give more surrounding lines to make it unique, or set replace_all to replace every occurrence.",
      "You must have read the file with read_file in this session, and it must not have changed since.",
      "Line endings: in a CRLF file, write plain newlines; they become CRLF. The result shows the unified diff of the change.",
      "To create a file, use write_file.",
    ].join(" "),
    input: editFileInput,
    async execute({ path, old_string: oldString, new_string: newString, replace_all: replaceAll }) {
      if (oldString === "") {
        throw new Error(
          "old_string is empty: give the exact text to replace (to insert, include a neighbouring line in old_string and new_string; to create a file, use write_file)",
        );
      }
      if (oldString === newString)
        throw new Error("old_string and new_string are the same: nothing to change");
      const target = await attempt(fs.resolve(path, "write"), path);
      const info = await attempt(fs.stat(path), path);
      if (info.type === "file" && info.size > READ_MAX_FILE_BYTES) {
        throw new Error(
          `${JSON.stringify(path)} is ${info.size} bytes, more than edit_file handles (${formatBytes(READ_MAX_FILE_BYTES)})`,
        );
      }
      const bytes = await attempt(fs.readFileBytes(path), path);
      const displayPath = fs.displayPath(target);
      requireFreshRead(options.tracker, target, bytes, displayPath, "edit it");

      const before = bytes.toString("utf8");
      const outcome = replaceExact(before, oldString, newString, replaceAll);
      if (outcome.kind === "not-found") {
        throw new Error(`old_string was not found in ${displayPath}`);
      }
      if (outcome.kind === "ambiguous") {
        throw new Error(
          `old_string occurs ${outcome.count} times in ${displayPath}: add surrounding lines to old_string so that it matches only one place, or set replace_all to replace all ${outcome.count}`,
        );
      }
      const written = await attempt(fs.writeFile(path, outcome.text), path);
      options.tracker.record(written, outcome.text);
      const diff = unifiedDiff(displayPath, before, outcome.text);
      return `Edited ${displayPath}: replaced ${plural(outcome.count, "occurrence")}.\n\n${diff}`;
    },
  });
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count += 1;
  return count;
}

function spliceAt(text: string, at: number, length: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at + length);
}

/** LF line breaks as CRLF, leaving existing CRLFs alone. */
function toCrlf(value: string): string {
  return value.replace(/\r?\n/g, "\r\n");
}
