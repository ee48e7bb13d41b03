import type { Manifest } from "../manifest/resolve.js";
import { BASH_TOOL_NAME } from "./bash-tool.js";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { commandEnv } from "./command-env.js";
import { probeCommandSandbox, type ShellConfinement } from "./command-sandbox.js";
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
 * Probes the sandbox once and builds the Pod's shell from the manifest, narrowed by
 * `confinement`. Without a working sandbox the shell runs commands
 * unconfined, which the approvals then ask about one by one, or there is no shell at all
 * (`[shell] unsandboxed = "off"`); either way the user is told why, with the fix.
 * A manifest that disables the `bash` tool gets no shell and no probe.
 *
 * A sub-agent's shell (`confinement.scope`) is confined to that scope, narrower than
 * the manifest's (read-only unless the child may write), and exists only in the sandbox: an
 * unconfined command could write whatever the user can, and a child cannot ask for approvals.
 */
export async function openShell(
  manifest: Manifest,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  confinement: ShellConfinement = {},
): Promise<OpenedShell> {
  if (manifest.tools.disable.includes(BASH_TOOL_NAME)) return { warnings: [] };
  const settings = manifest.shell;
  const warnings: string[] = [];
  const { env: shellEnv, refused } = commandEnv(env, settings.env, manifest.model.apiKeyEnv);
  if (refused.length > 0)
    warnings.push(`shell.env: ${refused.join(", ")} not passed to commands (provider keys never are)`);
  const status = await probeCommandSandbox(manifest, env, confinement);
  if (!status.ok) {
    const off = settings.unsandboxed === "off" || confinement.scope !== undefined;
    const then = off
      ? `the bash tool is off${confinement.scope === undefined ? "" : " for this sub-agent"}`
      : "every bash command will ask for approval, unsandboxed";
    warnings.push(`no sandbox for commands: ${status.reason}; ${then}. Fix: ${status.fix}`);
    if (off) return { warnings, status };
  }
  if (status.ok && status.sandbox instanceof BubblewrapSandbox && !status.sandbox.filtered)
    warnings.push(
      `no seccomp filter for ${process.arch}: sandboxed commands can set setuid/setgid bits on the files they write`,
    );
  const shell = new Shell({ root: manifest.projectRoot, cwd, settings, status, env: shellEnv });
  return { shell, warnings, status };
}
