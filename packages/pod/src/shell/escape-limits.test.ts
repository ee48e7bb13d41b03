/**
 * The escape suite, resource class: fork bombs, a file that grows without end, a full /tmp and
 * memory beyond the limit, each through the real `bash` tool in the real bubblewrap sandbox. Each
 * must end with a result that names the limit and its `[shell.limits]` key, the host (this test
 * process, a command beside it) must keep working, nothing may stay behind, and the next ordinary
 * command must work. Small limits keep it quick; the defaults are checked as the command sees them.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exitCode, processesWhere, shellBed } from "../../test/support/shell-test-kit.js";

const MIB = 1024 * 1024;

/** A bed whose commands run under the given `[shell.limits]` (a user-level override: no trust needed). */
function limitedBed(limits: Record<string, number>) {
  return shellBed({ overrides: { shell: { limits } } });
}

/** The host still starts processes and answers: what a fork bomb must not take away. */
function hostWorks(): boolean {
  return execFileSync("sh", ["-c", "echo alive"]).toString().trim() === "alive";
}

/** The pids cgroups this process made for its commands and has not removed yet. */
function ownCgroups(): string[] {
  return ["/sys/fs/cgroup", "/sys/fs/cgroup/pids", "/sys/fs/cgroup/unified"].flatMap((root) => {
    try {
      return readdirSync(root).filter((name) => name.startsWith(`yoake-${process.pid}-`));
    } catch {
      return [];
    }
  });
}

async function gone(marker: string): Promise<number> {
  for (let i = 0; i < 200 && processesWhere((cmdline) => cmdline.includes(marker)).length > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return processesWhere((cmdline) => cmdline.includes(marker)).length;
}

describe("the escape suite: resource limits", () => {
  it("commands run under the default limits and cannot raise them", async () => {
    const { bash } = await shellBed();
    const seen = await bash({
      command: "ulimit -u; ulimit -d; ulimit -f; ulimit -c; df -k --output=size /tmp /dev/shm | tail -2",
    });
    expect(
      seen
        .split("\n")
        .slice(0, 6)
        .map((line) => line.trim()),
    ).toEqual(["512", "4194304", "1048576", "0", "524288", "524288"]);
    const raised = await bash({
      command:
        "for o in u d f c; do ulimit -S -$o unlimited 2>/dev/null && echo raised soft $o; ulimit -H -$o unlimited 2>/dev/null && echo raised hard $o; done; echo checked",
    });
    expect(raised).not.toContain("raised");
    expect(raised).toContain("checked");
    expect(
      await bash({
        command: "python3 -c 'import resource; resource.setrlimit(resource.RLIMIT_NPROC, (10**6, 10**6))'",
      }),
    ).toContain("not allowed");
  });

  it("the process limit counts the sandbox's processes only, for root too", async () => {
    const uid = process.getuid?.() ?? 0;
    const ours = execFileSync("ps", ["-u", String(uid), "--no-headers"])
      .toString()
      .trim()
      .split("\n").length;
    const { bash } = await limitedBed({ processes: 32 });
    // Fewer than the limit start, though this user has more processes than that on the host.
    const some = await bash({
      command: "for i in $(seq 20); do sleep 5 & done; echo started; kill $(jobs -p)",
    });
    console.log(`process limit 32: uid ${uid} has ${ours} processes on the host; 20 started in the sandbox`);
    expect(ours).toBeGreaterThan(32);
    expect(some).toContain("started");
    expect(some).not.toContain("Resource temporarily unavailable");
    const many = await bash({ command: "for i in $(seq 60); do sleep 5 & done; echo tried" });
    // Not root: fork fails (RLIMIT_NPROC). Root, which the kernel exempts: the Pod kills the command.
    expect(many).toMatch(/Resource temporarily unavailable|killed: it ran more processes at once/);
    expect(many).toContain("process limit");
    expect(many).toContain("shell.limits.processes");
  });

  it("fork bombs end with the process limit named; the host and a command beside them keep working", async () => {
    const bed = await limitedBed({ processes: 64 });
    let bombs = 0;
    let killedAtLimit = 0;
    let named = 0;
    const bombsWith = (marker: string) => [
      `:(){ :|:& };: # ${marker}\nsleep 4`,
      `bomb(){ bomb | bomb & }; bomb # ${marker}\nsleep 4`,
      `:(){ :|: ; };: # ${marker}`,
      `python3 -c 'import os\nwhile True: os.fork()' # ${marker}`,
      `perl -e 'fork while 1; sleep 3' # ${marker}`,
      `while true; do sleep 100 & done # ${marker}`,
    ];
    for (const bomb of bombsWith(`yoake-bomb-${randomBytes(4).toString("hex")}`)) {
      bombs++;
      const marker = /yoake-bomb-[0-9a-f]+/.exec(bomb)?.[0] as string;
      const running = bed.bash({ command: bomb, timeout_ms: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(hostWorks()).toBe(true);
      const beside = await bed.bash({ command: "echo beside; ls / | wc -l" });
      expect(beside).toMatch(/^beside\n\d+\n\[exit code 0/);
      const result = await running;
      expect(result, bomb).toMatch(
        /\[(exit code \d+|killed: still running after the 10000 ms time limit|killed: it ran more processes at once)/,
      );
      const hitLimit = result.includes("killed: it ran more processes at once");
      if (hitLimit || (/Resource temporarily unavailable/.test(result) && /fork/i.test(result))) {
        expect(result, bomb).toContain("shell.limits.processes");
        named++;
      }
      if (hitLimit) killedAtLimit++;
      expect(await gone(marker), `${bomb}: left processes`).toBe(0);
      expect(hostWorks()).toBe(true);
    }
    const after = await bed.bash({ command: "echo ordinary" });
    expect(after).toMatch(/^ordinary\n\[exit code 0/);
    console.log(
      `fork bombs: ${bombs} attempts, ${named} results name the process limit (${killedAtLimit} killed by the Pod's count), the host and a sibling command worked through each`,
    );
    // Each bomb hits the limit; all but Perl's (its failed forks print nothing) say so in their output.
    expect(named).toBeGreaterThanOrEqual(bombs - 1);
  }, 180_000);

  it("a file beyond the size limit stops its writer and the result names the limit", async () => {
    const { bash, project } = await limitedBed({ file_size_mb: 8 });
    const grown = await bash({ command: "yes > big" });
    expect(exitCode(grown)).toBe(153);
    expect(grown).toContain("file size limit");
    expect(grown).toContain("shell.limits.file_size_mb");
    expect(statSync(path.join(project, "big")).size).toBeLessThanOrEqual(8 * MIB);
    const copied = await bash({ command: "head -c 20M /dev/zero > zeros; echo status=$?" });
    expect(copied).toContain("shell.limits.file_size_mb");
    expect(statSync(path.join(project, "zeros")).size).toBeLessThanOrEqual(8 * MIB);
    const python = await bash({
      command:
        'python3 -c \'import signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); open("p", "wb").write(bytes(9 << 20))\'',
    });
    expect(python).toContain("File too large");
    expect(python).toContain("shell.limits.file_size_mb");
    expect(await bash({ command: "echo small > small && cat small" })).toMatch(/^small\n\[exit code 0/);
  });

  it("a full /tmp says so and names the tmp limit; the host's disk is untouched", async () => {
    const { bash } = await limitedBed({ tmp_mb: 16 });
    for (const dir of ["/tmp", "/dev/shm"]) {
      const filled = await bash({ command: `dd if=/dev/zero of=${dir}/fill bs=1M count=64` });
      expect(filled).toContain("No space left on device");
      expect(filled).toContain("shell.limits.tmp_mb");
      expect(filled).toMatch(/16777216 bytes/);
    }
    const devWrite = await bash({ command: "echo x > /dev/not-a-device" });
    expect(devWrite).toContain("Read-only file system");
    expect(existsSync("/tmp/fill")).toBe(false);
    expect(await bash({ command: "echo next > /tmp/n && cat /tmp/n" })).toMatch(/^next\n\[exit code 0/);
  });

  it("memory beyond the limit fails the allocation and the result names the limit", async () => {
    const { bash } = await limitedBed({ memory_mb: 256 });
    const python = await bash({ command: "python3 -c 'x = bytearray(512 << 20); print(len(x))'" });
    expect(python).toContain("MemoryError");
    expect(python).toContain("shell.limits.memory_mb");
    const node = await bash({
      command: "node -e 'const b = Buffer.alloc(512 << 20, 1); console.log(b.length)'",
    });
    expect(node).toMatch(/Array buffer allocation failed|out of memory/);
    expect(node).toContain("shell.limits.memory_mb");
    expect(hostWorks()).toBe(true);
    const small = await bash({ command: "python3 -c 'x = bytearray(64 << 20); print(len(x))'" });
    expect(small).toMatch(/^67108864\n\[exit code 0/);
  });
});

describe("the escape suite: a fork bomb under the default limits", () => {
  it("stays near the default process limit, and the host keeps working", async () => {
    const { bash } = await shellBed();
    const count = (): number => readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
    const before = count();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, count());
    }, 50);
    const marker = `yoake-bomb-${randomBytes(4).toString("hex")}`;
    const result = await bash({ command: `:(){ :|:& };: # ${marker}\nsleep 8`, timeout_ms: 30_000 });
    clearInterval(sampler);
    console.log(`default-limit fork bomb: ${before} processes on the host before, ${peak} at the peak`);
    expect(result).toContain("shell.limits.processes");
    expect(await gone(marker)).toBe(0);
    expect(hostWorks()).toBe(true);
    // 512 in the sandbox, and what a bomb forks between two counts (root) or nothing (others).
    expect(peak - before).toBeLessThan(512 + 1024);
    // A root Pod's per-command pids cgroups are removed once they empty.
    for (let i = 0; i < 100 && ownCgroups().length > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ownCgroups()).toEqual([]);
  }, 60_000);
});

describe("ordinary work under the default limits", () => {
  it("tsc type-checks and emits, a build writes many files, git and node run", async () => {
    const tsc = path.resolve("node_modules/typescript/bin/tsc");
    const { bash, project } = await shellBed({
      // This checkout's TypeScript, readable wherever the checkout is (under /tmp the sandbox's
      // private /tmp would hide it).
      overrides: { scope: { allow: [{ path: path.resolve("node_modules/typescript"), access: "read" }] } },
      files: {
        "src/main.ts": "export const answer: number = 42;\nconsole.log(answer);\n",
        "tsconfig.json": JSON.stringify({
          compilerOptions: { outDir: "out", rootDir: "src", strict: true, types: [] },
          include: ["src"],
        }),
      },
    });
    const compiled = await bash({ command: `node ${tsc} -p . && node out/main.js`, timeout_ms: 120_000 });
    expect(compiled).toMatch(/^42\n\[exit code 0/);
    const built = await bash({
      command:
        'mkdir -p build && for i in $(seq 2000); do echo "file $i" > build/f$i.txt; done && ls build | wc -l && git --version >/dev/null && node -e \'new WebAssembly.Memory({ initial: 1 }); console.log("wasm ok")\'',
      timeout_ms: 120_000,
    });
    expect(built).toMatch(/^2000\nwasm ok\n\[exit code 0/);
    expect(existsSync(path.join(project, "build", "f2000.txt"))).toBe(true);
  }, 180_000);
});
