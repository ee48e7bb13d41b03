/**
 * The `bash` tool through a real Pod, the mock provider and real bubblewrap: sandboxed commands
 * run without asking and stream their output; without a sandbox, and for always-ask patterns, the
 * Pod asks, and "allow for this session" allows a command prefix, not the tool.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ToolResultItem } from "@yoake/llm-worker";
import { afterAll, describe, expect, it } from "vitest";
import type { Pod } from "../src/pod.js";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";
import { processesWhere } from "./support/shell-test-kit.js";

const bed = usePodTestbed();
const bash = (command: string, extra: Record<string, unknown> = {}) =>
  toolCall("bash", { command, ...extra });

/** A PATH with bash but no bwrap, so the probe fails. */
const noBwrap = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-nobwrap-")));
mkdirSync(noBwrap, { recursive: true });
symlinkSync(realpathSync("/bin/bash"), path.join(noBwrap, "bash"));
afterAll(() => rmSync(noBwrap, { recursive: true, force: true }));

function lastResult(pod: Pod): ToolResultItem {
  const result = pod.history.findLast((item) => item.type === "tool_result");
  if (result?.type !== "tool_result") throw new Error("no tool result");
  return result;
}

describe("bash in a Pod", () => {
  it("runs a sandboxed command without asking, streaming its output as tool_progress", async () => {
    const { createPod, mock, events } = bed();
    mock.enqueue(bash("echo one; echo two"), answer("done"));
    const pod = await createPod();
    expect(await pod.run("go")).toMatchObject({ status: "finished", text: "done" });
    expect(lastResult(pod).content).toMatch(/^one\ntwo\n\[exit code 0 · /);
    const progress = events(pod).filter((event) => event.type === "tool_progress");
    expect(progress.map((event) => event.type === "tool_progress" && event.text).join("")).toBe("one\ntwo\n");
    await pod.close();
  });

  it("asks before every command without a sandbox, showing it unsandboxed; allow_session allows the prefix", async () => {
    const { createPod, mock, project } = bed();
    mock.enqueue(
      bash("echo one > a.txt"),
      answer("1"),
      bash("echo one two"),
      answer("2"),
      bash("echo three"),
      answer("3"),
    );
    const pod = await createPod({}, { PATH: noBwrap });
    expect(pod.manifest.warnings.join("\n")).toContain("bubblewrap (bwrap) is not on PATH");

    const first = await pod.run("first");
    expect(first.permissionRequest).toMatchObject({
      tool: "bash",
      command: {
        sandboxed: false,
        reason: "unsandboxed: nothing confines this command",
        sessionAllows: { kind: "exact", text: "echo one > a.txt" },
      },
    });
    expect(existsSync(path.join(project, "a.txt"))).toBe(false);
    await pod.respond(first.permissionRequest?.id ?? "", "allow_once");
    expect(existsSync(path.join(project, "a.txt"))).toBe(true);
    expect(lastResult(pod).content).toContain("not sandboxed");

    const second = await pod.run("second");
    expect(second.permissionRequest?.command?.sessionAllows).toEqual({ kind: "prefix", text: "echo one" });
    await pod.respond(second.permissionRequest?.id ?? "", "allow_session");
    // Only commands starting with "echo one" are allowed now, not the tool.
    const third = await pod.run("third");
    expect(third.permissionRequest?.arguments).toEqual({ command: "echo three" });
    await pod.close();
  });

  it("asks for a command matching an always-ask pattern inside the sandbox, and only for it", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(
      bash("git status --short"),
      answer("1"),
      bash("cd sub && git push origin main"),
      answer("2"),
    );
    const pod = await createPod({ shell: { always_ask: ["git push", "rm -rf"] } });
    expect(await pod.run("status")).toMatchObject({ status: "finished" });
    const push = await pod.run("push");
    expect(push.permissionRequest?.command).toMatchObject({
      sandboxed: true,
      reason: 'matches the always-ask pattern "git push"',
      sessionAllows: { kind: "exact", text: "cd sub && git push origin main" },
    });
    await pod.close();
  });

  it("asks nothing with [shell] ask = false (what --yes sets), even unsandboxed", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(bash("echo free"), answer("ok"));
    const pod = await createPod({ shell: { ask: false, always_ask: ["echo"] } }, { PATH: noBwrap });
    expect(await pod.run("go")).toMatchObject({ status: "finished" });
    expect(lastResult(pod).content).toMatch(/^free\n/);
    await pod.close();
  });

  it("kills a background command when the Pod closes", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(bash(`sleep ${SLEEP_SECONDS}`, { run_in_background: true }), answer("started"));
    const pod = await createPod();
    await pod.run("start a server");
    expect(lastResult(pod).content).toContain("Started in the background as bg1");
    const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
    while (sandboxedSleeps() === 0) await tick();
    await pod.close();
    // The kernel takes the namespace down right after: wait for it, without a time assertion.
    while (sandboxedSleeps() > 0) await tick();
    expect(sandboxedSleeps()).toBe(0);
  });
});

/**
 * How long the background command of the test above sleeps: unique to this test process, so a
 * command some other run left behind on this machine is never counted as this one's.
 */
const SLEEP_SECONDS = `600.${process.pid}`;

/** This test process's `sleep` commands alive on this machine. */
function sandboxedSleeps(): number {
  return processesWhere((cmdline) => cmdline === `sleep\u0000${SLEEP_SECONDS}\u0000`).length;
}
