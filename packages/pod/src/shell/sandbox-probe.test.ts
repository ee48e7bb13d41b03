import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shellBed } from "../../test/support/shell-test-kit.js";
import { NO_HOST_READS } from "./host-reads.js";
import { probeSandbox } from "./sandbox-probe.js";

/** Nothing hidden outside the scope: these tests are about the probe, not about what it hides. */

/** A PATH with bash and nothing else: no bwrap on it. */
const bin = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-nobwrap-")));
mkdirSync(bin, { recursive: true });
symlinkSync(realpathSync("/bin/bash"), path.join(bin, "bash"));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Probes a project in /tmp with a fake `bwrap` (the bash `script`) as the only one on PATH. */
async function probeWithFakeBwrap(script: string) {
  const fake = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-fakebwrap-")));
  writeFileSync(path.join(fake, "bwrap"), `#!/bin/bash\n${script}`);
  chmodSync(path.join(fake, "bwrap"), 0o755);
  try {
    return await probeSandbox(
      { root: tmpdir(), allow: [], deny: [] },
      { network: false, hide: [], reads: NO_HOST_READS },
      { PATH: fake },
    );
  } finally {
    rmSync(fake, { recursive: true, force: true });
  }
}

describe("the sandbox probe", () => {
  it("finds bubblewrap on PATH and runs it", async () => {
    const status = await probeSandbox(
      { root: tmpdir(), allow: [], deny: [] },
      { network: false, hide: [], reads: NO_HOST_READS },
      { PATH: process.env.PATH },
    );
    expect(status).toMatchObject({ ok: true, sandbox: { name: "bubblewrap" } });
  });

  it("says bubblewrap is missing and how to install it when it is not on PATH", async () => {
    const status = await probeSandbox(
      { root: tmpdir(), allow: [], deny: [] },
      { network: false, hide: [], reads: NO_HOST_READS },
      { PATH: bin },
    );
    expect(status).toEqual({
      ok: false,
      reason: "bubblewrap (bwrap) is not on PATH",
      fix: expect.stringContaining("apt install bubblewrap"),
    });
  });

  it("says why bubblewrap fails when it cannot build its sandbox", async () => {
    // A bwrap that cannot create namespaces answers as a real one does when they are restricted.
    const status = await probeWithFakeBwrap(
      "echo 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
    );
    expect(status).toMatchObject({
      ok: false,
      reason: "bubblewrap cannot create its sandbox: bwrap: setting up uid map: Permission denied",
    });
  });

  it("names the mounts, not user namespaces, when only the project's mounts fail", async () => {
    // A bwrap whose namespaces work, but that cannot make one of the sandbox's mount points (as
    // when a hidden directory sat inside another read-only one).
    const status = await probeWithFakeBwrap(
      `case "$*" in *--tmpfs*) echo "bwrap: Can't mkdir /tmp/r/yoake: Read-only file system" >&2; exit 1;; esac\n`,
    );
    expect(status).toMatchObject({
      ok: false,
      reason:
        "bubblewrap cannot set up the mounts of this project's sandbox: bwrap: Can't mkdir /tmp/r/yoake: Read-only file system",
    });
    expect(status.ok === false && status.fix).not.toMatch(/namespace/);
  });

  it("runs a bwrap that worked once per process, and probes one that failed again every time", async () => {
    // A bwrap that logs each start, and works while told to.
    const fake = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-countingbwrap-")));
    const log = path.join(fake, "starts");
    const failing = path.join(fake, "failing");
    writeFileSync(
      path.join(fake, "bwrap"),
      `#!/bin/bash\necho start >> '${log}'\nif [ -e '${failing}' ]; then echo 'bwrap: no' >&2; exit 1; fi\n`,
    );
    chmodSync(path.join(fake, "bwrap"), 0o755);
    const starts = () => readFileSync(log, "utf8").trim().split("\n").length;
    const probe = (root: string, network = false) =>
      probeSandbox(
        { root, allow: [], deny: [] },
        { network, hide: [], reads: NO_HOST_READS },
        { PATH: fake },
      );
    try {
      writeFileSync(failing, "");
      // Each failed probe also starts a bare sandbox, to tell namespaces from mounts.
      expect(await probe(tmpdir())).toMatchObject({ ok: false });
      expect(await probe(tmpdir())).toMatchObject({ ok: false });
      expect(starts()).toBe(4);
      rmSync(failing);
      expect(await probe(tmpdir())).toMatchObject({ ok: true });
      // Another project's Pod in this process (a sub-agent's, a worker's next run) starts none.
      expect(await probe(fake)).toMatchObject({ ok: true, sandbox: { name: "bubblewrap" } });
      expect(starts()).toBe(5);
      // With the network shared the bwrap arguments differ: probed once more.
      expect(await probe(fake, true)).toMatchObject({ ok: true });
      expect(starts()).toBe(6);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });

  it("without bwrap the shell is not silently unsandboxed: it warns with the fix and marks every result", async () => {
    const bed = await shellBed({ env: { PATH: bin, HOME: "/nonexistent" } });
    expect(bed.shell.sandboxed).toBe(false);
    expect(bed.warnings).toEqual([
      expect.stringMatching(
        /^no sandbox for commands: bubblewrap \(bwrap\) is not on PATH; every bash command will ask for approval, unsandboxed\. Fix: install it: apt install bubblewrap/,
      ),
    ]);
    expect(await bed.bash({ command: "echo hi" })).toMatch(
      /^hi\n\[exit code 0 · [\d.]+ s · not sandboxed\]$/,
    );
  });

  it('with unsandboxed = "off" there is no shell at all', async () => {
    await expect(
      shellBed({ env: { PATH: bin, HOME: "/nonexistent" }, overrides: { shell: { unsandboxed: "off" } } }),
    ).rejects.toThrow(/no shell: no sandbox for commands: .*the bash tool is off/);
  });

  it("shell.sandbox = false turns the sandbox off on purpose: no probe, the same warning, every result marked", async () => {
    const bed = await shellBed({ overrides: { shell: { sandbox: false } } });
    expect(bed.shell.sandboxed).toBe(false);
    expect(bed.warnings).toEqual([
      "no sandbox for commands: the manifest turned it off (shell.sandbox = false, from overrides); every bash command will ask for approval, unsandboxed. Fix: remove shell.sandbox = false",
    ]);
    expect(await bed.bash({ command: "echo hi" })).toMatch(/· not sandboxed\]$/);
  });
});
