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
