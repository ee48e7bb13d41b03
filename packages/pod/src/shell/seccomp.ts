/**
 * The seccomp filter of the bubblewrap sandbox, as the classic BPF program bwrap loads with
 * `--seccomp FD` (an array of `struct sock_filter`, 8 bytes each, in the machine's byte order).
 *
 * What it denies, and why:
 * - setuid and setgid bits: `chmod`, `fchmod`, `fchmodat`, `fchmodat2` with a mode holding
 *   S_ISUID or S_ISGID, and `open`, `openat`, `creat`, `mknod`, `mknodat` creating a file with one
 *   fail with EPERM. A setuid binary left in the project is a privilege for whoever runs it next
 *   (as root: a setuid-root shell), and the sandbox's processes own the files they write, so only
 *   a filter can stop them. `mkdir`/`mkdirat` are allowed: the kernel drops S_ISUID/S_ISGID from
 *   their mode (a directory gets setgid only by inheriting it), and a setgid directory grants no
 *   privilege anyway.
 * - `openat2` fails with ENOSYS: its mode is behind a pointer the filter cannot read, and libc
 *   falls back to `openat`, which is checked.
 * - io_uring (`io_uring_setup`, `io_uring_enter`, `io_uring_register`) fails with ENOSYS: its
 *   operations do not pass through seccomp at all.
 * - the TIOCSTI and TIOCLINUX ioctls fail with EPERM: typing into a terminal (defense in depth;
 *   the command has no terminal and a session of its own already).
 * - any other ABI than the machine's own fails with EPERM: i386 compat calls (int 0x80) and, on
 *   x86_64, x32 calls have other numbers, which the checks above would not recognise.
 * Everything else is allowed. The arguments are 64 bits wide; the checks read their low 32, which
 * is all the kernel uses of a mode, open flags or an ioctl request.
 *
 * Only x86_64 and aarch64 have a filter (see `seccompArchFor`).
 */

/** The machines the filter is written for. */
export type SeccompArch = "x86_64" | "aarch64";

/** The filter's architecture for a Node `process.arch`, or undefined when there is none. */
export function seccompArchFor(nodeArch: string): SeccompArch | undefined {
  if (nodeArch === "x64") return "x86_64";
  if (nodeArch === "arm64") return "aarch64";
  return undefined;
}

/** `seccomp_data.arch` values (linux/audit.h). */
export const AUDIT_ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 } as const;
/** On x86_64, the bit that marks an x32 system call's number. */
export const X32_SYSCALL_BIT = 0x40000000;

export const S_ISUID = 0o4000;
export const S_ISGID = 0o2000;
/** Open flags that make `open`/`openat` use their mode: O_CREAT and __O_TMPFILE (same on both machines). */
export const CREATING_OPEN_FLAGS = 0o100 | 0o20000000;
export const TIOCSTI = 0x5412;
export const TIOCLINUX = 0x541c;
export const EPERM = 1;
export const ENOSYS = 38;

export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ERRNO = 0x00050000;

/** A system call whose mode argument must not hold setuid/setgid bits. */
export interface ModeCheck {
  name: string;
  nr: number;
  /** Index of the mode argument. */
  modeArg: number;
  /** Index of the open flags: the mode counts only when they create a file. */
  flagsArg?: number;
}

/** What the filter checks on one machine: its ABI and system call numbers. */
export interface SyscallTable {
  audit: number;
  /** Whether calls with X32_SYSCALL_BIT are another ABI to refuse. */
  x32: boolean;
  ioctl: number;
  modeChecks: readonly ModeCheck[];
  /** Calls that fail with ENOSYS, so that libraries fall back to checked ones. */
  unsupported: readonly { name: string; nr: number }[];
}

const FCHMODAT2 = 452;
const IO_URING = [
  { name: "io_uring_setup", nr: 425 },
  { name: "io_uring_enter", nr: 426 },
  { name: "io_uring_register", nr: 427 },
];
const OPENAT2 = { name: "openat2", nr: 437 };

/** The numbers, from the kernel's arch/x86/entry/syscalls/syscall_64.tbl and asm-generic/unistd.h. */
export const SYSCALL_TABLES: Readonly<Record<SeccompArch, SyscallTable>> = {
  x86_64: {
    audit: AUDIT_ARCH.x86_64,
    x32: true,
    ioctl: 16,
    modeChecks: [
      { name: "open", nr: 2, modeArg: 2, flagsArg: 1 },
      { name: "creat", nr: 85, modeArg: 1 },
      { name: "chmod", nr: 90, modeArg: 1 },
      { name: "fchmod", nr: 91, modeArg: 1 },
      { name: "mknod", nr: 133, modeArg: 1 },
      { name: "openat", nr: 257, modeArg: 3, flagsArg: 2 },
      { name: "mknodat", nr: 259, modeArg: 2 },
      { name: "fchmodat", nr: 268, modeArg: 2 },
      { name: "fchmodat2", nr: FCHMODAT2, modeArg: 2 },
    ],
    unsupported: [OPENAT2, ...IO_URING],
  },
  // The generic table: no open, creat, chmod or mknod, only their *at forms.
  aarch64: {
    audit: AUDIT_ARCH.aarch64,
    x32: false,
    ioctl: 29,
    modeChecks: [
      { name: "mknodat", nr: 33, modeArg: 2 },
      { name: "fchmod", nr: 52, modeArg: 1 },
      { name: "fchmodat", nr: 53, modeArg: 2 },
      { name: "openat", nr: 56, modeArg: 3, flagsArg: 2 },
      { name: "fchmodat2", nr: FCHMODAT2, modeArg: 2 },
    ],
    unsupported: [OPENAT2, ...IO_URING],
  },
};

// Classic BPF opcodes (linux/filter.h).
const LD_W_ABS = 0x20;
const JMP_JEQ_K = 0x15;
const JMP_JSET_K = 0x45;
const RET_K = 0x06;

/** Offsets into `struct seccomp_data`: nr, arch, then the six 64-bit arguments from 16. */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
/** The low half of argument `i` (little-endian: the first four bytes). */
function argLow(i: number): number {
  return 16 + 8 * i;
}

type Target = string | 0;
type Instruction =
  | { op: "ld"; offset: number }
  | { op: "jeq" | "jset"; k: number; jt: Target; jf: Target }
  | { op: "ret"; k: number }
  | { label: string };

/**
 * The filter for `arch`, ready for `--seccomp`. Pure: the same bytes every time, so a test can
 * decode and run it.
 */
export function buildSeccompFilter(arch: SeccompArch): Buffer {
  const table = SYSCALL_TABLES[arch];
  const code: Instruction[] = [
    { op: "ld", offset: ARCH_OFFSET },
    { op: "jeq", k: table.audit, jt: 0, jf: "eperm" },
    { op: "ld", offset: NR_OFFSET },
  ];
  if (table.x32) code.push({ op: "jset", k: X32_SYSCALL_BIT, jt: "eperm", jf: 0 });
  for (const call of table.unsupported) code.push({ op: "jeq", k: call.nr, jt: "enosys", jf: 0 });
  code.push({ op: "jeq", k: table.ioctl, jt: "ioctl", jf: 0 });
  for (const check of table.modeChecks)
    code.push({ op: "jeq", k: check.nr, jt: `mode:${check.name}`, jf: 0 });
  code.push({ op: "ret", k: SECCOMP_RET_ALLOW });

  code.push(
    { label: "ioctl" },
    { op: "ld", offset: argLow(1) },
    { op: "jeq", k: TIOCSTI, jt: "eperm", jf: 0 },
    { op: "jeq", k: TIOCLINUX, jt: "eperm", jf: "allow" },
  );
  for (const check of table.modeChecks) {
    code.push({ label: `mode:${check.name}` });
    if (check.flagsArg !== undefined)
      code.push(
        { op: "ld", offset: argLow(check.flagsArg) },
        { op: "jset", k: CREATING_OPEN_FLAGS, jt: 0, jf: "allow" },
      );
    code.push(
      { op: "ld", offset: argLow(check.modeArg) },
      { op: "jset", k: S_ISUID | S_ISGID, jt: "eperm", jf: "allow" },
    );
  }
  code.push(
    { label: "allow" },
    { op: "ret", k: SECCOMP_RET_ALLOW },
    { label: "eperm" },
    { op: "ret", k: SECCOMP_RET_ERRNO | EPERM },
    { label: "enosys" },
    { op: "ret", k: SECCOMP_RET_ERRNO | ENOSYS },
  );
  return assemble(code);
}

/** Resolves labels into the forward jump offsets classic BPF has (0 to 255 instructions). */
function assemble(code: readonly Instruction[]): Buffer {
  const labels = new Map<string, number>();
  const instructions: Exclude<Instruction, { label: string }>[] = [];
  for (const item of code) {
    if ("label" in item) labels.set(item.label, instructions.length);
    else instructions.push(item);
  }
  const out = Buffer.alloc(instructions.length * 8);
  instructions.forEach((insn, index) => {
    const jump = (target: Target): number => {
      if (target === 0) return 0;
      const to = labels.get(target);
      if (to === undefined) throw new Error(`seccomp filter: no label ${target}`);
      const offset = to - index - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp filter: jump to ${target} out of range`);
      return offset;
    };
    let opcode: number;
    let jt = 0;
    let jf = 0;
    let k: number;
    switch (insn.op) {
      case "ld":
        opcode = LD_W_ABS;
        k = insn.offset;
        break;
      case "jeq":
      case "jset":
        opcode = insn.op === "jeq" ? JMP_JEQ_K : JMP_JSET_K;
        jt = jump(insn.jt);
        jf = jump(insn.jf);
        k = insn.k;
        break;
      case "ret":
        opcode = RET_K;
        k = insn.k;
        break;
    }
    // The kernel reads the program in the machine's byte order; both machines are little-endian.
    out.writeUInt16LE(opcode, index * 8);
    out.writeUInt8(jt, index * 8 + 2);
    out.writeUInt8(jf, index * 8 + 3);
    out.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return out;
}
