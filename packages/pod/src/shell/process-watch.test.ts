/**
 * The Pod's own count of a sandbox's processes: the fallback for a root Pod where no pids
 * cgroup can be made. A real bwrap whose command starts processes steadily past the limit must
 * be killed with the reason the result names; one that stays under it must run to its end.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileBubblewrapArgs } from "./bubblewrap.js";
import { NO_HOST_READS } from "./host-reads.js";
import { findOnPath } from "./sandbox-probe.js";
import { type ShellEnd, ShellProcess } from "./shell-process.js";

let base: string;
let bwrap: string | undefined;

beforeAll(async () => {
  base = realpathSync(mkdtempSync("/var/tmp/yoake-watch-"));
  bwrap = await findOnPath("bwrap", process.env.PATH ?? "");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function run(command: string, processLimit: number): Promise<ShellEnd> {
  const scope = { root: base, allow: [{ path: ".", access: "write" as const, recursive: true }], deny: [] };
  const args = await compileBubblewrapArgs(scope, base, { network: false, hide: [], reads: NO_HOST_READS });
  const launch = {
    file: bwrap as string,
    args: [...args, "--", "bash", "-c", command],
    cwd: path.sep,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    processLimit,
  };
  const shell = new ShellProcess(launch, { headBytes: 0, tailBytes: 4096 });
  const timer = setTimeout(() => shell.kill("timeout"), 30_000);
  const end = await shell.done;
  clearTimeout(timer);
  return end;
}

describe("watchSandboxProcesses", () => {
  it("kills a sandbox that holds more processes than the limit, and leaves one under it alone", async () => {
    if (bwrap === undefined) throw new Error("bwrap is not on PATH");
    const past = await run("for i in $(seq 80); do sleep 20 & sleep 0.01; done; wait", 40);
    expect(past).toEqual({ kind: "killed", reason: "process_limit" });
    const under = await run("for i in $(seq 10); do sleep 1 & done; wait; echo done", 40);
    expect(under).toEqual({ kind: "exited", code: 0 });
  }, 60_000);
});
