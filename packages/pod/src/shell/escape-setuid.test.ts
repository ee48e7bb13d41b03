/**
 * The escape suite, setuid class: commands through the real `bash` tool in the real bubblewrap
 * sandbox try to leave a setuid or setgid file in the project, with every tool a model would
 * reach for (chmod, install, cp --preserve, tar, Python, Perl, mknod) and with raw system calls
 * from a C program (every mode-taking call, 64-bit arguments with garbage in the high half, the
 * i386 ABI through `int 0x80`, the x32 ABI, O_TMPFILE). After each command the host stats every
 * file of the project: none may carry S_ISUID or S_ISGID. The count of attempts is printed.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, lstatSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCode, type ShellBed, shellBed } from "../../test/support/shell-test-kit.js";
import { findOnPath } from "./sandbox-probe.js";

let bed: ShellBed;
let attempts = 0;
const planted: string[] = [];

/** Every path under the project whose mode has a setuid or setgid bit, as the host sees it. */
function setidFiles(): string[] {
  return readdirSync(bed.project, { recursive: true, withFileTypes: true })
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => (lstatSync(file).mode & 0o6000) !== 0);
}

/** One command as the model would send it; records any file it left setuid/setgid. */
async function attempt(command: string, count = 1): Promise<string> {
  attempts += count;
  const output = await bed.bash({ command, timeout_ms: 60_000 });
  const found = setidFiles();
  if (found.length > 0) {
    planted.push(`${command} → ${found.join(", ")}\n${output}`);
    // Take the bits away on the host, so the next attempt is judged on its own.
    for (const file of found) chmodSync(file, lstatSync(file).mode & 0o1777);
  }
  return output;
}

beforeAll(async () => {
  bed = await shellBed({ parentDir: "/var/tmp", shared: true, files: { "README.md": "# project\n" } });
  // A setuid file outside the project, and a tar holding one, for copies that preserve modes.
  const source = path.join(bed.outside, "suid-true");
  copyFileSync("/bin/true", source);
  chmodSync(source, 0o6755);
  execFileSync("tar", [
    "--mode=u+s",
    "-cf",
    path.join(bed.outside, "suid.tar"),
    "-C",
    bed.outside,
    "suid-true",
  ]);
});

afterAll(async () => {
  await bed.dispose();
});

const MODES = ["4755", "2755", "6755", "4711", "2711", "4000", "2000", "4777"];
const SYMBOLIC = ["u+s", "g+s", "ug+s", "+s", "a+s", "u=rwxs", "g=rxs", "o+rx,u+s"];

describe("the escape suite: setuid and setgid bits", () => {
  it("no tool a command can reach sets them on a file in the project", async () => {
    for (const mode of MODES) {
      const octal = `0o${mode}`;
      await attempt(`cp /bin/true f${mode} && chmod ${mode} f${mode}; ls -l f${mode}`);
      await attempt(`install -m ${mode} /bin/true i${mode}`);
      await attempt(`umask 0; install -m ${mode} /bin/true u${mode}`);
      await attempt(`python3 -c 'import os; os.chmod("f${mode}", ${octal})'`);
      await attempt(`python3 -c 'import os; fd = os.open("f${mode}", os.O_RDONLY); os.fchmod(fd, ${octal})'`);
      await attempt(
        `python3 -c 'import os; os.chmod("f${mode}", ${octal}, dir_fd=os.open(".", os.O_RDONLY))'`,
      );
      await attempt(
        `python3 -c 'import os; os.close(os.open("o${mode}", os.O_CREAT | os.O_WRONLY, ${octal}))'; ls -l o${mode}`,
      );
      await attempt(`python3 -c 'import os, stat; os.mknod("n${mode}", stat.S_IFREG | ${octal})'`);
      await attempt(`perl -e 'chmod(0${mode}, "f${mode}") or die "perl chmod: $!\\n"'`);
      await attempt(
        `perl -e 'use Fcntl; sysopen(my $f, "p${mode}", O_CREAT|O_WRONLY, 0${mode}) or die "$!\\n"'`,
      );
      await attempt(`mkdir -p d${mode} && chmod ${mode} d${mode}`);
    }
    for (const symbolic of SYMBOLIC) {
      await attempt(`cp /bin/true s && chmod ${symbolic} s; stat -c %a s`);
      await attempt(`mkdir -p sd && chmod ${symbolic} sd`);
      await attempt(`find . -name s -exec chmod ${symbolic} {} +`);
    }
    await attempt(`cp --preserve=mode ${bed.outside}/suid-true kept && ls -l kept`);
    await attempt(`cp -a ${bed.outside}/suid-true kept-a`);
    await attempt(`rsync -p ${bed.outside}/suid-true kept-r 2>&1 || echo "no rsync"`);
    await attempt(`tar -xpf ${bed.outside}/suid.tar && ls -l suid-true`);
    await attempt("mkdir -p sub && cd sub && tar --same-permissions -xf ../../outside/suid.tar");
    const denied = await attempt("cp /bin/true last && chmod 4755 last; echo status=$?");
    expect(denied).toContain("Operation not permitted");
    expect(denied).toContain("status=1");
    console.log(`setuid escape suite (tools): ${attempts} attempts, ${planted.length} planted`);
    expect(planted).toEqual([]);
  }, 300_000);

  it("no raw system call sets them either, on any ABI", async () => {
    if ((await findOnPath("cc", process.env.PATH ?? "")) === undefined) {
      console.log("setuid escape suite (system calls): skipped, no C compiler (cc) on PATH");
      return;
    }
    writeFileSync(path.join(bed.project, "setid.c"), SETID_PROGRAM);
    const compiled = await bed.bash({
      command: "cc -O0 -no-pie -static -o setid setid.c 2>&1 || cc -O0 -no-pie -o setid setid.c",
    });
    expect(exitCode(compiled)).toBe(0);
    const before = attempts;
    const output = await attempt("./setid", 0);
    const lines = output.split("\n").filter((line) => line.startsWith("attempt "));
    attempts += lines.length;
    console.log(`setuid escape suite (system calls): ${lines.length} attempts`);
    expect(lines.length).toBeGreaterThan(100);
    // The filter answers each of them itself: EPERM (the kernel would have said 0, or ENOSYS for x32).
    expect(lines.filter((line) => !line.endsWith("errno=1"))).toEqual([]);
    expect(output).toContain("io_uring_setup errno=38");
    expect(output).toContain("openat2 errno=38");
    expect(output).toContain("TIOCSTI errno=1");
    expect(output).toContain("plain chmod 0755 ok");
    expect(attempts - before).toBe(lines.length);
    expect(planted).toEqual([]);
  }, 120_000);
});

/**
 * Tries every mode-taking system call with each setuid/setgid mode, each on its own file, and
 * prints one `attempt` line per call with its errno (0: the call succeeded). The host then
 * looks at the files. i386 calls go through `int 0x80` from this 64-bit program (static, no PIE:
 * its data lies below 4 GiB, where 32-bit pointers reach), x32 calls through `syscall` with the
 * x32 bit set; both are x86_64 only.
 */
const SETID_PROGRAM = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char name[64];
static int counter;

static const char *fresh(void) {
  snprintf(name, sizeof name, "sys-%d", counter++);
  int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0755);
  if (fd >= 0) close(fd);
  return name;
}
static const char *unused(void) {
  snprintf(name, sizeof name, "sys-%d", counter++);
  return name;
}
static void report(const char *abi, const char *call, long mode, long result) {
  printf("attempt abi=%s %s mode=%lo file=%s errno=%d\n", abi, call, mode, name, result < 0 ? errno : 0);
}

#if defined(__x86_64__)
static long int80(long nr, long a, long b, long c, long d) {
  long ret;
  __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
  if (ret < 0) { errno = -ret; return -1; }
  return ret;
}
static long x32(long nr, long a, long b, long c, long d) {
  return syscall(nr | 0x40000000L, a, b, c, d);
}
#endif

int main(void) {
  const long modes[] = {04755, 02755, 06755, 04000, 02000, 04711};
  const long high[] = {0, 0x100000000L, 0x7fff000000000000L};
  for (unsigned m = 0; m < sizeof modes / sizeof *modes; m++) {
    for (unsigned h = 0; h < sizeof high / sizeof *high; h++) {
      long mode = modes[m] | high[h];
      long r;
#ifdef SYS_chmod
      fresh(); r = syscall(SYS_chmod, name, mode); report("64", "chmod", mode, r);
#endif
      fresh(); { int fd = open(name, O_RDONLY); r = syscall(SYS_fchmod, fd, mode); report("64", "fchmod", mode, r); close(fd); }
      fresh(); r = syscall(SYS_fchmodat, AT_FDCWD, name, mode); report("64", "fchmodat", mode, r);
      fresh(); r = syscall(452, AT_FDCWD, name, mode, 0); report("64", "fchmodat2", mode, r);
#ifdef SYS_open
      unused(); r = syscall(SYS_open, name, O_CREAT | O_WRONLY | high[h], mode); report("64", "open", mode, r);
#endif
      unused(); r = syscall(SYS_openat, AT_FDCWD, name, O_CREAT | O_WRONLY, mode); report("64", "openat", mode, r);
#ifdef SYS_creat
      unused(); r = syscall(SYS_creat, name, mode); report("64", "creat", mode, r);
#endif
#ifdef SYS_mknod
      unused(); r = syscall(SYS_mknod, name, S_IFREG | mode, 0); report("64", "mknod", mode, r);
#endif
      unused(); r = syscall(SYS_mknodat, AT_FDCWD, name, S_IFREG | mode, 0); report("64", "mknodat", mode, r);
      unused();
      {
        int fd = syscall(SYS_openat, AT_FDCWD, ".", O_TMPFILE | O_WRONLY, mode);
        report("64", "openat-O_TMPFILE", mode, fd);
        if (fd >= 0) {
          char proc[64];
          snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
          linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
          close(fd);
        }
      }
#if defined(__x86_64__)
      fresh(); r = int80(15, (long)name, mode, 0, 0); report("i386", "chmod", mode, r);
      fresh(); r = int80(306, AT_FDCWD, (long)name, mode, 0); report("i386", "fchmodat", mode, r);
      unused(); r = int80(5, (long)name, O_CREAT | O_WRONLY, mode, 0); report("i386", "open", mode, r);
      unused(); r = int80(8, (long)name, mode, 0, 0); report("i386", "creat", mode, r);
      unused(); r = int80(14, (long)name, S_IFREG | mode, 0, 0); report("i386", "mknod", mode, r);
      fresh(); r = x32(90, (long)name, mode, 0, 0); report("x32", "chmod", mode, r);
      fresh(); r = x32(268, AT_FDCWD, (long)name, mode, 0); report("x32", "fchmodat", mode, r);
      unused(); r = x32(257, AT_FDCWD, (long)name, O_CREAT | O_WRONLY, mode); report("x32", "openat", mode, r);
#endif
    }
  }
  struct { unsigned long long flags, mode, resolve; } how = {O_CREAT | O_WRONLY, 04755, 0};
  unused();
  long r = syscall(437, AT_FDCWD, name, &how, sizeof how);
  printf("openat2 errno=%d\n", r < 0 ? errno : 0);
  char params[120] = {0};
  r = syscall(425, 8, params);
  printf("io_uring_setup errno=%d\n", r < 0 ? errno : 0);
  char c = 'x';
  r = ioctl(0, TIOCSTI, &c);
  printf("TIOCSTI errno=%d\n", r < 0 ? errno : 0);
  fresh();
  if (chmod(name, 0755) == 0) printf("plain chmod 0755 ok\n");
  return 0;
}
`;
