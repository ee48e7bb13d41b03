/**
 * The UI attached to a served Pod (a real Pod on a real socket) while another client's run goes:
 * the status bar says so from the first frame, and a prompt typed meanwhile waits for that run.
 */
import path from "node:path";
import { Pod } from "@yoake/pod";
import { connectPod, servePod } from "@yoake/pod/protocol";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { RemotePod } from "../../attach/remote-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("App attached to a served Pod mid-run", () => {
  it("shows the run going from the first frame; a prompt typed meanwhile goes once it has ended", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    const pod = await Pod.create(options());
    const server = await servePod(pod, { socketPath: path.join(pod.manifest.projectRoot, "..", "pod.sock") });
    const socketPath = server.socketPath as string;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mock.setHandler(async (request) => {
      if (JSON.stringify(request.body).includes("mine"))
        return { blocks: [{ type: "text", text: "my answer" }] };
      await held;
      return { blocks: [{ type: "text", text: "their answer" }] };
    });
    const other = await connectPod(socketPath, { clientName: "other" });
    await other.run("theirs");
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1), { timeout: 30_000 });

    const remote = await RemotePod.attach(await connectPod(socketPath, { clientName: "tui" }));
    const view = render(<App pod={remote} title="attached" loadFiles={noFiles} />);
    expect(view.lastFrame()).toContain("● working");
    view.stdin.write("mine\r");
    await until(view.lastFrame, "mine");
    // Queued, not refused by the served Pod as "busy".
    expect(view.lastFrame()).not.toContain("busy");
    expect(mock.requests).toHaveLength(1);

    release();
    await until(view.lastFrame, "their answer");
    await until(view.lastFrame, "my answer");
    await until(view.lastFrame, "○ ready");
    expect(mock.requests).toHaveLength(2);

    view.unmount();
    other.close();
    await remote.close();
    await server.shutdown("the test ended");
    await pod.close();
  });
});
