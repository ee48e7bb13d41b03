import type { PermissionDecision, PermissionRequest } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { KeyRouter } from "./key-router.js";
import { PermissionPrompt } from "./permission-prompt.js";

const request: PermissionRequest = {
  id: "p1",
  callId: "c1",
  tool: "edit_file",
  arguments: { path: "src/greet.ts", old_string: "Hello", new_string: "Hi" },
  preview: {
    ok: true,
    path: "src/greet.ts",
    diff: "--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1 +1 @@\n-Hello\n+Hi",
    truncated: false,
    newFile: false,
  },
};

/** Longer than ink's render throttle (30 frames a second). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 60));

function show(req: PermissionRequest = request) {
  const decisions: PermissionDecision[] = [];
  const onCancel = vi.fn();
  const view = render(
    <KeyRouter>
      <PermissionPrompt request={req} onDecision={(d) => decisions.push(d)} onCancel={onCancel} />
    </KeyRouter>,
  );
  return { ...view, decisions, onCancel };
}

describe("PermissionPrompt", () => {
  it("says why a bash command asks (unsandboxed) and what allowing it for the session would allow", () => {
    const { lastFrame, unmount } = show({
      id: "p2",
      callId: "c2",
      tool: "bash",
      arguments: { command: "npm test" },
      command: {
        command: "npm test",
        sandboxed: false,
        reason: "unsandboxed: nothing confines this command",
        sessionAllows: { kind: "prefix", text: "npm test" },
      },
    });
    expect(lastFrame()).toContain("unsandboxed: nothing confines this command");
    expect(lastFrame()).toContain('Allow for this session (a) — commands starting with "npm test"');
    unmount();
  });

  it("says where a sub-agent's model would send its conversation", () => {
    const reason =
      "the sub-agent would send its task and the files it reads to ollama/qwen3 at http://localhost:11434, a local address where any local user could be listening";
    const { lastFrame, unmount } = show({
      id: "p3",
      callId: "c3",
      tool: "task",
      arguments: { description: "look", prompt: "look around", model: "ollama/qwen3" },
      model: { model: "ollama/qwen3", endpoint: "http://localhost:11434", local: true, reason },
    });
    expect(lastFrame()?.replace(/\s+/g, " ")).toContain(
      "a local address where any local user could be listening",
    );
    unmount();
  });

  it("shows the tool, its path and the diff, without repeating the replaced strings", () => {
    const { lastFrame, unmount } = show();
    expect(lastFrame()).toContain("edit_file wants to run on src/greet.ts");
    expect(lastFrame()).toContain("+Hi");
    expect(lastFrame()).toContain('path: "src/greet.ts"');
    expect(lastFrame()).not.toContain("old_string");
    unmount();
  });

  it("says why a call would fail when there is no diff", () => {
    const { lastFrame, unmount } = show({
      ...request,
      preview: { ok: false, message: "old_string was not found" },
    });
    expect(lastFrame()).toContain("This call would fail: old_string was not found");
    expect(lastFrame()).toContain("old_string:");
    unmount();
  });

  it("allows once with y and for the session with a", async () => {
    const once = show();
    once.stdin.write("y");
    await tick();
    expect(once.decisions).toEqual(["allow_once"]);
    // One answer only: a second key does nothing.
    once.stdin.write("a");
    await tick();
    expect(once.decisions).toEqual(["allow_once"]);
    once.unmount();

    const session = show();
    session.stdin.write("a");
    await tick();
    expect(session.decisions).toEqual(["allow_session"]);
    session.unmount();
  });

  it("chooses with the arrows and Enter", async () => {
    const view = show();
    view.stdin.write("\x1b[B");
    await tick();
    expect(view.lastFrame()).toContain("› 2. Allow for this session");
    view.stdin.write("\r");
    await tick();
    expect(view.decisions).toEqual(["allow_session"]);
    view.unmount();
  });

  it("denies with a typed reason; Esc in the reason goes back, Esc outside cancels", async () => {
    const view = show();
    view.stdin.write("n");
    await tick();
    expect(view.lastFrame()).toContain("Reason for the model:");
    view.stdin.write("use the ");
    await tick();
    view.stdin.write("helper");
    await tick();
    view.stdin.write("\r");
    await tick();
    expect(view.decisions).toEqual([{ deny: "use the helper" }]);
    view.unmount();

    const back = show();
    back.stdin.write("n");
    await tick();
    back.stdin.write("\x1b");
    await tick();
    expect(back.lastFrame()).not.toContain("Reason for the model:");
    back.stdin.write("\x1b");
    await tick();
    expect(back.onCancel).toHaveBeenCalledOnce();
    expect(back.decisions).toEqual([]);
    back.unmount();
  });
});
