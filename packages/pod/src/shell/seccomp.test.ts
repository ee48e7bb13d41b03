/**
 * The seccomp filter, decoded and run by a small classic-BPF interpreter over generated system
 * calls for both machines, against an independent statement of what must be denied (the
 * numbers here are typed from the kernel's tables, and checked against the installed kernel
 * headers where there are some). The real filter in the real sandbox: escape-setuid.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { NO_HOST_READS } from "./host-reads.js";
import { buildSeccompFilter, type SeccompArch, seccompArchFor } from "./seccomp.js";

const ALLOW = "allow";
const EPERM = "EPERM";
const ENOSYS = "ENOSYS";
type Verdict = typeof ALLOW | typeof EPERM | typeof ENOSYS;

const AUDIT: Record<SeccompArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };
const AUDIT_I386 = 0x40000003;
const AUDIT_ARM = 0x40000028;

/** name → [number, index of the mode argument, index of the open flags]. */
type Calls = Record<string, [number, number?, number?]>;
const CALLS: Record<SeccompArch, Calls> = {
  x86_64: {
    open: [2, 2, 1],
    ioctl: [16],
    mkdir: [83],
    creat: [85, 1],
    chmod: [90, 1],
    fchmod: [91, 1],
    mknod: [133, 1],
    openat: [257, 3, 2],
    mkdirat: [258],
    mknodat: [259, 2],
    fchmodat: [268, 2],
    io_uring_setup: [425],
    io_uring_enter: [426],
    io_uring_register: [427],
    openat2: [437],
    fchmodat2: [452, 2],
    read: [0],
    write: [1],
    execve: [59],
    fork: [57],
  },
  aarch64: {
    ioctl: [29],
    mknodat: [33, 2],
    mkdirat: [34],
    fchmod: [52, 1],
    fchmodat: [53, 2],
    openat: [56, 3, 2],
    io_uring_setup: [425],
    io_uring_enter: [426],
    io_uring_register: [427],
    openat2: [437],
    fchmodat2: [452, 2],
    read: [63],
    write: [64],
    execve: [221],
    clone: [220],
  },
};
const ENOSYS_CALLS = ["openat2", "io_uring_setup", "io_uring_enter", "io_uring_register"];

/** What the filter must answer, from the rules in the module's doc, not from its code. */
function expected(arch: SeccompArch, auditArch: number, nr: number, args: readonly bigint[]): Verdict {
  if (auditArch !== AUDIT[arch]) return EPERM;
  if (arch === "x86_64" && (nr & 0x40000000) !== 0) return EPERM;
  const entry = Object.entries(CALLS[arch]).find(([, [number]]) => number === nr);
  if (entry === undefined) return ALLOW;
  const [name, [, modeArg, flagsArg]] = entry;
  if (ENOSYS_CALLS.includes(name)) return ENOSYS;
  const low = (i: number): number => Number((args[i] ?? 0n) & 0xffffffffn);
  if (name === "ioctl") return [0x5412, 0x541c].includes(low(1)) ? EPERM : ALLOW;
  if (modeArg === undefined) return ALLOW;
  if (flagsArg !== undefined && (low(flagsArg) & (0o100 | 0o20000000)) === 0) return ALLOW;
  return (low(modeArg) & 0o6000) !== 0 ? EPERM : ALLOW;
}

/** Runs a classic BPF seccomp program on one `struct seccomp_data`. */
function run(program: Buffer, nr: number, auditArch: number, args: readonly bigint[]): Verdict {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr | 0, 0);
  data.writeUInt32LE(auditArch, 4);
  data.writeBigUInt64LE(0x7fff_0000_1234n, 8);
  args.forEach((arg, i) => {
    data.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + 8 * i);
  });
  let accumulator = 0;
  for (let pc = 0, steps = 0; steps < 4096; steps++) {
    if (pc < 0 || pc * 8 >= program.length) throw new Error(`ran off the program at ${pc}`);
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: // BPF_LD | BPF_W | BPF_ABS
        if (k % 4 !== 0 || k + 4 > 64) throw new Error(`load outside seccomp_data: ${k}`);
        accumulator = data.readUInt32LE(k);
        pc++;
        break;
      case 0x15: // BPF_JMP | BPF_JEQ | BPF_K
        pc += 1 + (accumulator === k ? jt : jf);
        break;
      case 0x45: // BPF_JMP | BPF_JSET | BPF_K
        pc += 1 + ((accumulator & k) !== 0 ? jt : jf);
        break;
      case 0x06: // BPF_RET | BPF_K
        if (k === 0x7fff0000) return ALLOW;
        if (k === (0x00050000 | 1)) return EPERM;
        if (k === (0x00050000 | 38)) return ENOSYS;
        throw new Error(`unexpected return ${k.toString(16)}`);
      default:
        throw new Error(`unknown opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error("the program loops");
}

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state;
  };
}

function caseArgs(next: () => number, mode: number, flags: number): bigint[] {
  // High halves of garbage: the kernel reads only the low 32 bits, and so must the filter.
  const high = (): bigint => BigInt(next()) << 32n;
  return [high() | 3n, high() | 0x1000n, high() | BigInt(flags), high() | BigInt(mode), 0n, 0n];
}

const MODES = [0o755, 0o644, 0o4755, 0o2755, 0o6755, 0o4000, 0o2000, 0o1777, 0o777, 0o100755, 0o104755, 0];
const FLAGS = [0, 0o1, 0o2, 0o100, 0o101, 0o1101, 0o20200000, 0o20000000, 0o200000, 0o2000000];

describe("the seccomp filter", () => {
  it.each(["x86_64", "aarch64"] as const)("answers generated %s system calls as the rules say", (arch) => {
    const program = buildSeccompFilter(arch);
    expect(program.length % 8).toBe(0);
    const next = random(arch === "x86_64" ? 26 : 62);
    const calls = Object.values(CALLS[arch]).map(([nr]) => nr);
    let cases = 0;
    const denied: Record<Verdict, number> = { allow: 0, EPERM: 0, ENOSYS: 0 };
    const check = (nr: number, auditArch: number, args: bigint[]): void => {
      const want = expected(arch, auditArch, nr, args);
      const got = run(program, nr, auditArch, args);
      if (got !== want)
        throw new Error(
          `${arch} nr ${nr} arch ${auditArch.toString(16)} args ${args.join(",")}: ${got}, want ${want}`,
        );
      denied[got]++;
      cases++;
    };
    for (const nr of calls)
      for (const mode of MODES)
        for (const flags of FLAGS) {
          // Every argument position holds the mode or the flags once, so a wrong index shows.
          const args = caseArgs(next, mode, flags);
          check(nr, AUDIT[arch], args);
          check(nr, AUDIT[arch], [args[0] ?? 0n, BigInt(mode), BigInt(mode), BigInt(flags), 0n, 0n]);
          check(nr, AUDIT[arch], [args[0] ?? 0n, BigInt(mode), BigInt(flags), BigInt(mode), 0n, 0n]);
        }
    for (const request of [0x5412, 0x541c, 0x5413, 0x5401, 0x1_0000_5412, 0]) {
      check(CALLS[arch].ioctl?.[0] as number, AUDIT[arch], [1n, BigInt(request), 0n, 0n, 0n, 0n]);
    }
    for (let i = 0; i < 300; i++) {
      const nr = next() % 470;
      const args = caseArgs(
        next,
        MODES[next() % MODES.length] as number,
        FLAGS[next() % FLAGS.length] as number,
      );
      check(nr, AUDIT[arch], args);
      // The same call from another ABI: i386 or 32-bit ARM compat, x32.
      check(nr, arch === "x86_64" ? AUDIT_I386 : AUDIT_ARM, args);
      if (arch === "x86_64") check(nr | 0x40000000, AUDIT[arch], args);
    }
    console.log(
      `seccomp ${arch}: ${cases} generated system calls, ${denied.EPERM} EPERM, ${denied.ENOSYS} ENOSYS, ${denied.allow} allowed, all as expected`,
    );
    expect(cases).toBeGreaterThan(1000);
    expect(denied.EPERM).toBeGreaterThan(100);
    expect(denied.allow).toBeGreaterThan(100);
  });

  it("uses the numbers of the installed kernel headers, where there are some", () => {
    const headers: Record<SeccompArch, string> = {
      x86_64: "/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
      aarch64: "/usr/include/asm-generic/unistd.h",
    };
    let compared = 0;
    for (const arch of ["x86_64", "aarch64"] as const) {
      if (!existsSync(headers[arch])) {
        console.log(`seccomp: no ${headers[arch]} here, ${arch} numbers not compared with headers`);
        continue;
      }
      const text = readFileSync(headers[arch], "utf8");
      for (const [name, [nr]] of Object.entries(CALLS[arch])) {
        const match = new RegExp(`#define __NR(?:3264)?_${name}\\s+(\\d+)`).exec(text);
        if (match === null) {
          console.log(`seccomp: ${headers[arch]} has no ${name} (older headers), not compared`);
          continue;
        }
        expect([name, Number(match[1])]).toEqual([name, nr]);
        compared++;
      }
    }
    console.log(`seccomp: ${compared} system call numbers match the kernel headers`);
  });

  it("has a filter for x86_64 and aarch64 only; bwrap reads it from fd 3 of the launch", async () => {
    expect(seccompArchFor("x64")).toBe("x86_64");
    expect(seccompArchFor("arm64")).toBe("aarch64");
    expect(seccompArchFor("riscv64")).toBeUndefined();
    expect(seccompArchFor("ia32")).toBeUndefined();
    const scope = { root: "/", allow: [], deny: [] };
    const options = { network: false, hide: [], reads: NO_HOST_READS };
    for (const [arch, filter] of [
      ["x64", buildSeccompFilter("x86_64")],
      ["arm64", buildSeccompFilter("aarch64")],
      ["riscv64", undefined],
    ] as const) {
      const sandbox = new BubblewrapSandbox("/usr/bin/bwrap", scope, options, arch);
      const launch = await sandbox.launch(["true"], "/", {});
      expect(sandbox.filtered).toBe(filter !== undefined);
      expect(launch.fd3).toEqual(filter);
      const at = launch.args.indexOf("--seccomp");
      expect(at === -1 ? undefined : launch.args[at + 1]).toBe(filter === undefined ? undefined : "3");
    }
  });
});
