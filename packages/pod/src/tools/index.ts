import type { Tool } from "@yoake/llm-worker";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { createEditFileTool } from "./edit-file.js";
import { createGlobTool } from "./glob.js";
import { createGrepTool, type GrepToolOptions } from "./grep.js";
import { createReadFileTool } from "./read-file.js";
import { ReadTracker } from "./read-tracker.js";
import { createWriteFileTool } from "./write-file.js";

export interface FileToolsOptions {
  /** The session's record of files read (default: a new one, private to these tools). */
  tracker?: ReadTracker;
  /** `read_file`'s cap in UTF-8 bytes: the manifest's `limits.tool_output_bytes` (default `TOOL_OUTPUT_MAX_BYTES`). */
  maxBytes?: number;
  /** Which engine `grep` uses (default: ripgrep when installed, else the JS one). */
  grepEngine?: GrepToolOptions["engine"];
}

/**
 * The Pod's file tools, every one confined to `fs`: `read_file`, `write_file`, `edit_file`,
 * `glob` and `grep`. They share one ReadTracker, so an edit sees the reads of this session; pass
 * the tracker in to share it with anything else that shows the model whole files.
 */
export function createFileTools(fs: ScopedFs, options: FileToolsOptions = {}): Tool[] {
  const tracker = options.tracker ?? new ReadTracker();
  const tools = [
    createReadFileTool(fs, {
      tracker,
      ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
    }),
    createWriteFileTool(fs, { tracker }),
    createEditFileTool(fs, { tracker }),
    createGlobTool(fs),
    createGrepTool(fs, options.grepEngine === undefined ? {} : { engine: options.grepEngine }),
  ];
  return tools as Tool[];
}

export { EDIT_FILE_TOOL_NAME, type EditFileArguments, type Replacement, replaceExact } from "./edit-file.js";
export { FILE_TYPES } from "./file-types.js";
export { GLOB_TOOL_NAME, type GlobArguments } from "./glob.js";
export { GREP_TOOL_NAME, type GrepArguments, type GrepToolOptions } from "./grep.js";
export type { GrepOutputMode } from "./grep-query.js";
export * from "./limits.js";
export { numberedLines, READ_FILE_TOOL_NAME, type ReadFileArguments } from "./read-file.js";
export { contentHash, type ReadCheck, ReadTracker } from "./read-tracker.js";
export { unifiedDiff } from "./unified-diff.js";
export { WRITE_FILE_TOOL_NAME, type WriteFileArguments } from "./write-file.js";
export { createEditFileTool, createGlobTool, createGrepTool, createReadFileTool, createWriteFileTool };
