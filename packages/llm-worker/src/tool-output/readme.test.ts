import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ToolContext } from "../tool/tool.js";
import type { Content, JsonValue, ToolOutput } from "../tool/tool-output.js";
import type { BlobStore } from "./blob-store.js";
import { inlineSummary } from "./history-result.js";
import { createInspectTool } from "./inspect-tool.js";
import { summarize } from "./summary.js";

/**
 * The examples in the package README ("Large tool outputs") are this code's real output: each is
 * rebuilt here and must appear there verbatim, so the documentation cannot drift from the behaviour.
 */
const ID = "0190b2c4-7d1e-7a3b-9c4f-5e6d7a8b9c0d";

const grepOutput = Array.from({ length: 137 }, (_, i) => {
  const file = ["src/worker/loop.ts", "src/worker/tools.ts", "src/timeline/timeline.ts"][i % 3];
  return `${file}:${10 + i * 3}:    const result = await runTool(call${i}, context);`;
}).join("\n");

const issues: JsonValue[] = Array.from({ length: 25 }, (_, i) => ({
  number: 100 + i,
  title: `Issue number ${100 + i}`,
  state: i % 4 === 0 ? "closed" : "open",
  labels: i % 2 === 0 ? ["bug"] : [],
  user: { login: `dev${i}` },
  comments: i * 2,
}));

const search = {
  query: "runTool",
  total_count: 3,
  incomplete_results: false,
  items: [
    { path: "src/worker/loop.ts", line: 42, score: 0.91 },
    { path: "src/worker/tools.ts", line: 7, score: 0.55 },
    { path: "src/timeline/timeline.ts", line: 120, score: 0.12 },
  ],
  took_ms: 18.5,
  next_page: null,
};

const minified = `!function(){${"var a=1;".repeat(125_000)}}();`;

export const SUMMARY_EXAMPLES: [string, Content][] = [
  ["text", { kind: "text", text: grepOutput }],
  ["json_array", { kind: "structured", value: issues }],
  ["json_object", { kind: "structured", value: search }],
  ["megabyte line", { kind: "text", text: minified }],
];

const OBJECT_ID = ID;
const TEXT_ID = "0190b2c4-7d1f-7000-8000-000000000001";
const blobs = new Map<string, Content>([
  [OBJECT_ID, { kind: "structured", value: { query: "runTool", items: issues } }],
  [TEXT_ID, { kind: "text", text: grepOutput }],
]);
const store: BlobStore = {
  store: async () => ID,
  load: async (id) => {
    const content = blobs.get(id);
    if (content === undefined) throw new Error("only the README blobs exist here");
    return content;
  },
  exists: async (id) => blobs.has(id),
};
const context: ToolContext = { signal: new AbortController().signal, callId: "c", toolName: "inspect" };

/** The call as the README writes it (`inspect(<text blob>, "lines:20-24")`) and its answer. */
async function inspectExample(blob: "text" | "object", selector?: string): Promise<string> {
  const inspect = createInspectTool(store);
  const call = `inspect(<${blob} blob>${selector === undefined ? "" : `, "${selector}"`})`;
  const args = { blob_id: blob === "text" ? TEXT_ID : OBJECT_ID, selector };
  try {
    const output = (await inspect.execute(args, context)) as ToolOutput;
    return `${call}\n${output.kind === "inline" ? output.text : ""}`;
  } catch (error) {
    return `${call}\nError: ${(error as Error).message}`;
  }
}

/** The package README's "Large tool outputs" section, where these examples are documented. */
function readmeSection(heading: string): string {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const start = readme.indexOf(`\n## ${heading}`);
  if (start === -1) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

const readme = readmeSection("Large tool outputs");
const block = (text: string) => `\`\`\`text\n${text}\n\`\`\``;

describe("README examples", () => {
  it.each(SUMMARY_EXAMPLES)("show the real %s summary", (_name, content) => {
    expect(readme).toContain(block(summarize(ID, content)));
  });

  it("shows the real inline summary", () => {
    expect(readme).toContain(
      block(inlineSummary("Found 3 matches in 2 files\nsrc/a.ts:1: x\nsrc/b.ts:9: y")),
    );
  });

  it.each([
    ["object", undefined],
    ["object", "key:items.2.user"],
    ["object", "slice:items.20.."],
    ["object", "slice:3..5"],
    ["text", "lines:20-24"],
    ["text", "bytes:0..120"],
    ["text", "key:results"],
  ] as const)("show the real inspect answer on the %s blob to %s", async (blob, selector) => {
    expect(readme).toContain(block(await inspectExample(blob, selector)));
  });
});
