import type { Item } from "@yoake/llm-worker";
import { resolveFileRef } from "../file-ref/resolver.js";
import type { Segment } from "../file-ref/segments.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import type { ReadTracker } from "../tools/read-tracker.js";
import type { Alert } from "./alert.js";

/** The files a prompt's references attach: their items, and the paths attached (others stay placeholders). */
export interface AttachedFiles {
  items: Item[];
  attached: Set<string>;
}

/**
 * Resolves each distinct `@<path>` reference of a prompt, in order of appearance, through the
 * Pod's `ScopedFs`. A whole file counts as read (the model may edit it without `read_file`); a
 * reference that cannot be attached (out of scope, missing, binary) becomes a warning alert.
 */
export async function attachFileRefs(
  fs: ScopedFs,
  segments: readonly Segment[],
  maxBytes: number,
  readTracker: ReadTracker,
  alert: (alert: Alert) => void,
): Promise<AttachedFiles> {
  const items: Item[] = [];
  const seen = new Set<string>();
  const attached = new Set<string>();
  for (const segment of segments) {
    if (segment.type !== "file_ref" || seen.has(segment.path)) continue;
    seen.add(segment.path);
    const resolved = await resolveFileRef(fs, segment.path, maxBytes);
    if (resolved.ok) {
      items.push(resolved.item);
      attached.add(segment.path);
      if (resolved.wholeFile) readTracker.record(resolved.wholeFile.realPath, resolved.wholeFile.bytes);
    } else alert({ level: "warn", message: resolved.message, source: "file_ref" });
  }
  return { items, attached };
}
