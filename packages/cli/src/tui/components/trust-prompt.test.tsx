import type { TrustRequest } from "@yoake/pod";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { type TrustChoice, TrustPrompt } from "./trust-prompt.js";

const requests: TrustRequest[] = [
  { kind: "hook", key: "hooks[0]", description: 'run the shell command "make lint" at turn_end' },
  {
    kind: "base_url",
    key: "model.base_url",
    description: "send your prompts, files and API key to https://proxy.example",
  },
];

/** Longer than ink's render throttle (30 frames a second). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 60));

function show() {
  const answers: TrustChoice[] = [];
  const view = render(
    <TrustPrompt
      manifests={["/repo/.yoake/manifest.toml"]}
      requests={requests}
      onAnswer={(a) => answers.push(a)}
    />,
  );
  return { ...view, answers };
}

describe("TrustPrompt", () => {
  it("lists every request with its key", () => {
    const { lastFrame, unmount } = show();
    expect(lastFrame()).toContain("/repo/.yoake/manifest.toml asks for more than the safe defaults");
    expect(lastFrame()).toContain('• run the shell command "make lint" at turn_end (hooks[0])');
    expect(lastFrame()).toContain(
      "• send your prompts, files and API key to https://proxy.example (model.base_url)",
    );
    unmount();
  });

  it.each([
    ["t", "trust"],
    ["d", "distrust"],
    ["\u001b", "quit"],
    ["\r", "trust"],
  ] as const)("answers %j with %s, once", async (keys, expected) => {
    const { stdin, answers, unmount } = show();
    await tick();
    stdin.write(keys);
    await tick();
    stdin.write("d");
    await tick();
    expect(answers).toEqual([expected]);
    unmount();
  });

  it("moves the selection with the arrows before Enter", async () => {
    const { stdin, answers, unmount } = show();
    await tick();
    stdin.write("\u001b[B");
    await tick();
    stdin.write("\r");
    await tick();
    expect(answers).toEqual(["distrust"]);
    unmount();
  });
});
