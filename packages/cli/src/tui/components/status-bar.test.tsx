import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { PodLike } from "../pod-like.js";
import { App } from "./app.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 60));

/** A Pod with a long model name, an effort level and a session's worth of tokens and cost. */
const pod: PodLike = {
  run: async () => ({ status: "finished" }),
  respond: async () => ({ status: "finished" }),
  listen: () => () => undefined,
  manifest: {
    projectRoot: "/p",
    model: {
      ref: "anthropic/claude-sonnet-4-5",
      id: "claude-sonnet-4-5",
      contextWindow: 200_000,
      prices: { input: 3, output: 15 },
    },
    generation: { effort: "high" },
  },
  restored: {
    warnings: [],
    usage: { inputTokens: 123_456, outputTokens: 7_890, cacheReadInputTokens: 99_000 },
  },
};

describe("StatusBar", () => {
  it("keeps to one row of a 60-column terminal, leaving out the least important parts first", async () => {
    const view = render(<App pod={pod} loadFiles={async () => ({ paths: [], truncated: false })} />);
    await tick();
    const wide = (view.lastFrame() ?? "").split("\n").at(-1) ?? "";
    // 100 columns: all but the effort level.
    expect(wide).toContain("anthropic/claude-sonnet-4-5 · 123k in (99k cached) · 7.9k out · $0.4887");

    // ink-testing-library's terminal is 100 columns: make it 60, as a terminal resized.
    Object.defineProperty(view.stdout, "columns", { value: 60, configurable: true });
    view.stdout.emit("resize");
    await tick();
    const rows = (view.lastFrame() ?? "").split("\n");
    const status = rows.at(-1) ?? "";
    expect(rows.at(-2)).toMatch(/^╰─+╯$/);
    expect(status).toContain("○ ready · /help");
    expect(status).toContain("123k in (99k cached) · 7.9k out");
    expect(status).not.toContain("effort high");
    expect([...status].length).toBeLessThanOrEqual(60);
    view.unmount();
  });
});
