/**
 * The UI attached to a served Pod (a real Pod on a real socket) when `yoake serve` stops: the
 * status bar says so instead of "ready", and a prompt says how to go on instead of failing with
 * the protocol's "connection closed".
 */
import path from "node:path";
import { Pod } from "@yoake/pod";
import { connectPod, servePod } from "@yoake/pod/protocol";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { RemotePod } from "../../attach/remote-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("App attached to a served Pod that stops", () => {
  it("shows the server gone and explains the way on at the next prompt", { timeout: 60_000 }, async () => {
    const { mock, options } = bed();
    mock.setHandler(async () => ({ blocks: [{ type: "text", text: "first answer" }] }));
    const pod = await Pod.create(options());
    const server = await servePod(pod, { socketPath: path.join(pod.manifest.projectRoot, "..", "pod.sock") });
    const remote = await RemotePod.attach(
      await connectPod(server.socketPath as string, { clientName: "tui" }),
    );
    const view = render(<App pod={remote} title="attached" loadFiles={noFiles} />);
    view.stdin.write("hello\r");
    await until(view.lastFrame, "first answer");
    await until(view.lastFrame, "○ ready");

    await server.shutdown("stopped by the test");
    await until(view.lastFrame, "✕ yoake serve stopped");
    expect(view.lastFrame()).not.toContain("○ ready");
    expect(view.lastFrame()).toContain("stopped by the test");

    view.stdin.write("are you there?\r");
    await until(view.lastFrame, "Leave with /quit");
    const frame = view.lastFrame() ?? "";
    expect(frame).not.toContain("the connection to the Pod is closed");
    expect(frame).toContain("run yoake without it");
    expect(mock.requests).toHaveLength(1);

    view.unmount();
    await remote.close();
    await pod.close();
  });

  it("says it once when the connection drops during a run of this UI (a server killed)", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    let asked = (): void => undefined;
    const request = new Promise<void>((resolve) => {
      asked = resolve;
    });
    mock.setHandler(async () => {
      asked();
      return { fault: "stall" };
    });
    const pod = await Pod.create(options());
    const server = await servePod(pod, { socketPath: path.join(pod.manifest.projectRoot, "..", "pod.sock") });
    const client = await connectPod(server.socketPath as string, { clientName: "tui" });
    const remote = await RemotePod.attach(client);
    const view = render(<App pod={remote} title="attached" loadFiles={noFiles} />);
    view.stdin.write("hello\r");
    await request;
    await until(view.lastFrame, "● working");
    // A killed server sends no run end: the connection just closes under the waiting run.
    client.close();
    await until(view.lastFrame, "✕ yoake serve stopped");
    await until(view.lastFrame, "Leave with /quit");
    expect((view.lastFrame() ?? "").split("yoake serve has stopped").length - 1).toBe(1);
    view.unmount();
    await server.shutdown("the test ended");
    await pod.close();
  });
});
