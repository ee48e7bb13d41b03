import { type MessageItem, systemMessage, userMessage } from "@yoake/llm-worker";
import { DEFAULT_TOOL_OUTPUT_BYTES } from "../manifest/defaults.js";
import { ScopeError } from "../scope/scope-error.js";
import type { DirEntry, ScopedFs } from "../scope/scoped-fs.js";
import {
  IMAGE_LIMIT_BYTES,
  IMAGE_SNIFF_BYTES,
  imagePartOf,
  imageTooLarge,
  sniffImageType,
} from "./image-file.js";
import { decodeUtf8Text } from "./utf8-text.js";

/** Why a file reference gave no system message. */
export type FileRefFailure = "out_of_scope" | "not_found" | "binary" | "too_large" | "io";

/**
 * A resolved reference (one system message for history) or why there is none. `wholeFile` is set
 * when the message holds a whole file: the model has then seen it as it is, which the file tools'
 * ReadTracker may record as a read.
 */
export type FileRefResolution =
  | {
      ok: true;
      item: MessageItem;
      truncated: boolean;
      wholeFile?: { realPath: string; bytes: Uint8Array };
    }
  | { ok: false; reason: FileRefFailure; message: string };

/** A directory reference lists at most this many entries. */
export const MAX_LISTED_ENTRIES = 200;

/**
 * Reads one `@<path>` reference through the scope (seed 004): a UTF-8 file becomes
 * `[File: <path>]\n<body>`, cut after `maxBytes` bytes of body (never inside a character) with
 * `[...truncated, <total> bytes total — use read_file for the rest]`; a directory becomes a
 * bounded listing of the entries the scope lets the model read. An image (PNG, JPEG, GIF or WebP,
 * told by its magic bytes) becomes a user message `[Image: <path>]` carrying it, up to
 * `IMAGE_LIMIT_BYTES` (a system message cannot carry images). Nothing is thrown: every failure
 * comes back with its reason and a sentence for the user.
 */
export async function resolveFileRef(
  fs: ScopedFs,
  path: string,
  maxBytes: number = DEFAULT_TOOL_OUTPUT_BYTES,
): Promise<FileRefResolution> {
  try {
    const info = await fs.stat(path);
    if (info.type === "directory") {
      const entries = await fs.readdir(path);
      return { ok: true, item: systemMessage(directoryListing(path, entries, maxBytes)), truncated: false };
    }
    if (info.type !== "file") return failure("io", path, "it is not a regular file");
    const image = await resolveImage(fs, path);
    if (image !== undefined) return image;
    const { bytes, totalBytes } = await fs.readFilePrefix(path, maxBytes);
    const truncated = totalBytes > bytes.length;
    const body = decodeUtf8Text(bytes, truncated);
    if (body === undefined) return failure("binary", path, "it is a binary file (not UTF-8 text)");
    const notice = truncated
      ? `\n[...truncated, ${totalBytes} bytes total — use read_file for the rest]`
      : "";
    const item = systemMessage(`[File: ${path}]\n${body}${notice}`);
    if (truncated) return { ok: true, item, truncated };
    return { ok: true, item, truncated, wholeFile: { realPath: info.realPath, bytes } };
  } catch (error) {
    return classify(path, error);
  }
}

/** The file as an image attachment, or `undefined` when it is not an image. */
async function resolveImage(fs: ScopedFs, path: string): Promise<FileRefResolution | undefined> {
  const head = await fs.readFilePrefix(path, IMAGE_SNIFF_BYTES);
  const mediaType = sniffImageType(head.bytes);
  if (mediaType === undefined) return undefined;
  // Read twice (the head, then the whole): a file that grew past the limit in between is refused too.
  const whole = head.totalBytes > IMAGE_LIMIT_BYTES ? head : await fs.readFilePrefix(path, IMAGE_LIMIT_BYTES);
  if (whole.totalBytes > IMAGE_LIMIT_BYTES)
    return {
      ok: false,
      reason: "too_large",
      message: `could not attach @${imageTooLarge(path, whole.totalBytes)}`,
    };
  const bytes = whole.bytes;
  return {
    ok: true,
    item: userMessage(`[Image: ${path}]`, [imagePartOf(mediaType, bytes)]),
    truncated: false,
  };
}

function classify(path: string, error: unknown): FileRefResolution {
  if (error instanceof ScopeError) return failure("out_of_scope", path, error.message);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return failure("not_found", path, "no such file or directory");
  if (code === "ELOOP") return failure("not_found", path, "it is a symbolic link loop");
  return failure("io", path, error instanceof Error ? error.message : String(error));
}

function failure(reason: FileRefFailure, path: string, why: string): FileRefResolution {
  return { ok: false, reason, message: `could not attach @${path}: ${why}` };
}

/**
 * `[Directory: <path>]` and one entry a line (directories end in `/`), bounded in count and in
 * bytes like a file body; what is left out is counted, with how to see it.
 */
function directoryListing(path: string, entries: readonly DirEntry[], maxBytes: number): string {
  const lines: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (lines.length >= MAX_LISTED_ENTRIES) break;
    const line = entry.type === "directory" ? `${entry.name}/` : entry.name;
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > maxBytes) break;
    lines.push(line);
    bytes += size;
  }
  const omitted = entries.length - lines.length;
  if (entries.length === 0) lines.push("(empty)");
  if (omitted > 0) lines.push(`[...${omitted} more entries — use glob to list them]`);
  return `[Directory: ${path}]\n${lines.join("\n")}`;
}
