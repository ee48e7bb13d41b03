import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { App } from "./app.js";

const bed = realPodTestbed();

interface Body {
  messages: Array<{ content: Array<{ type: string; text?: string }> }>;
}
const firstText = (request: RecordedRequest) => (request.body as Body).messages[0]?.content[0]?.text ?? "";
const hasResults = (request: RecordedRequest) =>
  (request.body as Body).messages.some((m) => m.content.some((b) => b.type === "tool_result"));

describe("a sub-agent in the terminal UI", () => {
  it("shows the running child folded to one line with its latest tool call, then its answer on the task card", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mock.setHandler(async (request): Promise<MockReply> => {
      if (firstText(request).startsWith("CHILD")) {
        if (!hasResults(request))
          return { blocks: [{ type: "tool_call", name: "glob", arguments: { pattern: "**/*" } }] };
        // Held until the test has seen the folded line.
        await held;
        return { blocks: [{ type: "text", text: "nothing to find" }] };
      }
      if (!hasResults(request))
        return {
          blocks: [
            {
              type: "tool_call",
              name: "task",
              arguments: { description: "look around", prompt: "CHILD look around" },
            },
          ],
        };
      return { blocks: [{ type: "text", text: "The child found nothing." }] };
    });
    const pod = await Pod.create(options());
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "yoake test");
    view.stdin.write("look around\r");
    await until(view.lastFrame, "⎿ sub-agent: look around · 1 tool call · glob");
    release();
    await until(view.lastFrame, "The child found nothing.");
    expect(view.lastFrame()).not.toContain("⎿ sub-agent");
    view.unmount();
    await pod.close();
  });
});
