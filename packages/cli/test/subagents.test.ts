import { readdir } from "node:fs/promises";
import path from "node:path";
import type { MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { headlessFixturePerTest, toolResults, userTexts } from "./cli-test-kit.js";

const setUp = headlessFixturePerTest();

describe("yoake -p with a sub-agent", () => {
  it("answers through a child that has its own session log, linked from the parent's tool result", async () => {
    const f = await setUp({ "src/load.ts": "export function load() {}\n" });
    const isChild = (request: RecordedRequest) => userTexts(request.body)[0]?.startsWith("Find") === true;
    f.provider.setHandler((request): MockReply => {
      if (isChild(request))
        return toolResults(request.body).length === 0
          ? { blocks: [{ type: "tool_call", name: "glob", arguments: { pattern: "src/**/*.ts" } }] }
          : { blocks: [{ type: "text", text: "load() is defined in src/load.ts." }] };
      return toolResults(request.body).length === 0
        ? {
            blocks: [
              {
                type: "tool_call",
                name: "task",
                arguments: { description: "find load", prompt: "Find where load() is defined." },
              },
            ],
          }
        : { blocks: [{ type: "text", text: "It is in src/load.ts." }] };
    });
    const out = await f.run(["-p", "where is load defined?", "--verbose", "--output-format", "json"]);
    expect(out.exitCode).toBe(0);
    const { text, sessionId } = JSON.parse(out.stdout) as { text: string; sessionId: string };
    expect(text).toBe("It is in src/load.ts.");
    expect(out.stderr).toContain("· task");
    // The child's own calls, folded under its description.
    expect(out.stderr).toContain("  ↳ find load: glob\n");
    const link = toolResults(f.provider.requests.at(-1)?.body)[0]?.content ?? "";
    const childId = /\[sub-agent session ([0-9a-f-]+), last hash [0-9a-f]{64}\]/.exec(link)?.[1];
    expect(childId).toBeDefined();
    const logs = (await readdir(path.join(f.project.dir, ".yoake", "sessions"))).filter((n) =>
      n.endsWith(".jsonl"),
    );
    expect(logs.sort()).toEqual([`${childId}.jsonl`, `${sessionId}.jsonl`].sort());
    // --continue goes on with the parent's session, not the child's.
    f.provider.setHandler(undefined);
    f.provider.enqueue({ blocks: [{ type: "text", text: "yes" }] });
    const next = await f.run(["-p", "sure?", "--continue", "--output-format", "json"]);
    expect((JSON.parse(next.stdout) as { sessionId: string }).sessionId).toBe(sessionId);
  });
});
