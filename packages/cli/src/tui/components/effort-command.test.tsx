import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { SwitchablePod } from "../../switchable-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("/effort", () => {
  it("shows the level, changes it for the next run (in the status bar and the request), and refuses a bad one", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    const pod = new SwitchablePod(await Pod.create(options()), options(), (o) => Pod.create(o));
    mock.setHandler(() => ({ blocks: [{ type: "text", text: "thought hard" }] }));
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "yoake test");
    view.stdin.write("/effort\r");
    await until(view.lastFrame, "Effort: the model's default");
    view.stdin.write("/effort extreme\r");
    await until(view.lastFrame, 'Unknown effort "extreme": use low, medium, high, max.');
    view.stdin.write("/effort high\r");
    await until(view.lastFrame, "Effort: high");
    await until(view.lastFrame, "mock-model · effort high");
    view.stdin.write("go\r");
    await until(view.lastFrame, "thought hard");
    expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain(
      '"thinking":{"type":"enabled","budget_tokens":16384}',
    );
    // Again, with the session going on: the same log, the change recorded in it.
    const session = pod.sessionId;
    // "ready" shows once the run has returned (its log written): the command is taken at once.
    await until(view.lastFrame, "○ ready");
    view.stdin.write("/effort max\r");
    await until(view.lastFrame, "Effort: max");
    expect(pod.sessionId).toBe(session);
    view.stdin.write("harder\r");
    await vi.waitFor(() =>
      expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain('"budget_tokens":32000'),
    );
    view.unmount();
    await pod.current.close();
  });
});
