import { type Stats, statSync } from "node:fs";
import { errorMessage } from "@yoake/llm-worker/internal";
import type { PodOptions } from "@yoake/pod";
import { CliError } from "./cli-error.js";
import { manifestOverrides, type OverrideOptions } from "./manifest-overrides.js";

/** The command-line options that shape a Pod as it opens (`yoake`, `yoake -p`, `yoake serve`). */
export interface PodShapingOptions extends OverrideOptions {
  continue?: boolean;
  resume?: string;
  /** `--trust-project`: apply the project's manifest whole, and remember that it is trusted. */
  trustProject?: boolean;
}

/**
 * The Pod's options from the command line: the overrides layer, the session (`--continue`: the
 * project's latest; `--resume <id>`: that one, or an unambiguous prefix) and the project's trust.
 * Both session options at once are a `CliError`.
 */
export function commandPodOptions(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  options: PodShapingOptions,
): PodOptions {
  if (options.continue === true && options.resume !== undefined)
    throw new CliError("--continue and --resume exclude each other: give one");
  const session = options.continue === true ? "latest" : options.resume;
  return {
    cwd,
    env,
    overrides: manifestOverrides(options, cwd),
    ...(session !== undefined && { session }),
    ...(options.trustProject === true && { projectTrust: "trust" as const }),
  };
}

/** `--cwd` names a directory that exists: a typo must not create one (the Pod would, for its state). */
export function checkWorkingDirectory(given: string, resolved: string): void {
  let stats: Stats;
  try {
    stats = statSync(resolved);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new CliError(`--cwd ${given}: no such directory`);
    throw new CliError(`--cwd ${given}: ${errorMessage(error)}`);
  }
  if (!stats.isDirectory()) throw new CliError(`--cwd ${given}: not a directory`);
}
