import path from "node:path";
import type { Manifest } from "../manifest/resolve.js";
import { podSocketPath } from "../protocol/socket-path.js";
import { BASH_TOOL_NAME } from "./bash-tool.js";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { commandEnv } from "./command-env.js";
import type { SandboxStatus } from "./sandbox.js";
import { probeSandbox } from "./sandbox-probe.js";
import { Shell } from "./shell.js";

/** The Pod's shell, or why there is none; `warnings` are for the user, one line each. */
export interface OpenedShell {
  shell?: Shell;
  warnings: string[];
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
  const hide = [path.dirname(podSocketPath(manifest.projectRoot, env))];
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir !== undefined && path.isAbsolute(runtimeDir)) hide.push(runtimeDir);
  hide.push(...hidden);
  const status: SandboxStatus = settings.sandbox
    ? await probeSandbox(manifest.scope, { network: settings.network, hide, limits: settings.limits }, env)
    : {
        ok: false,
        reason: `the manifest turned it off (shell.sandbox = false, from ${manifest.keySources["shell.sandbox"]})`,
        fix: "remove shell.sandbox = false",
      };
  if (!status.ok) {
    const then =
      settings.unsandboxed === "off"
        ? "the bash tool is off"
        : "every bash command will ask for approval, unsandboxed";
    warnings.push(`no sandbox for commands: ${status.reason}; ${then}. Fix: ${status.fix}`);
    if (settings.unsandboxed === "off") return { warnings };
  }
  if (status.ok && status.sandbox instanceof BubblewrapSandbox && !status.sandbox.filtered)
    warnings.push(
      `no seccomp filter for ${process.arch}: sandboxed commands can set setuid/setgid bits on the files they write`,
    );
  const shell = new Shell({ root: manifest.projectRoot, cwd, settings, status, env: shellEnv });
  return { shell, warnings };
}
