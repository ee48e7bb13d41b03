import path from "node:path";
import type { MessageItem } from "@yoake/llm-worker";
import { resolveFileRef } from "../file-ref/resolver.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import type { ReadTracker } from "../tools/read-tracker.js";

/** The files a compaction read again, and those it left out. */
export interface AutoRead {
  /** One `[File: <path>]` system message per file, in the order the files were last read. */
  items: MessageItem[];
  /** Paths (as shown to the model) read again. */
  paths: string[];
  /** Paths left out: over the budget, gone, out of scope now, or binary. */
  skipped: string[];
}

/**
 * Reads again, as the file reference resolver does (`[File: <path>]\n<body>`, each capped at
 * `maxFileBytes`), the files the agent has read, so the new session starts with them as they are
 * now. Newest reads come first while `budgetBytes` lasts; the messages keep reading order, so the
 * file read last is the nearest to the conversation. A file the model now sees whole is recorded
 * in the tracker again (its content may have changed since the first read).
 */
export async function rereadFiles(
  fs: ScopedFs,
  tracker: ReadTracker,
  options: { budgetBytes: number; maxFileBytes: number },
): Promise<AutoRead> {
  const newestFirst = tracker.paths().reverse();
  const chosen: Array<{ item: MessageItem; shown: string; whole?: { realPath: string; bytes: Uint8Array } }> =
    [];
  const skipped: string[] = [];
  let used = 0;
  for (const realPath of newestFirst) {
    const shown = displayPath(fs.root, realPath);
    if (used >= options.budgetBytes) {
      skipped.push(shown);
      continue;
    }
    const resolved = await resolveFileRef(fs, shown, options.maxFileBytes);
    if (!resolved.ok) {
      skipped.push(shown);
      tracker.forget(realPath);
      continue;
    }
    const size = Buffer.byteLength(resolved.item.text);
    if (used + size > options.budgetBytes) {
      skipped.push(shown);
      continue;
    }
    used += size;
    chosen.push({ item: resolved.item, shown, ...(resolved.wholeFile && { whole: resolved.wholeFile }) });
  }
  chosen.reverse();
  // In reading order, so the tracker's order (its idea of "newest") stays what it was.
  for (const { whole } of chosen) if (whole) tracker.record(whole.realPath, whole.bytes);
  return { items: chosen.map((file) => file.item), paths: chosen.map((file) => file.shown), skipped };
}

/** Relative to the project root when inside it (as the model wrote it), else absolute. */
function displayPath(root: string, realPath: string): string {
  const relative = path.relative(root, realPath);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? realPath : relative;
}
