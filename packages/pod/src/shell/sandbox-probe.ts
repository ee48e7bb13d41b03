import { access, constants, readFile } from "node:fs/promises";
import path from "node:path";
import type { Scope } from "../scope/rules.js";
import { BubblewrapSandbox, type ConfinementOptions } from "./bubblewrap.js";
import type { SandboxStatus } from "./sandbox.js";
import { SANDBOX_EXEC_PATH, SeatbeltSandbox } from "./seatbelt.js";
import { type ShellLaunch, ShellProcess } from "./shell-process.js";

/**
 * The bubblewrap binaries (and network settings) that have confined a probe in this process.
 * Whether the kernel lets bwrap create its namespaces does not change while the process runs, so
 * later Pods of the process (sub-agents, a server's or a fleet worker's Pods) skip the probe; a
 * bind that fails for one project's paths makes its commands fail, never run unconfined.
 */
const WORKING = new Set<string>();

/** A probe that has not answered by then counts as a failure. */
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Finds out once, when the Pod starts, whether commands can be confined here: runs the sandbox
 * with the same namespaces and mounts a command gets, around `true`. Never throws: a sandbox that
 * cannot work comes back as the reason and the fix, in words for the user.
 */
export async function probeSandbox(
  scope: Scope,
  options: ConfinementOptions,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxStatus> {
  if (platform === "darwin") return probeSeatbelt(scope, options);
  if (platform !== "linux")
    return {
      ok: false,
      reason: `there is no sandbox for commands on ${platform}`,
      fix: "run Yoake on Linux (bubblewrap) or macOS (sandbox-exec) to confine commands",
    };
  const bwrap = await findOnPath("bwrap", env.PATH ?? "");
  if (bwrap === undefined)
    return {
      ok: false,
      reason: "bubblewrap (bwrap) is not on PATH",
      fix: "install it: apt install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)",
    };
  const sandbox = new BubblewrapSandbox(bwrap, scope, options);
  const works = `${bwrap}\0${options.network}`;
  if (WORKING.has(works)) return { ok: true, sandbox };
  const launch = await sandbox.launch(["true"], scope.root, { PATH: env.PATH ?? "/usr/bin:/bin" });
  const failure = await runProbe(launch);
  await launch.settle?.();
  if (failure === undefined) {
    WORKING.add(works);
    return { ok: true, sandbox };
  }
  // --disable-userns and --size came with bubblewrap 0.8.0 (Ubuntu 22.04 ships 0.6); the bare
  // sandbox below has neither, so an old bwrap is named first.
  if (/unknown option/i.test(failure))
    return {
      ok: false,
      reason: `bubblewrap cannot create its sandbox: ${failure}`,
      fix: "upgrade bubblewrap to 0.8.0 or later (the sandbox needs --disable-userns and --size)",
    };
  // Namespaces, or the mounts of this scope? A bare sandbox tells which, so the fix names the cause.
  const bare = await runProbe({
    file: bwrap,
    args: [...BARE_SANDBOX, "true"],
    cwd: "/",
    env: { PATH: env.PATH ?? "/usr/bin:/bin" },
  });
  if (bare === undefined)
    return {
      ok: false,
      reason: `bubblewrap cannot set up the mounts of this project's sandbox: ${failure}`,
      fix: "the path it names cannot be mounted over as the scope asks (check it exists and is a plain directory or file), or report it as a Yoake bug with the line above",
    };
  return { ok: false, reason: `bubblewrap cannot create its sandbox: ${failure}`, fix: await namespaceFix() };
}

/** The namespaces a command gets, with no mount of the scope's: whether bubblewrap can work at all. */
const BARE_SANDBOX = ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent"];

async function probeSeatbelt(scope: Scope, options: ConfinementOptions): Promise<SandboxStatus> {
  const sandbox = new SeatbeltSandbox(scope, options);
  const launch = await sandbox.launch(["/usr/bin/true"], scope.root, { PATH: "/usr/bin:/bin" });
  const failure = await runProbe(launch);
  if (failure === undefined) return { ok: true, sandbox };
  return {
    ok: false,
    reason: `sandbox-exec (${SANDBOX_EXEC_PATH}) cannot confine commands: ${failure}`,
    fix: "check that sandbox-exec runs (it ships with macOS); a managed Mac may forbid it",
  };
}

/**
 * Undefined when the probe ran; else its failure, in one line. Started as commands are (a
 * ShellProcess), so what the launch feeds the sandbox (the seccomp filter) is part of the probe.
 */
async function runProbe(launch: ShellLaunch): Promise<string | undefined> {
  const probe = new ShellProcess(launch, { headBytes: 0, tailBytes: 4096 });
  const timer = setTimeout(() => probe.kill("timeout"), PROBE_TIMEOUT_MS);
  const end = await probe.done;
  clearTimeout(timer);
  if (end.kind === "exited" && end.code === 0) return undefined;
  const said = probe.output.since(0).trim().split("\n").at(-1);
  if (said !== undefined && said !== "") return said;
  switch (end.kind) {
    case "exited":
      return `exit code ${end.code}`;
    case "signaled":
      return `ended by signal ${end.signal}`;
    case "killed":
      return `no answer within ${PROBE_TIMEOUT_MS} ms`;
    case "spawn_failed":
      return end.message;
  }
}

/** What keeps unprivileged user namespaces from working here, as the sysctl that lifts it. */
async function namespaceFix(): Promise<string> {
  const read = (file: string): Promise<string | undefined> =>
    readFile(file, "utf8").then(
      (text) => text.trim(),
      () => undefined,
    );
  if ((await read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")) === "1")
    return "AppArmor restricts user namespaces: sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or give bwrap an AppArmor profile that allows userns";
  if ((await read("/proc/sys/kernel/unprivileged_userns_clone")) === "0")
    return "unprivileged user namespaces are off: sysctl -w kernel.unprivileged_userns_clone=1";
  if ((await read("/proc/sys/user/max_user_namespaces")) === "0")
    return "user namespaces are off: sysctl -w user.max_user_namespaces=15000";
  return 'in a container, allow user namespaces (e.g. docker run --security-opt seccomp=unconfined), or set [shell] unsandboxed = "off"';
}

/** The executable `name` in one of `searchPath`'s directories, as the shell would find it. */
export async function findOnPath(name: string, searchPath: string): Promise<string | undefined> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
