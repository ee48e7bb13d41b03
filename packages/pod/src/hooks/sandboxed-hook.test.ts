/**
 * Hooks in the real bubblewrap sandbox, made read-only: the same confinement as `bash`, the
 * project read-only, input, answers, time limit and environment as on the host.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { Hook } from "@yoake/llm-worker";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processesWhere } from "../../test/support/shell-test-kit.js";
import type { HookEvent, HookSpec } from "../manifest/resolve.js";
import type { Alert } from "../pod/alert.js";
import { NO_HOST_READS } from "../shell/host-reads.js";
import type { Sandbox } from "../shell/sandbox.js";
import { probeSandbox } from "../shell/sandbox-probe.js";
import { createShellHooks } from "./shell-hook.js";

let base: string;
let project: string;
let outside: string;
let sandbox: Sandbox;
let alerts: Alert[];

beforeEach(async () => {
  // Under /var/tmp: outside the project must be a real, visible directory, not hidden by the private /tmp.
  base = realpathSync(mkdtempSync(path.join("/var/tmp", "yoake-sandboxed-hook-")));
  project = path.join(base, "project");
  outside = path.join(base, "outside");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(project, "config.json"), '{"frozen":["gen/"]}\n');
  const status = await probeSandbox(
    { root: project, allow: [{ path: ".", access: "write", recursive: true, source: "test" }], deny: [] },
    { network: false, hide: [], reads: NO_HOST_READS },
    { PATH: process.env.PATH },
  );
  if (!status.ok) throw new Error(`no sandbox: ${status.reason}`);
  sandbox = status.sandbox.readOnly();
  alerts = [];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function hookFor(event: HookEvent, command: string, extra: Partial<HookSpec> = {}): Hook {
  const spec: HookSpec = {
    name: "h",
    event,
    command,
    timeoutMs: 10_000,
    sandbox: true,
    source: "test",
    ...extra,
  };
  const [hook] = createShellHooks([spec], {
    projectRoot: project,
    env: { PATH: process.env.PATH, HOME: path.join(base, "home"), DEPLOY_TOKEN: "tok-123", GREETING: "hi" },
    sandbox,
    alert: (alert) => alerts.push(alert),
  });
  return hook as Hook;
}

const call = { callId: "c1", name: "write_file", arguments: { path: "gen/a.ts", content: "x" } };

describe.skipIf(process.platform !== "linux")("a hook in the read-only sandbox", () => {
  it("reads the project and its input and answers as on the host", async () => {
    const guard = hookFor(
      "before_tool",
      `input=$(cat); grep -q '"gen/' config.json && case "$input" in *'"path":"gen/'*) echo '{"action":"block","reason":"gen/ is frozen"}';; esac`,
    );
    expect(await guard.beforeToolCall?.(call)).toEqual({ action: "skip", reason: "gen/ is frozen" });
    expect(await guard.beforeToolCall?.({ ...call, arguments: { path: "src/a.ts" } })).toBeUndefined();
    const env = hookFor(
      "before_tool",
      'echo "$GREETING [$DEPLOY_TOKEN] $YOAKE_HOOK_EVENT $(pwd)" >&2; exit 2',
    );
    expect(await env.beforeToolCall?.(call)).toEqual({
      action: "skip",
      reason: `hi [] before_tool ${project}`,
    });
  });

  it("writes nothing in the project or outside it; its own /tmp is private", async () => {
    const hook = hookFor(
      "turn_end",
      `echo x > made.txt; echo x > .git/hooks-planted; echo x > ${outside}/made.txt; git init -q sub; ` +
        "echo ok > /tmp/scratch && cat /tmp/scratch >&2; exit 2",
    );
    expect(await hook.onTurnEnd?.({ turn: 1, text: "done" })).toMatchObject({ action: "continue" });
    expect(alerts.at(-1)?.message).toMatch(/kept the turn going: .*Read-only file system[\s\S]*ok$/);
    expect(existsSync(path.join(project, "made.txt"))).toBe(false);
    expect(existsSync(path.join(project, ".git/hooks-planted"))).toBe(false);
    expect(existsSync(path.join(project, "sub"))).toBe(false);
    expect(existsSync(path.join(outside, "made.txt"))).toBe(false);
  });

  it("with sandbox = false runs on the host, where it can write", async () => {
    await hookFor("turn_end", `echo host > ${outside}/made.txt`, { sandbox: false }).onTurnEnd?.({
      turn: 1,
      text: "done",
    });
    expect(readFileSync(path.join(outside, "made.txt"), "utf8")).toBe("host\n");
  });

  it("at the time limit takes the whole sandbox down, what it left running included", async () => {
    const hook = hookFor("before_tool", "setsid sleep 31338 & nohup sleep 31338 & sleep 31338", {
      timeoutMs: 500,
    });
    expect(await hook.beforeToolCall?.(call)).toBeUndefined();
    expect(alerts.at(-1)?.message).toContain("timed out after 500 ms and was stopped");
    const left = () => processesWhere((cmdline) => cmdline.includes("31338")).length;
    for (let i = 0; i < 100 && left() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(left()).toBe(0);
  });
});
