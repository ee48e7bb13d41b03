import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runCommand } from "../src/worker/command-relay.js";

const sh = (script: string) => runCommand({ file: "sh", args: ["-c", script], cwd: "/", env: process.env });

/** The parent of process `pid`, from /proc. */
const parentOf = (pid: number) =>
  Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);

describe("runCommand", () => {
  it("starts commands from a relay process, not from this one, and answers each by its own outcome", async () => {
    const outcomes = await Promise.all([
      sh("echo $PPID"),
      sh("echo out; echo err >&2; exit 7"),
      runCommand({ file: "sh", args: ["-c", 'echo "$ONLY_HERE"'], cwd: "/tmp", env: { ONLY_HERE: "set" } }),
    ]);
    const relay = Number(outcomes[0]?.stdout.trim());
    expect(relay).not.toBe(process.pid);
    expect(parentOf(relay)).toBe(process.pid);
    expect(outcomes[1]).toEqual({ code: 7, stdout: "out\n", stderr: "err\n" });
    expect(outcomes[2]?.stdout).toBe("set\n");
    // One relay for every command.
    expect((await sh("echo $PPID")).stdout.trim()).toBe(String(relay));
  });

  it("fails the commands under way when its relay dies, and starts a new relay for the next", async () => {
    const relay = Number((await sh("echo $PPID")).stdout.trim());
    const underWay = sh("sleep 5");
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(relay, "SIGKILL");
    await expect(underWay).rejects.toThrow(/the command relay exited \(SIGKILL\)/);
    const next = Number((await sh("echo $PPID")).stdout.trim());
    expect(next).not.toBe(relay);
    expect((await sh("echo again")).stdout).toBe("again\n");
  });

  it("rejects a command that cannot be started, with the reason", async () => {
    await expect(
      runCommand({ file: "/nonexistent/git", args: [], cwd: "/", env: process.env }),
    ).rejects.toThrow(/ENOENT/);
  });

  it("does not keep an idle process alive", async () => {
    // A process that ran a command through the relay and has nothing left to do exits by itself.
    const program = `import { runCommand } from ${JSON.stringify(new URL("../src/worker/command-relay.ts", import.meta.url).pathname)};
const outcome = await runCommand({ file: "git", args: ["--version"], cwd: "/", env: process.env });
console.log(outcome.stdout.trim());`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", program],
      { timeout: 60_000 },
    );
    expect(stdout).toMatch(/^git version/);
  });
});
