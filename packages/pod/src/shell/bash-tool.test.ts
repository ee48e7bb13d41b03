import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exitCode, processesWhere, shellBed } from "../../test/support/shell-test-kit.js";

describe("the bash tool", () => {
  it("runs in the project directory and returns stdout and stderr interleaved, the exit code and the duration", async () => {
    const { bash, project } = await shellBed();
    const result = await bash({ command: "pwd; echo out; echo err >&2; echo out2; exit 3" });
    expect(result).toMatch(new RegExp(`^${project}\nout\nerr\nout2\n\\[exit code 3 · \\d+\\.\\d s\\]$`));
  });

  it("does not carry cd over to the next call", async () => {
    const { bash, project } = await shellBed({ files: { "sub/x": "" } });
    expect(await bash({ command: "cd sub && pwd" })).toContain(`${project}/sub\n`);
    expect(await bash({ command: "pwd" })).toContain(`${project}\n`);
  });

  it("reads stdin from /dev/null, so a command waiting for input ends at once", async () => {
    const { bash } = await shellBed();
    const result = await bash({ command: "cat; wc -c; echo done" });
    expect(result).toContain("0\ndone\n[exit code 0");
  });

  it("writes into the project, as a compiler would", async () => {
    const { bash, project } = await shellBed({
      files: { "main.c": '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n' },
    });
    const result = await bash({ command: "mkdir -p out && cc -o out/main main.c && ./out/main" });
    expect(result).toContain("built");
    expect(existsSync(path.join(project, "out", "main"))).toBe(true);
  });

  it("streams the output to progress as it is written", async () => {
    const { bash } = await shellBed();
    const pieces: string[] = [];
    await bash(
      { command: "for i in 1 2 3; do echo line$i; done" },
      { progress: (text) => pieces.push(text) },
    );
    expect(pieces.join("")).toBe("line1\nline2\nline3\n");
  });

  it("kills the command and everything it started at the time limit, and says so with the output so far", async () => {
    const { bash, project } = await shellBed();
    const marker = path.join(project, "still-alive");
    const result = await bash({
      command: `echo started; (sleep 3; touch ${marker}) & sleep 60`,
      timeout_ms: 1000,
    });
    expect(result).toContain("started\n");
    expect(result).toContain("killed: still running after the 1000 ms time limit");
    // The child that would have touched the file went with the group.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(existsSync(marker)).toBe(false);
  });

  it("kills what the command left running with & when it ends", async () => {
    const { bash, project } = await shellBed();
    const marker = path.join(project, "left-behind");
    const result = await bash({ command: `(sleep 2; touch ${marker}) & echo quick` });
    expect(exitCode(result)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(marker)).toBe(false);
  });

  it("stops the command on abort", async () => {
    const { bash } = await shellBed();
    const abort = new AbortController();
    const pending = bash(
      { command: "echo begun; sleep 60" },
      {
        signal: abort.signal,
        progress: (text) => {
          if (text.includes("begun")) abort.abort();
        },
      },
    );
    expect(await pending).toContain("killed: the user stopped the run");
  });

  it("refuses a time limit above the maximum", async () => {
    const { bash } = await shellBed({ overrides: { shell: { max_timeout_ms: 5000 } } });
    await expect(bash({ command: "true", timeout_ms: 6000 })).rejects.toThrow(/timeout_ms/);
  });

  it("runs a background command that outlives the call until read and killed through bash_output", async () => {
    const { bash, bashOutput, project } = await shellBed();
    const started = await bash({
      command: "echo first; while true; do if [ -e go ]; then echo second; exit 0; fi; sleep 0.1; done",
      run_in_background: true,
    });
    const id = /as (bg\d+)/.exec(started)?.[1] ?? "";
    expect(id).toBe("bg1");
    // Polling yields to the event loop between reads, or the output could never arrive.
    const poll = () => new Promise((resolve) => setTimeout(resolve, 50));
    let first = "";
    while (!first.includes("first")) {
      await poll();
      first = await bashOutput({ id });
    }
    expect(first).toContain("still running");
    writeFileSync(path.join(project, "go"), "");
    let rest = "";
    while (!rest.includes("exit code")) {
      await poll();
      rest += await bashOutput({ id });
    }
    expect(rest).toContain("second\n");
    expect(rest).not.toContain("first");
    expect(rest).toContain("[bg1: exit code 0]");
  });

  it("kills background commands when the shell closes", async () => {
    const { bash, bashOutput, shell } = await shellBed();
    const started = await bash({ command: "sleep 60", run_in_background: true });
    const id = /as (bg\d+)/.exec(started)?.[1] ?? "";
    await shell.close();
    expect(await bashOutput({ id })).toContain("killed: the Pod closed");
    await expect(bashOutput({ id: "bg9" })).rejects.toThrow(/no background command/);
  });

  it("starts no command once the shell is closing, even one whose launch was under way", async () => {
    const { shell } = await shellBed();
    // Unique to this test process: a command left by another run is never counted.
    const marker = `600.${process.pid}1`;
    const sleeps = () => processesWhere((cmdline) => cmdline === `sleep\u0000${marker}\u0000`);
    try {
      const starting = shell.startBackground(`sleep ${marker}`);
      await shell.close();
      await expect(starting).rejects.toThrow(/the Pod is closing/);
      expect(sleeps()).toEqual([]);
    } finally {
      for (const pid of sleeps()) process.kill(pid, "SIGKILL");
    }
  });

  it("keeps the start and the end of a huge output, and says how much it dropped", async () => {
    const { bash } = await shellBed();
    const result = await bash({
      command: "echo FIRST; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo LAST",
    });
    expect(result.startsWith("FIRST\n")).toBe(true);
    expect(result).toMatch(/bytes of output not kept/);
    expect(result).toMatch(/LAST\n\[exit code 0/);
  });
});
