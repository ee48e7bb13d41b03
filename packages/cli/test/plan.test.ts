import { describe, expect, it } from "vitest";
import { headlessFixturePerTest, userTexts } from "./cli-test-kit.js";

const setUp = headlessFixturePerTest();

describe("yoake -p with a plan", () => {
  it("prints each plan with --verbose, and --continue gives the model the open plan with the prompt", async () => {
    const f = await setUp();
    f.provider.enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            name: "todo_write",
            arguments: {
              goal: "Tidy the docs",
              items: [
                { content: "list stale pages", status: "done" },
                { content: "rewrite the intro", status: "in_progress" },
              ],
            },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Intro half done." }] },
    );
    const first = await f.run(["-p", "tidy the docs", "--verbose"]);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe("Intro half done.\n");
    expect(first.stderr).toContain(
      "  Goal: Tidy the docs\n  [x] list stale pages\n  [~] rewrite the intro\n",
    );

    f.provider.enqueue({ blocks: [{ type: "text", text: "Done now." }] });
    const next = await f.run(["-p", "finish it", "--continue"]);
    expect(next.exitCode).toBe(0);
    const texts = userTexts(f.provider.requests.at(-1)?.body);
    expect(texts.at(-2)).toBe("finish it");
    expect(texts.at(-1)).toContain("Goal: Tidy the docs\n[x] list stale pages\n[~] rewrite the intro");
  });
});
