import type { Tool } from "@yoake/llm-worker";
import type { Manifest } from "./manifest/resolve.js";
import type { ScopedFs } from "./scope/scoped-fs.js";
import { createFileTools } from "./tools/index.js";
import type { ReadTracker } from "./tools/read-tracker.js";

/**
 * The file tools the manifest offers the model: all of them but `tools.disable`, capped at
 * `limits.tool_output_bytes`, sharing the session's `tracker`.
 */
export function podTools(fs: ScopedFs, manifest: Manifest, tracker: ReadTracker): Tool[] {
  const disabled = new Set(manifest.tools.disable);
  return createFileTools(fs, { tracker, maxBytes: manifest.limits.toolOutputBytes }).filter(
    (tool) => !disabled.has(tool.name),
  );
}
