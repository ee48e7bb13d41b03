import type { Tool } from "@yoake/llm-worker";
import type { Manifest } from "./manifest/resolve.js";
import type { ScopedFs } from "./scope/scoped-fs.js";
import { createBashTools } from "./shell/bash-tool.js";
import type { Shell } from "./shell/shell.js";
import { createFileTools } from "./tools/index.js";
import type { ReadTracker } from "./tools/read-tracker.js";

/**
 * The built-in tools the manifest offers the model: the file tools, capped at
 * `limits.tool_output_bytes` and sharing the session's `tracker`, and `bash` / `bash_output` when
 * the Pod has a shell; all of them but `tools.disable`.
 */
export function podTools(fs: ScopedFs, manifest: Manifest, tracker: ReadTracker, shell?: Shell): Tool[] {
  const disabled = new Set(manifest.tools.disable);
  return [
    ...createFileTools(fs, { tracker, maxBytes: manifest.limits.toolOutputBytes }),
    ...(shell === undefined ? [] : createBashTools(shell)),
  ].filter((tool) => !disabled.has(tool.name));
}
