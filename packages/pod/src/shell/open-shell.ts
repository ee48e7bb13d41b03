import type { Manifest } from "../manifest/resolve.js";
import { BASH_TOOL_NAME } from "./bash-tool.js";
import { commandEnv } from "./command-env.js";
import { probeCommandSandbox } from "./command-sandbox.js";
import type { SandboxStatus } from "./sandbox.js";
import { Shell } from "./shell.js";

/** The Pod's shell, or why there is none; `warnings` are for the user, one line each. */
export interface OpenedShell {
  shell?: Shell;
  warnings: string[];
  /** What the probe found (the hooks run in this sandbox, read-only); absent when nothing was probed. */
  status?: SandboxStatus;
}

/**
 * Probes the sandbox once and builds the Pod's shell from the manifest. `hidden` lists
 * directories (absolute) the embedder keeps from every command besides the session's socket
 * directories (`PodOptions.shellHide`). Without a working sandbox the shell runs commands
 * unconfined, which the approvals then ask about one by one, or there is no shell at all
 * (`[shell] unsandboxed = "off"`); either way the user is told why, with the fix.
 * A manifest that disables the `bash` tool gets no shell and no probe.
 */
export async function openShell(
  manifest: Manifest,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  hidden: readonly string[] = [],
): Promise<OpenedShell> {
  if (manifest.tools.disable.includes(BASH_TOOL_NAME)) return { warnings: [] };
  const settings = manifest.shell;
  const warnings: string[] = [];
  const { env: shellEnv, refused } = commandEnv(env, settings.env, manifest.model.apiKeyEnv);
  if (refused.length > 0)
    warnings.push(`shell.env: ${refused.join(", ")} not passed to commands (provider keys never are)`);
  const status = await probeCommandSandbox(manifest, env, hidden);
  if (!status.ok) {
    const then =
      settings.unsandboxed === "off"
        ? "the bash tool is off"
        : "every bash command will ask for approval, unsandboxed";
    warnings.push(`no sandbox for commands: ${status.reason}; ${then}. Fix: ${status.fix}`);
    if (settings.unsandboxed === "off") return { warnings, status };
  }
  const shell = new Shell({ root: manifest.projectRoot, cwd, settings, status, env: shellEnv });
  return { shell, warnings, status };
}
