import path from "node:path";
import { canonicalize } from "../scope/canonical-path.js";
import { pathCovers, type Scope } from "../scope/rules.js";
import { type ConfinementOptions, PROTECTED_NAMES } from "./bubblewrap.js";
import type { Sandbox } from "./sandbox.js";
import type { ShellLaunch } from "./shell-process.js";

export const SANDBOX_EXEC_PATH = "/usr/bin/sandbox-exec";

/**
 * The macOS profile for a scope (Seatbelt's SBPL), the same policy as the bubblewrap mounts:
 * everything readable, writes only under recursive write rules and the temporary directories,
 * `.git` and `.yoake` never written, deny-read rules neither read nor written, no network unless
 * `network`, no signals to processes outside the sandbox. Later rules win in SBPL, so the denials
 * come after the grants. Written from Apple's sandbox documentation and not tested on this
 * project's CI (which runs Linux): the probe at Pod start is what stands behind it.
 */
export async function compileSeatbeltProfile(scope: Scope, options: ConfinementOptions): Promise<string> {
  const root = (await canonicalize(path.resolve(scope.root))).real;
  const real = async (p: string): Promise<string> => (await canonicalize(path.resolve(root, p))).real;
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)"];
  const writable: string[] = [];
  for (const rule of scope.allow) {
    if (rule.access !== "write" || !rule.recursive) continue;
    writable.push(await real(rule.path));
  }
  lines.push(
    `(allow file-write* ${[...writable.map(subpath), subpath("/private/tmp"), subpath("/private/var/folders"), literal("/dev/null")].join(" ")})`,
  );
  const readOnly = writable.flatMap((dir) => PROTECTED_NAMES.map((name) => path.join(dir, name)));
  const denials: string[] = [];
  for (const rule of scope.deny) {
    const target = await real(rule.path);
    if (rule.access === "read") denials.push(`(deny file-read* file-write* ${subpath(target)})`);
    else readOnly.push(target);
  }
  if (readOnly.length > 0) denials.push(`(deny file-write* ${readOnly.map(subpath).join(" ")})`);
  lines.push(...denials);
  for (const dir of options.hide) lines.push(`(deny file-read* file-write* ${subpath(dir)})`);
  // A writable directory inside a hidden one (a fleet run's tree in the hidden cache) is granted
  // again, alone, with the scope's denials inside it after it.
  const shownAgain = writable.filter((dir) => options.hide.some((hidden) => pathCovers(hidden, true, dir)));
  if (shownAgain.length > 0)
    lines.push(`(allow file-read* file-write* ${shownAgain.map(subpath).join(" ")})`, ...denials);
  if (!options.network) lines.push("(deny network*)");
  lines.push("(deny signal (target others))", "(deny process-info* (target others))");
  return `${lines.join("\n")}\n`;
}

function subpath(p: string): string {
  return `(subpath ${JSON.stringify(p)})`;
}

function literal(p: string): string {
  return `(literal ${JSON.stringify(p)})`;
}

/** The macOS sandbox: `sandbox-exec -p <profile>`, the profile compiled for every command. */
export class SeatbeltSandbox implements Sandbox {
  readonly name = "sandbox-exec";

  constructor(
    private readonly scope: Scope,
    private readonly options: ConfinementOptions,
  ) {}

  async launch(
    argv: readonly string[],
    cwd: string,
    env: Readonly<Record<string, string>>,
  ): Promise<ShellLaunch> {
    const profile = await compileSeatbeltProfile(this.scope, this.options);
    const dir = (await canonicalize(path.resolve(this.scope.root, cwd))).real;
    return { file: SANDBOX_EXEC_PATH, args: ["-p", profile, ...argv], cwd: dir, env };
  }
}
