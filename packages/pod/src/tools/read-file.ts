import { imageOutput, inline, type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import { IMAGE_LIMIT_BYTES, imagePartOf, imageTooLarge, sniffImageType } from "../file-ref/image-file.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { READ_MAX_FILE_BYTES, READ_MAX_LINE_CHARS, TOOL_OUTPUT_MAX_BYTES } from "./limits.js";
import type { ReadTracker } from "./read-tracker.js";
import { countLines, cutLine, formatBytes, isBinary, withoutCr } from "./text-file.js";
import { attempt } from "./tool-error.js";

export const READ_FILE_TOOL_NAME = "read_file";

const readFileInput = z.object({
  path: z.string().min(1).describe("The file to read, relative to the project root or absolute"),
  offset: z.number().int().min(1).optional().describe("The line number to start from (1-based; default 1)"),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("How many lines to show at most (default: as many as fit the size cap)"),
});

export type ReadFileArguments = z.output<typeof readFileInput>;

export interface ReadFileToolOptions {
  tracker: ReadTracker;
  /** The cap on what one call returns, in UTF-8 bytes (default `TOOL_OUTPUT_MAX_BYTES`). */
  maxBytes?: number;
}

/**
 * `read_file`: a text file's lines, numbered. Returns Inline text (never a blob: the model asked
 * for this file, it must see it), bounded by its own cap with a notice of the total and of the
 * `offset` to read on from. Records the read in the session's ReadTracker, so that the file may
 * then be edited. An image (PNG, JPEG, GIF, WebP by its magic bytes) up to `IMAGE_LIMIT_BYTES`
 * comes back as an image the model sees, with one line naming it.
 */
export function createReadFileTool(fs: ScopedFs, options: ReadFileToolOptions): Tool<ReadFileArguments> {
  const maxBytes = options.maxBytes ?? TOOL_OUTPUT_MAX_BYTES;
  return tool({
    name: READ_FILE_TOOL_NAME,
    description: describeReadFile(maxBytes),
    input: readFileInput,
    async execute({ path, offset, limit }) {
      const info = await attempt(fs.stat(path), path);
      if (info.type === "directory") {
        throw new Error(`${JSON.stringify(path)} is a directory, not a file (list its files with glob)`);
      }
      if (info.size > READ_MAX_FILE_BYTES) {
        throw new Error(
          `${JSON.stringify(path)} is ${info.size} bytes, more than read_file opens (${formatBytes(READ_MAX_FILE_BYTES)}); search it with grep instead`,
        );
      }
      const bytes = await attempt(fs.readFileBytes(path), path);
      const mediaType = sniffImageType(bytes);
      if (mediaType !== undefined) {
        const shown = fs.displayPath(info.realPath);
        if (bytes.length > IMAGE_LIMIT_BYTES) throw new Error(imageTooLarge(shown, bytes.length));
        return imageOutput(
          [imagePartOf(mediaType, bytes)],
          `[Image: ${shown}, ${mediaType}, ${formatBytes(bytes.length)}]`,
        );
      }
      if (isBinary(bytes)) {
        throw new Error(
          `${JSON.stringify(path)} is a binary file (${bytes.length} bytes, not UTF-8 text); read_file shows text files only`,
        );
      }
      options.tracker.record(info.realPath, bytes);
      return inline(
        numberedLines(bytes.toString("utf8"), {
          offset: offset ?? 1,
          ...(limit !== undefined && { limit }),
          maxBytes,
          totalBytes: bytes.length,
          displayPath: fs.displayPath(info.realPath),
        }),
      );
    },
  });
}

function describeReadFile(maxBytes: number): string {
  return [
    "Read a text file. Each line is shown as its line number, a tab, then the line (the number and tab are not part of the file).",
    `At most ${formatBytes(maxBytes)} are returned per call: a longer file ends with a notice giving the total line count and the offset to continue from; use offset and limit to read any part.`,
    `Lines longer than ${READ_MAX_LINE_CHARS} characters are cut. Files over ${formatBytes(READ_MAX_FILE_BYTES)} and binary (non UTF-8) files are refused.`,
    `Images (PNG, JPEG, GIF, WebP) up to ${formatBytes(IMAGE_LIMIT_BYTES)} are shown to you as images.`,
    "Reading a file is required before edit_file, or before write_file replaces it.",
  ].join(" ");
}

export interface NumberedLinesOptions {
  /** The first line to show, 1-based. */
  offset: number;
  limit?: number;
  maxBytes: number;
  /** The file's size, quoted in the truncation notice. */
  totalBytes: number;
  displayPath: string;
}

/** Bytes of a numbered line beyond its text: the padded number, the tab and the newline. */
const LINE_PREFIX_BYTES = 8;
/** Room for the cut marker, so that even a cut first line fits a small cap. */
const CUT_MARKER_BYTES = 48;

/**
 * Lines `offset`… of `text`, numbered like `cat -n`, as many as `limit` allows and `maxBytes`
 * holds (always at least one), then a notice when the file goes on. Walks the text with `indexOf`
 * from the offset on, so a small window of a large file costs no split of the whole file.
 */
export function numberedLines(text: string, options: NumberedLinesOptions): string {
  const body = text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  const totalLines = countLines(body);
  if (totalLines === 0) return `[${options.displayPath} is empty]`;
  const { offset, maxBytes } = options;
  if (offset > totalLines) {
    throw new Error(
      `offset ${offset} is past the end of ${JSON.stringify(options.displayPath)}, which has ${totalLines} lines`,
    );
  }
  const lastWanted = Math.min(totalLines, offset + (options.limit ?? totalLines) - 1);
  // Every UTF-16 unit is at most 3 UTF-8 bytes: a line cut to this many units always fits the cap.
  const maxChars = Math.max(
    1,
    Math.min(READ_MAX_LINE_CHARS, Math.floor((maxBytes - LINE_PREFIX_BYTES - CUT_MARKER_BYTES) / 3)),
  );

  let position = 0;
  for (let line = 1; line < offset; line += 1) position = body.indexOf("\n", position) + 1;

  const shown: string[] = [];
  let bytes = 0;
  let line = offset;
  for (; line <= lastWanted; line += 1) {
    const newline = body.indexOf("\n", position);
    const end = newline === -1 ? body.length : newline;
    const entry = `${String(line).padStart(6)}\t${cutLine(withoutCr(body.slice(position, end)), maxChars)}`;
    const size = Buffer.byteLength(entry, "utf8") + 1;
    if (bytes + size > maxBytes && shown.length > 0) break;
    shown.push(entry);
    bytes += size;
    position = end + 1;
  }
  const lastShown = line - 1;
  if (lastShown >= totalLines) return shown.join("\n");

  const range = `lines ${offset}–${lastShown} of ${totalLines}`;
  const readOn = `Call read_file with offset=${lastShown + 1} to read on.`;
  const notice =
    lastShown < lastWanted
      ? `[...truncated at the ${formatBytes(maxBytes)} cap: showing ${range} (the file is ${options.totalBytes} bytes). ${readOn}]`
      : `[showing ${range}. ${readOn}]`;
  return `${shown.join("\n")}\n\n${notice}`;
}

const BYTE_ORDER_MARK = 0xfeff;
