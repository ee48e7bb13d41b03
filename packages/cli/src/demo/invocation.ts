/**
 * How the user runs yoake, for the demo's last line to say it the same way: `npx yoake` when npm
 * started this process (`npx yoake demo`, an npm script: `npm_command` is set, and yoake may not
 * be on the PATH), else `yoake` (a global install, or a PATH that has it).
 */
export function yoakeInvocation(env: Readonly<Record<string, string | undefined>>): string {
  return env.npm_command === undefined || env.npm_command === "" ? "yoake" : "npx yoake";
}
