import { readFile } from "node:fs/promises";
import path from "node:path";
import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { subagentsOf } from "../state/restored-subagents.js";
import { App } from "./app.js";

const bed = realPodTestbed();

interface Body {
  messages: Array<{ content: Array<{ type: string; text?: string }> }>;
}
const firstText = (request: RecordedRequest) => (request.body as Body).messages[0]?.content[0]?.text ?? "";
const results = (request: RecordedRequest) =>
  (request.body as Body).messages.flatMap((m) => m.content).filter((b) => b.type === "tool_result").length;

/** The parent asks for one sub-agent, then answers with what it got back. */
function parentReply(request: RecordedRequest): MockReply {
  if (results(request) === 0)
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
}

describe("a sub-agent in the terminal UI", () => {
  it("is nested under its task card, each of its tool calls folded to a line, and stays there once done", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mock.setHandler(async (request): Promise<MockReply> => {
      if (!firstText(request).startsWith("CHILD")) return parentReply(request);
      if (results(request) === 0)
        return {
          blocks: [
            { type: "tool_call", id: "c1", name: "glob", arguments: { pattern: "**/*" } },
            { type: "tool_call", id: "c2", name: "read_file", arguments: { path: "missing.txt" } },
          ],
        };
      // Held until the test has seen the running child.
      await held;
      return { blocks: [{ type: "text", text: "nothing to find" }] };
    });
    const pod = await Pod.create(options());
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "yoake test");
    view.stdin.write("look around\r");
    await until(view.lastFrame, "⎿ sub-agent: look around · 2 tool calls");
    await until(view.lastFrame, "✗ read_file missing.txt");
    await until(view.lastFrame, "● glob");
    const running = view.lastFrame() ?? "";
    expect(running).toContain("● glob");
    // Under the task card: after its header, before the input box.
    const card = running.indexOf("task");
    expect(card).toBeGreaterThan(-1);
    expect(running.indexOf("⎿ sub-agent: look around")).toBeGreaterThan(card);
    expect(running.indexOf("● glob")).toBeGreaterThan(running.indexOf("⎿ sub-agent: look around"));
    // The child's text is its answer, on the card's result: never streamed into the transcript.
    release();
    await until(view.lastFrame, "The child found nothing.");
    const done = view.lastFrame() ?? "";
    expect(done).toContain("⎿ sub-agent: look around · 2 tool calls · finished");
    expect(done.indexOf("⎿ sub-agent: look around")).toBeLessThan(done.indexOf("The child found nothing."));
    // The parent's run ends (and is logged as ended) before the Pod closes: the replay below
    // continues a finished session, not one cut off under a loaded machine.
    await until(view.lastFrame, "○ ready");
    view.unmount();
    await pod.close();

    // Continued (`--continue`): the sub-agent is read back from its own log, shown as it was.
    const continued = await Pod.create(options("latest"));
    const subagents = await subagentsOf(continued, continued.history);
    const replay = render(
      <App
        pod={continued}
        title="yoake test"
        loadFiles={noFiles}
        {...(subagents !== undefined && { restoredSubagents: subagents })}
      />,
    );
    await until(replay.lastFrame, "The child found nothing.");
    const restored = replay.lastFrame() ?? "";
    expect(restored).toContain("⎿ sub-agent: look around · 2 tool calls · finished");
    expect(restored).toContain("● glob");
    expect(restored).toContain("✗ read_file missing.txt");
    replay.unmount();
    await continued.close();
  });

  it("Esc cancels the children with the parent's run", { timeout: 60_000 }, async () => {
    const { mock, options } = bed();
    mock.setHandler((request): MockReply => {
      if (!firstText(request).startsWith("CHILD")) return parentReply(request);
      if (results(request) === 0)
        return { blocks: [{ type: "tool_call", id: "c1", name: "glob", arguments: { pattern: "*" } }] };
      // The child's second request never answers: only a cancel ends it.
      return { fault: "stall" };
    });
    const pod = await Pod.create(options());
    let child = "";
    pod.listen((event) => {
      if (event.type === "subagent" && event.state === "started") child = event.sessionId;
    });
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    await until(view.lastFrame, "yoake test");
    view.stdin.write("look around\r");
    await until(view.lastFrame, "● glob");
    // The child's stalled request is out (the parent's first, the child's two).
    await vi.waitFor(() => expect(mock.requests).toHaveLength(3), { timeout: 30_000 });
    view.stdin.write("\x1b");
    await until(view.lastFrame, "Cancelled. The session goes on.");
    expect(view.lastFrame()).toContain("⎿ sub-agent: look around · 1 tool call");
    // The child's own run was cancelled too, as its log says: not left waiting on its request.
    const log = path.join(options().cwd, ".yoake", "sessions", `${child}.jsonl`);
    await vi.waitFor(async () => expect(await readFile(log, "utf8")).toContain('"type":"cancelled"'), {
      timeout: 30_000,
    });
    view.unmount();
    await pod.close();
  });
});
