/**
 * Messages the UI shows once, on a real Pod: a failed MCP server named once (its error names it
 * already), and `/compact` reported once (the Pod's alert says what the UI's notice says).
 */
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { SwitchablePod } from "../../switchable-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();
const count = (text: string, part: string) => text.split(part).length - 1;
/** The frame with its wrapping undone. */
const flat = (frame: string | undefined) => (frame ?? "").replace(/\s+/g, " ");

describe("messages shown once", () => {
  it("names a failed MCP server once, when the UI opens and in /mcp", { timeout: 60_000 }, async () => {
    const { options } = bed();
    const base = options();
    const withGhost = {
      ...base,
      overrides: { ...base.overrides, mcp: [{ name: "ghost", command: "yoake-no-such-mcp-server" }] },
    };
    const pod = new SwitchablePod(await Pod.create(withGhost), withGhost, (o) => Pod.create(o));
    await vi.waitFor(() => expect(pod.mcpServers()[0]?.state).toBe("failed"), { timeout: 30_000 });
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(() => flat(view.lastFrame()), "command not found: yoake-no-such-mcp-server");
    expect(count(flat(view.lastFrame()), 'MCP server "ghost"')).toBe(1);
    view.stdin.write("/mcp\r");
    await until(view.lastFrame, "ghost: failed");
    const listed = flat(view.lastFrame()).slice(flat(view.lastFrame()).indexOf("MCP servers:"));
    expect(listed).not.toContain('MCP server "ghost"');
    expect(listed).toContain("command not found: yoake-no-such-mcp-server");
    view.unmount();
    await pod.current.close();
  });

  it("reports /compact once", { timeout: 60_000 }, async () => {
    const { mock, options } = bed();
    mock.enqueue(
      { blocks: [{ type: "text", text: "an answer" }] },
      { blocks: [{ type: "text", text: "The summary of it all." }] },
    );
    const pod = new SwitchablePod(await Pod.create(options()), options(), (o) => Pod.create(o));
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    view.stdin.write("hello\r");
    await until(view.lastFrame, "an answer");
    await until(view.lastFrame, "○ ready");
    view.stdin.write("/compact\r");
    await until(view.lastFrame, "Compacted into session");
    await until(view.lastFrame, "○ ready");
    const frame = view.lastFrame() ?? "";
    expect(count(frame, pod.sessionId as string)).toBe(1);
    expect(frame).not.toMatch(/compacted \d+ items into a summary/);
    view.unmount();
    await pod.current.close();
  });
});
