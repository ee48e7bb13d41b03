/**
 * The manifest's `[[hooks]]` through a real Pod: real child processes, the real file tools, the
 * mock provider over HTTP. The hooks are declared in the project's `.yoake/manifest.toml`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ProjectTrustError } from "../src/manifest/project-trust-error.js";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";
import { pathWithoutBwrap } from "./support/shell-test-kit.js";

const bed = usePodTestbed();

const manifestWith = (toml: string) => bed().put(".yoake/manifest.toml", toml);

describe.skipIf(process.platform === "win32")("Pod hooks", () => {
  it("a before_tool hook that exits 2 blocks the tool; the model reads its stderr", async () => {
    const { createPod, mock, project, sent } = bed();
    manifestWith(`
      [[hooks]]
      name = "generated-guard"
      event = "before_tool"
      matcher = "write_file|edit_file"
      command = "grep -q '\\"path\\":\\"gen/' && { echo 'gen/ is generated: edit the template instead' >&2; exit 2; } || exit 0"
    `);
    mock.enqueue(
      toolCall("write_file", { path: "gen/out.ts", content: "x" }),
      toolCall("write_file", { path: "src/ok.ts", content: "y" }),
      answer("done"),
    );
    const pod = await createPod({ tools: { approve: [] } });

    const result = await pod.run("write both");

    expect(result).toMatchObject({ status: "finished", text: "done" });
    expect(existsSync(path.join(project, "gen/out.ts"))).toBe(false);
    expect(readFileSync(path.join(project, "src/ok.ts"), "utf8")).toBe("y");
    const blocked = pod.history.find((item) => item.type === "tool_result");
    expect(blocked).toMatchObject({
      isError: true,
      content:
        "[skipped by generated-guard: gen/ is generated: edit the template instead] write_file was not run.",
    });
    expect(sent(1)).toContain("gen/ is generated: edit the template instead");
    const alerts = bed()
      .events(pod)
      .filter((e) => e.type === "alert");
    expect(alerts).toEqual([
      {
        type: "alert",
        level: "info",
        message:
          'hook "generated-guard" (before_tool) blocked write_file: gen/ is generated: edit the template instead',
        source: "hook:generated-guard",
      },
    ]);
  });

  it("a hook that times out is stopped, raises a Warn alert, and the turn goes on", async () => {
    const { createPod, mock, project } = bed();
    manifestWith(`
      [[hooks]]
      name = "slow"
      event = "before_tool"
      command = "sleep 10"
      timeout_ms = 300
    `);
    mock.enqueue(toolCall("write_file", { path: "a.txt", content: "a" }), answer("done"));
    const pod = await createPod({ tools: { approve: [] } });

    const started = performance.now();
    const result = await pod.run("write");

    expect(result).toMatchObject({ status: "finished", text: "done" });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(readFileSync(path.join(project, "a.txt"), "utf8")).toBe("a");
    expect(
      bed()
        .events(pod)
        .filter((e) => e.type === "alert"),
    ).toEqual([
      {
        type: "alert",
        level: "warn",
        message:
          'hook "slow" (before_tool) timed out after 300 ms and was stopped; the run went on as if it said continue',
        source: "hook:slow",
      },
    ]);
  });

  it("a prompt_submit hook can cancel the run before the prompt enters history", async () => {
    const { createPod, mock } = bed();
    manifestWith(`
      [[hooks]]
      name = "no-secrets"
      event = "prompt_submit"
      command = "grep -qi password && echo '{\\"action\\":\\"cancel\\",\\"reason\\":\\"do not paste passwords\\"}' || true"
    `);
    mock.enqueue(answer("fine"));
    const pod = await createPod();

    expect(await pod.run("my password is hunter2")).toMatchObject({
      status: "cancelled",
      reason: "do not paste passwords",
      by: "no-secrets",
    });
    expect(pod.history).toEqual([]);
    expect(mock.requests).toHaveLength(0);
    expect(await pod.run("hello")).toMatchObject({ status: "finished", text: "fine" });
  });

  it("a turn_end hook that blocks keeps the model going with its reason", async () => {
    const { createPod, mock, base, sent } = bed();
    const counter = path.join(base, "turns");
    // Blocks the first time only: the model is told the tests fail, then it may stop. It keeps
    // its count outside the project, so it runs on the host (a sandboxed hook writes nothing).
    manifestWith(`
      [[hooks]]
      name = "tests"
      event = "turn_end"
      sandbox = false
      command = "if [ -e '${counter}' ]; then exit 0; fi; touch '${counter}'; echo 'tests fail: fix them' >&2; exit 2"
    `);
    mock.enqueue(answer("all done"), answer("fixed"));
    const pod = await createPod();

    expect(await pod.run("do it")).toMatchObject({ status: "finished", text: "fixed", turns: 2 });
    expect(sent(1)).toContain('Hook \\"tests\\" did not let the turn end: tests fail: fix them');
  });

  it("after the user's approval, before_tool hooks still have their say", async () => {
    const { createPod, mock, project } = bed();
    manifestWith(`
      [[hooks]]
      name = "deny-all-writes"
      event = "before_tool"
      matcher = "write_file"
      command = "echo '{\\"action\\":\\"block\\",\\"reason\\":\\"frozen\\"}'"
    `);
    mock.enqueue(toolCall("write_file", { path: "a.txt", content: "a" }), answer("ok"));
    const pod = await createPod();
    const paused = await pod.run("write");
    expect(await pod.respond(paused.permissionRequest?.id ?? "", "allow_once")).toMatchObject({
      status: "finished",
    });
    expect(existsSync(path.join(project, "a.txt"))).toBe(false);
  });

  it("a project's sandbox = false hook is refused until trusted; the refusal names it, on the host, with its command", async () => {
    const { createPod, project, mock } = bed();
    manifestWith(`
      [[hooks]]
      name = "notify"
      event = "turn_end"
      sandbox = false
      command = "./scripts/notify.sh"

      [[hooks]]
      event = "before_tool"
      command = "./scripts/guard.sh"
    `);
    bed().put("scripts/notify.sh", "#!/bin/sh\ntouch notified\n");
    const refused = await createPod({}, {}, "refuse").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProjectTrustError);
    expect((refused as ProjectTrustError).requests).toEqual([
      {
        kind: "hook",
        key: "hooks[0]",
        description:
          'run the shell command "./scripts/notify.sh" at turn_end on your machine, unsandboxed (sandbox = false), with your rights: whatever project files it runs, the agent can rewrite first',
      },
      {
        kind: "hook",
        key: "hooks[1]",
        description:
          'run the shell command "./scripts/guard.sh" at before_tool, in the sandbox with the project read-only',
      },
    ]);
    expect(mock.requests).toHaveLength(0);
    expect(existsSync(path.join(project, "notified"))).toBe(false);
  });

  it("without a working sandbox, hooks run on the host, and the warning and the trust prompt say so", async () => {
    const { createPod, project, base, mock } = bed();
    manifestWith(`
      [[hooks]]
      event = "turn_end"
      command = "touch made-on-the-host"
    `);
    const PATH = pathWithoutBwrap(path.join(base, "bin-without-bwrap"));
    const refused = await createPod({}, { PATH }, "refuse").catch((error: unknown) => error);
    expect((refused as ProjectTrustError).requests.map((request) => request.description)).toEqual([
      'run the shell command "touch made-on-the-host" at turn_end on your machine, unsandboxed (no sandbox works here: bubblewrap (bwrap) is not on PATH), with your rights: whatever project files it runs, the agent can rewrite first',
    ]);

    mock.enqueue(answer("done"));
    const pod = await createPod({}, { PATH });
    expect(pod.manifest.warnings).toContain(
      'no sandbox for hooks: bubblewrap (bwrap) is not on PATH; the hooks "touch made-on-the-host" run on your machine, unsandboxed, with your rights, and whatever project files they run the agent can rewrite first. Fix: install it: apt install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora), pacman -S bubblewrap (Arch)',
    );
    expect(await pod.run("go")).toMatchObject({ status: "finished" });
    expect(existsSync(path.join(project, "made-on-the-host"))).toBe(true);
  });

  it("with a working sandbox, the same hook cannot write the project, and says why", async () => {
    const { createPod, project, mock } = bed();
    manifestWith(`
      [[hooks]]
      event = "turn_end"
      command = "touch made-on-the-host"
    `);
    mock.enqueue(answer("done"));
    const pod = await createPod();
    expect(pod.manifest.warnings.filter((warning) => warning.includes("no sandbox"))).toEqual([]);
    expect(await pod.run("go")).toMatchObject({ status: "finished" });
    expect(existsSync(path.join(project, "made-on-the-host"))).toBe(false);
    expect(
      bed()
        .events(pod)
        .filter((e) => e.type === "alert")
        .map((e) => (e as { message: string }).message),
    ).toEqual([expect.stringMatching(/failed with exit code 1: .*Read-only file system/)]);
  });

  it("with the bash tool disabled, hooks are still sandboxed", async () => {
    const { createPod, project, mock } = bed();
    manifestWith(`
      [tools]
      disable = ["bash", "bash_output"]

      [[hooks]]
      event = "turn_end"
      command = "touch made-on-the-host"
    `);
    mock.enqueue(answer("done"));
    const pod = await createPod();
    expect(await pod.run("go")).toMatchObject({ status: "finished" });
    expect(existsSync(path.join(project, "made-on-the-host"))).toBe(false);
  });
});
