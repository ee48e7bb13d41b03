/**
 * The sandbox as an ordinary user gets it: CI runs as root, where the kernel treats the sandbox
 * differently (no RLIMIT_NPROC for root), so here bubblewrap itself runs as `nobody`, through a
 * `bwrap` on PATH that drops to that user first. The start-up probe, the seccomp filter, the
 * ban on nested user namespaces and the process limit are checked through the real `bash` tool.
 * When this process is not root, every other shell test runs as an ordinary user already.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCode, shellBed } from "../../test/support/shell-test-kit.js";
import { findOnPath } from "./sandbox-probe.js";

const NOBODY = 65534;
const root = process.getuid?.() === 0;
let setpriv: string | undefined;
let bwrap: string | undefined;
let wrapperDir = "";

beforeAll(async () => {
  setpriv = await findOnPath("setpriv", process.env.PATH ?? "");
  bwrap = await findOnPath("bwrap", process.env.PATH ?? "");
  if (!root)
    console.log(
      "sandbox as non-root: this process is not root, so every shell test runs as non-root already",
    );
  else if (setpriv === undefined)
    console.log("sandbox as non-root: skipped, no setpriv (util-linux) to drop to nobody");
  if (!root || setpriv === undefined || bwrap === undefined) return;
  wrapperDir = realpathSync(mkdtempSync("/var/tmp/yoake-nonroot-bin-"));
  chmodSync(wrapperDir, 0o755);
  writeFileSync(
    path.join(wrapperDir, "bwrap"),
    `#!/bin/sh\nexec ${setpriv} --reuid ${NOBODY} --regid ${NOBODY} --clear-groups ${bwrap} "$@"\n`,
    { mode: 0o755 },
  );
});

afterAll(() => {
  if (wrapperDir !== "") rmSync(wrapperDir, { recursive: true, force: true });
});

describe("the sandbox for a user who is not root", () => {
  it.skipIf(!root)(
    "probes, filters setuid, refuses nested user namespaces and counts processes",
    async () => {
      if (setpriv === undefined || bwrap === undefined) return;
      // The bed is made by root: open it to nobody before the Pod probes it.
      const parent = realpathSync(mkdtempSync("/var/tmp/yoake-nonroot-"));
      chmodSync(parent, 0o755);
      try {
        const base = path.join(parent, "bed");
        mkdirSync(base);
        chmodSync(base, 0o777);
        const bed = await shellBed({
          parentDir: base,
          env: { PATH: `${wrapperDir}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: "/nonexistent" },
          overrides: { shell: { limits: { processes: 32 } } },
          prepare: (dirs) => execFileSync("chmod", ["-R", "a+rwX", dirs.base]),
        });
        expect(bed.shell.sandboxed).toBe(true);
        const who = await bed.bash({ command: "id -u; echo made > made.txt" });
        expect(who).toMatch(/^65534\n\[exit code 0/);
        expect(statSync(path.join(bed.project, "made.txt")).uid).toBe(NOBODY);
        const setuid = await bed.bash({ command: "cp /bin/true t && chmod 4755 t; stat -c %a t" });
        expect(setuid).toContain("Operation not permitted");
        expect(statSync(path.join(bed.project, "t")).mode & 0o6000).toBe(0);
        const nested = await bed.bash({ command: "unshare -U true && echo nested" });
        expect(nested).not.toMatch(/^nested/m);
        expect(exitCode(nested)).not.toBe(0);
        const bomb = await bed.bash({
          command: "for i in $(seq 60); do sleep 5 & done; echo tried",
          timeout_ms: 60_000,
        });
        expect(bomb).toContain("Resource temporarily unavailable");
        expect(bomb).toContain("shell.limits.processes");
        expect(await bed.bash({ command: "echo after" })).toMatch(/^after\n\[exit code 0/);
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
