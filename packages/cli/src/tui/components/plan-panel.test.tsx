import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("the plan above the input", () => {
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
