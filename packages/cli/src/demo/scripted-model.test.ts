import type { RecordedRequest } from "@yoake/llm-worker/testing";
import { describe, expect, it } from "vitest";
import { type PrunedResult, ScriptedDemoModel } from "./scripted-model.js";
import { DEMO_PROMPTS } from "./tour.js";

function request(messages: unknown[]): RecordedRequest {
  return {
    scheme: "anthropic",
    method: "POST",
    path: "/v1/messages",
    query: {},
    headers: {},
    body: { model: "yoake-demo-scripted", messages },
    receivedAt: 0,
  };
}

const user = (...content: unknown[]) => ({ role: "user", content });
const assistant = (...content: unknown[]) => ({ role: "assistant", content });
const text = (value: string) => ({ type: "text", text: value });
const toolUse = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
const toolResult = (id: string, content: string) => ({ type: "tool_result", tool_use_id: id, content });

describe("ScriptedDemoModel", () => {
  it("answers the first prompt with three parallel reads, quoting the attached README", () => {
    const model = new ScriptedDemoModel();
    const reply = model.reply(
      request([
        user(text(DEMO_PROMPTS[0]), text("<system>\n[File: README.md]\n# hello-service\n\n</system>")),
      ]),
    );
    expect(reply.blocks[0]).toMatchObject({ type: "text" });
    expect((reply.blocks[0] as { text: string }).text).toContain("describes hello-service");
    expect(reply.blocks.slice(1).map((b) => (b.type === "tool_call" ? b.arguments : undefined))).toEqual([
      { path: "src/greet.ts" },
      { path: "src/format.ts" },
      { path: "logs/server.log" },
    ]);
  });

  it("reads the blob id and line count from the search summary it was sent, and inspects the tail", () => {
    const model = new ScriptedDemoModel();
    const blob = "01a2052a-5e7e-761d-a385-76f8e10fda3a";
    const reply = model.reply(
      request([
        user(text("a"), text("b"), text(DEMO_PROMPTS[2])),
        assistant(toolUse("toolu_demo7_grep", "grep", { pattern: "ERROR" })),
        user(toolResult("toolu_demo7_grep", `[blob:${blob}] text | 42 lines\n── head ──\nx`)),
      ]),
    );
    expect(reply.blocks.at(-1)).toMatchObject({
      type: "tool_call",
      name: "inspect",
      arguments: { blob_id: blob, selector: "lines:40-42" },
    });
  });

  it("notices a tool result that comes back shorter: the Pod pruned it", () => {
    const seen: PrunedResult[] = [];
    const model = new ScriptedDemoModel((pruned) => seen.push(...pruned));
    const history = (content: string) =>
      request([
        user(text(DEMO_PROMPTS[0])),
        assistant(toolUse("toolu_earlier_log", "read_file", { path: "logs/server.log" })),
        user(toolResult("toolu_earlier_log", content)),
      ]);
    model.reply(history("1\tline one\n2\tline two\n3\tline three"));
    expect(seen).toEqual([]);
    model.reply(history("3 lines | 1\tline one"));
    expect(seen).toEqual([
      {
        toolUseId: "toolu_earlier_log",
        label: "toolu_earlier_log",
        wholeBytes: 34,
        nowSent: "3 lines | 1\tline one",
      },
    ]);
    expect(model.prunedResults).toHaveLength(1);
  });

  it("reports plausible usage for every reply", () => {
    const reply = new ScriptedDemoModel().reply(request([user(text("anything"))]));
    expect(reply.usage?.inputTokens).toBeGreaterThan(0);
    expect(reply.usage?.outputTokens).toBeGreaterThan(0);
  });
});
