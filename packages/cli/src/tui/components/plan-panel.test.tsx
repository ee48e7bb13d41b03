import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { SwitchablePod } from "../../switchable-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("the plan above the input", () => {
  it("shows the plan of the session in use: none after /clear, that session's after /resume", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    const pod = new SwitchablePod(await Pod.create(options()), options(), (o) => Pod.create(o));
    mock.enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            name: "todo_write",
            arguments: { goal: "Tidy up", items: [{ content: "sort imports", status: "in_progress" }] },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Sorting." }] },
    );
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    view.stdin.write("tidy\r");
    await until(view.lastFrame, "Sorting.");
    await until(view.lastFrame, "▶ sort imports");
    const planned = pod.sessionId ?? "";
    await vi.waitFor(() => expect(pod.current.status().state).toBe("idle"), { timeout: 30_000 });

    view.stdin.write("/clear\r");
    await until(view.lastFrame, "New session");
    expect(view.lastFrame()).not.toContain("Plan: Tidy up");

    view.stdin.write(`/resume ${planned}\r`);
    await until(view.lastFrame, `Resumed session ${planned}`);
    await until(view.lastFrame, "▶ sort imports");
    view.unmount();
    await pod.current.close();
  });

  it("appears when the model writes it, follows each change, and is back when the session is continued", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    const pod = await Pod.create(options());
    const plan = (first: string, second: string) => ({
      name: "todo_write",
      type: "tool_call" as const,
      arguments: {
        goal: "Ship the fix",
        items: [
          { content: "reproduce the bug", status: first },
          { content: "write the fix", status: second },
        ],
      },
    });
    mock.enqueue(
      { blocks: [plan("in_progress", "pending")] },
      { blocks: [plan("done", "in_progress")] },
      { blocks: [{ type: "text", text: "Working on the fix." }] },
    );
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "yoake test");
    expect(view.lastFrame()).not.toContain("Plan:");
    view.stdin.write("fix it\r");
    await until(view.lastFrame, "Working on the fix.");
    const frame = view.lastFrame() ?? "";
    const panel = frame.slice(frame.indexOf("Plan: Ship the fix"));
    expect(panel).toContain("(1/2 done)");
    expect(panel).toContain("✔ reproduce the bug");
    expect(panel).toContain("▶ write the fix");
    // Above the input box (whose border follows).
    expect(frame.indexOf("Plan: Ship the fix")).toBeGreaterThan(frame.indexOf("Working on the fix."));
    view.unmount();
    await pod.close();

    const again = await Pod.create(options("latest"));
    const restored = render(<App pod={again} title="yoake again" loadFiles={noFiles} />);
    expect(restored.frames[0]).toContain("▶ write the fix");
    restored.unmount();
    await again.close();
  });
});
