import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { requireFreshRead } from "./change-guard.js";
import type { ReadTracker } from "./read-tracker.js";
import { countLines, plural } from "./text-file.js";
import { attempt, fileError, isNotFound } from "./tool-error.js";
import { unifiedDiff } from "./unified-diff.js";

export const WRITE_FILE_TOOL_NAME = "write_file";

const writeFileInput = z.object({
  path: z.string().min(1).describe("The file to write, relative to the project root or absolute"),
  content: z.string().describe("The whole new content of the file"),
});

export type WriteFileArguments = z.output<typeof writeFileInput>;

export interface WriteFileToolOptions {
  tracker: ReadTracker;
}

/**
 * `write_file`: creates a file, or replaces one whole. Replacing an existing file is refused
 * unless the model has read it in this session and it has not changed since (as Claude Code
 * does): a model that never looked at a file must not wipe it out with its guess of what it holds.
 * Creating a new file needs no read. The write is atomic (ScopedFs); the result of a replacement
 * shows the unified diff, so the model sees what it removed.
 */
export function createWriteFileTool(fs: ScopedFs, options: WriteFileToolOptions): Tool<WriteFileArguments> {
  return tool({
    name: WRITE_FILE_TOOL_NAME,
    description: [
      "Create a file, or replace a file's whole content. Missing parent directories are created.",
      "To replace an existing file you must have read it with read_file in this session, and it must not have changed since; prefer edit_file to change part of a file.",
      "The result of a replacement shows the unified diff.",
    ].join(" "),
    input: writeFileInput,
    async execute({ path, content }) {
      const target = await attempt(fs.resolve(path, "write"), path);
      const previous = await fs.readFileBytes(path).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw fileError(error, path);
      });
      const displayPath = fs.displayPath(target);
      if (previous !== undefined) {
        requireFreshRead(options.tracker, target, previous, displayPath, "replace it");
      }
      const written = await attempt(fs.writeFile(path, content), path);
      options.tracker.record(written, content);
      const size = `${plural(countLines(content), "line")}, ${plural(Buffer.byteLength(content), "byte")}`;
      if (previous === undefined) return `Created ${displayPath} (${size}).`;
      const diff = unifiedDiff(displayPath, previous.toString("utf8"), content);
      return diff === ""
        ? `Rewrote ${displayPath} with the same content (${size}).`
        : `Replaced ${displayPath} (${size}).\n\n${diff}`;
    },
  });
}
