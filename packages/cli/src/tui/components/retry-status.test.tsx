/**
 * A provider refusal retried by the Worker, on a real Pod and the mock provider: the status bar
 * says so while the request waits and goes again, and goes back to "working" once it streams.
 * A provider that does not answer at all is seen as a wait that counts, long before any retry.
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

  it("a provider that never answers: the status bar counts the wait before any retry", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    // Accepts the request and never sends the headers (the client's own clock is 30 s).
    mock.enqueue({ fault: "stall" });
    const pod = await Pod.create(options());
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "○ ready");
    view.stdin.write("hi\r");
    await vi.waitFor(
      () => expect(view.lastFrame()).toMatch(/● waiting for the provider \d+ s · esc to cancel/),
      {
        timeout: 30_000,
        interval: 50,
      },
    );
    expect(view.lastFrame()).not.toContain("retrying");
    expect(mock.requests).toHaveLength(1);

    view.stdin.write("\u001b");
    await until(view.lastFrame, "○ ready");
    expect(view.lastFrame()).not.toContain("waiting for the provider");
    view.unmount();
    await pod.close();
  });
});
