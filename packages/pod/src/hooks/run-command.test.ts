import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_CAPTURED_BYTES, runHookCommand } from "./run-command.js";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-hook-cmd-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, input = "", timeoutMs = 5_000) =>
  runHookCommand(command, { input, cwd: dir, env: { PATH: process.env.PATH, GREETING: "hi" }, timeoutMs });

describe.skipIf(process.platform === "win32")("runHookCommand", () => {
  it("gives the command its input on stdin, its cwd and env, and returns its output and exit code", async () => {
    const outcome = await run('cat; echo " $GREETING from $(pwd)"; echo oops >&2; exit 3', '{"event":"x"}');
    expect(outcome).toEqual({
      kind: "exited",
      code: 3,
      stdout: `{"event":"x"} hi from ${dir}\n`,
      stderr: "oops\n",
    });
  });

  it("does not mind a command that never reads its input", async () => {
    const outcome = await run("exit 0", "x".repeat(1_000_000));
    expect(outcome).toMatchObject({ kind: "exited", code: 0 });
  });

  it("kills the whole process group at the time limit, children included", async () => {
    const marker = path.join(dir, "survived");
    const started = performance.now();
    // The shell waits on a child that would leave a marker if it outlived the limit.
    const outcome = await run(`(sleep 1.5; touch ${marker}) & wait`, "", 300);
    expect(outcome.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1_200);
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(existsSync(marker)).toBe(false);
  });

  it("is done when the shell exits, even if a background process keeps its stdout open", async () => {
    const started = performance.now();
    const outcome = await run("sleep 3 & echo started", "", 5_000);
    expect(outcome).toMatchObject({ kind: "exited", code: 0, stdout: "started\n" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("reports a command killed by a signal", async () => {
    expect(await run("kill -9 $$")).toMatchObject({ kind: "signaled", signal: "SIGKILL" });
  });

  it("reports a working directory that does not exist as a failure to start", async () => {
    const outcome = await runHookCommand("true", {
      input: "",
      cwd: path.join(dir, "missing"),
      env: { PATH: process.env.PATH },
      timeoutMs: 1_000,
    });
    expect(outcome.kind).toBe("spawn_failed");
  });

  it("keeps at most MAX_CAPTURED_BYTES of output", async () => {
    const outcome = await run(`head -c ${MAX_CAPTURED_BYTES * 2} /dev/zero | tr '\\0' 'a'`);
    expect(outcome.kind === "exited" && outcome.stdout.length).toBe(MAX_CAPTURED_BYTES);
  });
});
