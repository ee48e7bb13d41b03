import path from "node:path";
import type { EffortLevel, ManifestLayerInput } from "@yoake/pod";

/** The command-line options that become the top layer of the manifest cascade. */
export interface OverrideOptions {
  /** `provider/model`, e.g. `openai/gpt-5`. */
  model?: string;
  maxTurns?: number;
  /** `--effort`: how hard the model thinks (the manifest's `generation.effort`). */
  effort?: EffortLevel;
  /** Paths the agent may read, beyond the manifest's scope. */
  allow?: readonly string[];
  /** Paths the agent may write (and read). */
  allowWrite?: readonly string[];
  /** Paths the agent may neither read nor write. */
  deny?: readonly string[];
  /** Paths the agent may read but not write. */
  denyWrite?: readonly string[];
  /** Approve every tool call: no tool needs the user's approval. */
  approveAll?: boolean;
}

/**
 * The overrides layer for `Pod.create`. Scope paths given on the command line are taken relative
 * to `baseDir` (the directory yoake works in), as a person typing them expects — a manifest's
 * relative paths are relative to the project root instead. `~/` is left to the manifest loader.
 * Scope rules add to the manifest's (allow and deny lists are unions; a deny always wins).
 */
export function manifestOverrides(options: OverrideOptions, baseDir: string): ManifestLayerInput {
  const layer: ManifestLayerInput = {};
  if (options.model !== undefined) layer.model = { ref: options.model };
  if (options.maxTurns !== undefined) layer.limits = { turns: options.maxTurns };
  if (options.effort !== undefined) layer.generation = { effort: options.effort };
  if (options.approveAll === true) {
    layer.tools = { approve: [] };
    // Commands without a sandbox and always-ask commands are allowed too.
    layer.shell = { ask: false };
  }
  const rule = (access: "read" | "write") => (given: string) => ({
    path: given.startsWith("~/") ? given : path.resolve(baseDir, given),
    access,
    recursive: true,
  });
  const allow = [
    ...(options.allow ?? []).map(rule("read")),
    ...(options.allowWrite ?? []).map(rule("write")),
  ];
  const deny = [...(options.deny ?? []).map(rule("read")), ...(options.denyWrite ?? []).map(rule("write"))];
  if (allow.length > 0 || deny.length > 0) {
    layer.scope = {};
    if (allow.length > 0) layer.scope.allow = allow;
    if (deny.length > 0) layer.scope.deny = deny;
  }
  return layer;
}
