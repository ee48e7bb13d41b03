/**
 * `/model` on a real Pod: switching to a model the catalogue does not know warns as the start-up
 * does, and the status bar keeps what it can show (the cost so far, the prompt's size).
 */
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { noFiles, realPodTestbed, untilFrame as until } from "../../../test/support/real-pod-test-kit.js";
import { SwitchablePod } from "../../switchable-pod.js";
import { App } from "./app.js";

const bed = realPodTestbed();

describe("/model", () => {
  it("warns about a model the catalogue does not know, and keeps the cost and context in the status bar", {
    timeout: 60_000,
  }, async () => {
    const { mock, options } = bed();
    const base = options();
    // A catalogued model (priced, with a known window), served by the mock.
    const priced = {
      ...base,
      // The catalogue's key variable, for the model switched to (no request goes to it).
      env: { ...base.env, ANTHROPIC_API_KEY: "k" },
      overrides: {
        model: {
          ref: "anthropic/claude-opus-4-6",
          base_url: mock.baseURLFor("anthropic"),
          api_key_env: "KEY",
        },
      },
    };
    mock.setHandler(() => ({
      blocks: [{ type: "text", text: "an answer" }],
      usage: { inputTokens: 20_000, outputTokens: 1_000 },
    }));
    const pod = new SwitchablePod(await Pod.create(priced), priced, (o) => Pod.create(o));
    const view = render(<App pod={pod} title="yoake test" loadFiles={noFiles} />);
    view.stdin.write("go\r");
    await until(view.lastFrame, "an answer");
    await until(view.lastFrame, "○ ready");
    await until(view.lastFrame, "$0.1250");
    expect(view.lastFrame()).toContain("2% of context");

    view.stdin.write("/model anthropic/claude-next\r");
    await until(view.lastFrame, "Model: anthropic/claude-next");
    await until(view.lastFrame, "is not in the built-in catalogue");
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("anthropic/claude-next ·");
    // What was spent at the old model's prices stays; the window is unknown, the prompt's size is not.
    expect(frame).toContain("$0.1250");
    // Nothing was spent on the new model yet: the sum is not marked as missing some.
    expect(frame).not.toContain("$0.1250+");
    expect(frame).toContain("20k in context");
    view.unmount();
    await pod.current.close();
  });
});
