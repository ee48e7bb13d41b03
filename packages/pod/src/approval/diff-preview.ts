import { ScopeError } from "../scope/scope-error.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { EDIT_FILE_TOOL_NAME, replaceExact } from "../tools/edit-file.js";
import { READ_MAX_FILE_BYTES } from "../tools/limits.js";
import { isBinary } from "../tools/text-file.js";
import { unifiedDiff } from "../tools/unified-diff.js";
import { WRITE_FILE_TOOL_NAME } from "../tools/write-file.js";
import type { DiffPreview } from "./permission.js";

/**
 * What a `write_file` or `edit_file` call would change, read through the scope and never
 * written, so the approver sees the diff before deciding. The replacement and the diff are the
 * tools' own (`replaceExact`, `unifiedDiff`): the preview is the diff the call's result will show.
 * Undefined for other tools. The diff is cut after `maxBytes`, at a line end.
 */
export async function previewToolCall(
  fs: ScopedFs,
  tool: string,
  args: unknown,
  maxBytes: number,
): Promise<DiffPreview | undefined> {
  if (tool !== WRITE_FILE_TOOL_NAME && tool !== EDIT_FILE_TOOL_NAME) return undefined;
  const record = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const path = record.path;
  if (typeof path !== "string" || path === "") return { ok: false, message: "the call names no path" };
  try {
    const real = await fs.resolve(path, "write");
    const exists = await fs.exists(path);
    const before = exists ? await readText(fs, path) : "";
    if (before === undefined)
      return { ok: false, path, message: "the file is binary or too large to preview" };
    const after =
      tool === WRITE_FILE_TOOL_NAME ? writtenContent(record) : editedContent(before, record, exists);
    if (typeof after !== "string") return { ok: false, path, ...after };
    const diff = unifiedDiff(fs.displayPath(real), before, after);
    return { ok: true, path, ...cutAtLine(diff, maxBytes), newFile: !exists };
  } catch (error) {
    const message =
      error instanceof ScopeError
        ? `the call will be refused: ${error.message}`
        : `cannot preview: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, path, message };
  }
}

function writtenContent(args: Record<string, unknown>): string | { message: string } {
  return typeof args.content === "string" ? args.content : { message: "the call has no content" };
}

/** The file after the edit, done as the tool does it; or why the tool will refuse it. */
function editedContent(
  before: string,
  args: Record<string, unknown>,
  exists: boolean,
): string | { message: string } {
  if (!exists) return { message: "the file does not exist: the edit will fail" };
  const { old_string: oldString, new_string: newString } = args;
  if (typeof oldString !== "string" || typeof newString !== "string" || oldString === "") {
    return { message: "the call lacks old_string or new_string" };
  }
  const replaced = replaceExact(before, oldString, newString, args.replace_all === true);
  switch (replaced.kind) {
    case "replaced":
      return replaced.text;
    case "not-found":
      return { message: "old_string is not in the file: the edit will fail" };
    case "ambiguous":
      return {
        message: `old_string occurs ${replaced.count} times and replace_all is not set: the edit will fail`,
      };
  }
}

async function readText(fs: ScopedFs, path: string): Promise<string | undefined> {
  const { bytes, totalBytes } = await fs.readFilePrefix(path, READ_MAX_FILE_BYTES);
  if (totalBytes > READ_MAX_FILE_BYTES || isBinary(bytes)) return undefined;
  return bytes.toString("utf8");
}

/** Whole lines only, so a long preview stays a readable (if incomplete) diff. */
function cutAtLine(diff: string, maxBytes: number): { diff: string; truncated: boolean } {
  if (Buffer.byteLength(diff) <= maxBytes) return { diff, truncated: false };
  const kept: string[] = [];
  let bytes = 0;
  for (const line of diff.split("\n")) {
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > maxBytes) break;
    kept.push(line);
  }
  return { diff: kept.join("\n"), truncated: true };
}
