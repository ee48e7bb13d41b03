import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Hook } from "@yoake/llm-worker";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookEvent, HookSpec } from "../manifest/resolve.js";
import type { Alert } from "../pod/alert.js";
import { createShellHooks } from "./shell-hook.js";

let dir: string;
let alerts: Alert[];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-shell-hook-")));
  alerts = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function hookFor(event: HookEvent, command: string, extra: Partial<HookSpec> = {}): Hook {
  const spec: HookSpec = {
    name: "h",
    event,
    command,
    timeoutMs: 5_000,
    sandbox: true,
    source: "test",
    ...extra,
  };
  const [hook] = createShellHooks([spec], {
    projectRoot: dir,
    env: { PATH: process.env.PATH },
    alert: (alert) => alerts.push(alert),
  });
  return hook as Hook;
}

const call = { callId: "c1", name: "write_file", arguments: { path: "a.txt", content: "x" } };
const result = { callId: "c1", name: "write_file", isError: false, summary: "wrote a.txt" };

describe.skipIf(process.platform === "win32")("shell hooks", () => {
  it("implement only their own event", () => {
    const hook = hookFor("before_tool", "true");
    expect(Object.keys(hook).sort()).toEqual(["beforeToolCall", "name"]);
  });

  it("get the moment as JSON on stdin, with the event and the project root", async () => {
    const seen = path.join(dir, "seen.json");
    await hookFor("before_tool", `cat > ${seen}`).beforeToolCall?.(call);
    expect(JSON.parse(readFileSync(seen, "utf8"))).toEqual({
      event: "before_tool",
      project_root: dir,
      tool: "write_file",
      call_id: "c1",
      arguments: { path: "a.txt", content: "x" },
    });
    await hookFor("turn_end", `cat > ${seen}`).onTurnEnd?.({ turn: 2, text: "done" });
    expect(JSON.parse(readFileSync(seen, "utf8"))).toEqual({
      event: "turn_end",
      project_root: dir,
      turn: 2,
      text: "done",
    });
  });

  it("continue on exit 0 with no output, with {action: continue}, and with plain log lines", async () => {
    for (const command of ["true", `echo '{"action":"continue"}'`, "echo checking things"]) {
      expect(await hookFor("before_tool", command).beforeToolCall?.(call)).toBeUndefined();
    }
    expect(alerts).toEqual([]);
  });

  it("block with exit code 2, stderr being the reason the model reads", async () => {
    const action = await hookFor("before_tool", "echo 'no writes on Fridays' >&2; exit 2").beforeToolCall?.(
      call,
    );
    expect(action).toEqual({ action: "skip", reason: "no writes on Fridays" });
    expect(alerts).toEqual([
      {
        level: "info",
        message: 'hook "h" (before_tool) blocked write_file: no writes on Fridays',
        source: "hook:h",
      },
    ]);
  });

  it("give each event's block its meaning", async () => {
    const block = `echo '{"action":"block","reason":"because"}'`;
    expect(await hookFor("prompt_submit", block).onPromptSubmit?.({ text: "hi" })).toEqual({
      action: "cancel",
      reason: "because",
    });
    expect(await hookFor("after_tool", block).afterToolCall?.(result)).toEqual({
      action: "abort",
      reason: "because",
    });
    expect(await hookFor("turn_end", block).onTurnEnd?.({ turn: 1, text: "done" })).toEqual({
      action: "continue",
      items: [{ type: "message", role: "system", text: 'Hook "h" did not let the turn end: because' }],
    });
    expect(
      await hookFor("before_tool", `echo '{"action":"abort","reason":"stop"}'`).beforeToolCall?.(call),
    ).toEqual({ action: "abort", reason: "stop" });
  });

  it("only run for the tools their matcher names", async () => {
    const marker = path.join(dir, "ran");
    const hook = hookFor("before_tool", `touch ${marker}; exit 2`, { matcher: "edit_*|read_file" });
    expect(await hook.beforeToolCall?.(call)).toBeUndefined();
    expect(await hook.beforeToolCall?.({ ...call, name: "edit_file" })).toMatchObject({ action: "skip" });
  });

  it("count as continue, with a warning, when they fail, time out or answer nonsense", async () => {
    const cases: Array<[string, string]> = [
      ["echo broken >&2; exit 1", 'hook "h" (before_tool) failed with exit code 1: broken'],
      ["sleep 5", 'hook "h" (before_tool) timed out after 200 ms and was stopped'],
      [`echo '{"action":'`, 'hook "h" (before_tool) printed JSON that does not parse: {"action":'],
      [`echo '{"verdict":"no"}'`, 'hook "h" (before_tool) answered {"verdict":"no"}; expected'],
      [`echo '{"action":"rewrite"}'`, 'answered action "rewrite", which before_tool does not know'],
    ];
    for (const [command, message] of cases) {
      alerts = [];
      const action = await hookFor("before_tool", command, { timeoutMs: 200 }).beforeToolCall?.(call);
      expect(action, command).toBeUndefined();
      expect(alerts, command).toHaveLength(1);
      expect(alerts[0]?.level).toBe("warn");
      expect(alerts[0]?.message).toContain(message);
      expect(alerts[0]?.message).toContain("the run went on as if it said continue");
    }
  });
});
