import path from "node:path";
import type { Manifest } from "../manifest/resolve.js";
import { podSocketPath } from "../protocol/socket-path.js";
import type { Scope } from "../scope/rules.js";
import { hostReads, NO_HOST_READS } from "./host-reads.js";
import type { SandboxStatus } from "./sandbox.js";
import { probeSandbox } from "./sandbox-probe.js";

/** What narrows a shell beyond the manifest. */
export interface ShellConfinement {
  /** Directories (absolute) hidden from every command besides the session's socket directories (`PodOptions.shellHide`). */
  hide?: readonly string[];
  /** A sub-agent's scope (see `childScope`), narrower than the manifest's. */
  scope?: Scope;
}

/**
 * The sandbox the manifest's commands run in, the `bash` tool's and (made read-only) the hooks',
 * or why there is none: probed with the manifest's scope (a sub-agent's own, when `confinement`
 * names one) and `[shell]` settings, the directories of the user's session sockets hidden, and
 * `confinement.hide`. `[shell] sandbox = false` is a status too, never a probe. Never throws.
 */
export async function probeCommandSandbox(
  manifest: Manifest,
  env: Readonly<Record<string, string | undefined>>,
  confinement: ShellConfinement = {},
): Promise<SandboxStatus> {
  const settings = manifest.shell;
  if (!settings.sandbox)
    return {
      ok: false,
      reason: `the manifest turned it off (shell.sandbox = false, from ${manifest.keySources["shell.sandbox"]})`,
      fix: "remove shell.sandbox = false",
    };
  const hide = [path.dirname(podSocketPath(manifest.projectRoot, env))];
  const runtimeDir = env.XDG_RUNTIME_DIR;
  if (runtimeDir !== undefined && path.isAbsolute(runtimeDir)) hide.push(runtimeDir);
  hide.push(...(confinement.hide ?? []));
  const reads = await hostReads(manifest.projectRoot, settings.reveal, env);
  return probeSandbox(
    confinement.scope ?? manifest.scope,
    { network: settings.network, hide, reads, limits: settings.limits },
    env,
  );
}

/**
 * Why no command can be sandboxed here at all (no bubblewrap, no user namespaces, another
 * platform), found before any manifest is read: what the trust prompt says of a project's hooks,
 * which would then run on the host. Undefined when a sandbox works. The probe's answer is kept for
 * the process, so the Pod's own probe that follows does not run bwrap again.
 */
export async function whyNoSandboxHere(
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  // Rooted at "/": a project under /tmp would be behind the sandbox's private /tmp, and this scope
  // has no rule to show it again.
  const status = await probeSandbox(
    { root: "/", allow: [], deny: [] },
    { network: false, hide: [], reads: NO_HOST_READS },
    env,
  );
  return status.ok ? undefined : status.reason;
}
