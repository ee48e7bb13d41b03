/**
 * A session opened from its log on a real Pod (`--continue`, then `/resume`): the status bar
 * starts from the session's own token counts, and a last run that failed is shown with its error.
 */
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { SwitchablePod } from "../../switchable-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("a restored session in the terminal UI", () => {
  it("shows its token counts and its failed last run, and the resumed session's counts after /resume", {
    timeout: 90_000,
  }, async () => {
    const { mock, options } = bed();
    mock.enqueue({
      blocks: [{ type: "text", text: "earlier" }],
      usage: { inputTokens: 3_000, outputTokens: 300 },
    });
    const earlier = await Pod.create(options("new"));
    await earlier.run("an earlier question");
    const earlierId = earlier.sessionId;
    await earlier.close();

    mock.enqueue(
      { blocks: [{ type: "text", text: "later" }], usage: { inputTokens: 20_000, outputTokens: 1_000 } },
      { fault: "status", status: 400, message: "the request is malformed" },
    );
    const later = await Pod.create(options("new"));
    await later.run("a later question");
    expect((await later.run("this one fails")).status).toBe("failed");
    await later.close();

    const pod = new SwitchablePod(await Pod.create(options("latest")), options("latest"), (o) =>
      Pod.create(o),
    );
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "20k in · 1.0k out");
    expect(view.lastFrame()).toContain("The last run of this session failed");
    expect(view.lastFrame()).toContain("the request is malformed");

    view.stdin.write(`/resume ${earlierId}\r`);
    await until(view.lastFrame, `Resumed session ${earlierId}`);
    await until(view.lastFrame, "3.0k in · 300 out");
    view.unmount();
    await pod.current.close();
  });
});
