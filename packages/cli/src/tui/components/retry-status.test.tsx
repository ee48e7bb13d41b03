/**
 * A provider refusal retried by the Worker, on a real Pod and the mock provider: the status bar
 * says so while the request waits and goes again, and goes back to "working" once it streams.
 */
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("a request sent again", () => {
  it("shows in the status bar until the stream resumes, not in the transcript", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mock.enqueue({
      fault: "status",
      status: 529,
      message: "Overloaded",
      headers: { "retry-after-ms": "10" },
    });
    // The request sent again waits: the status bar is seen while it does, whatever the load.
    mock.setHandler(async () => {
      await held;
      return { blocks: [{ type: "text", text: "Hello after all" }] };
    });
    const pod = await Pod.create(options());
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "○ ready");
    view.stdin.write("hi\r");
    await vi.waitFor(() => expect(mock.requests).toHaveLength(2), { timeout: 30_000 });
    await until(view.lastFrame, "↻ retrying 2/3… anthropic: 529 Overloaded · esc to cancel");
    expect(view.lastFrame()).not.toContain("Retrying in");

    release();
    await until(view.lastFrame, "Hello after all");
    await until(view.lastFrame, "○ ready");
    expect(view.lastFrame()).not.toContain("retrying");
    view.unmount();
    await pod.close();
  });
});
