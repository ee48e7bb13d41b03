import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient, MemoryBlobStore, type Tool, type ToolResultItem, Worker } from "@yoake/llm-worker";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempProject, runTool, type TempProject } from "../../test/support/temp-project.js";
import { createFileTools } from "./index.js";
import { GLOB_MAX_RESULTS, GREP_DEFAULT_HEAD_LIMIT, TOOL_OUTPUT_MAX_BYTES } from "./limits.js";
import { ReadTracker } from "./read-tracker.js";

let project: TempProject;
let provider: MockProvider;

beforeEach(async () => {
  project = await createTempProject();
  provider = await startMockProvider();
});
afterEach(async () => {
  await provider.close();
  project.remove();
});

function workerWith(tools: ReturnType<typeof createFileTools>, blobStore?: MemoryBlobStore): Worker {
  const client = createClient({
    scheme: "anthropic",
    model: "mock-model",
    baseURL: provider.baseURLFor("anthropic"),
    apiKey: "test-key",
    retry: { maxRetries: 0 },
  });
  return new Worker({ client, tools, ...(blobStore && { blobStore }) });
}

const results = (worker: Worker) =>
  worker.history.filter((item): item is ToolResultItem => item.type === "tool_result");

describe("createFileTools", () => {
  it("offers the five tools, each description stating its limits", () => {
    const tools = createFileTools(project.fs, { maxBytes: 4096 });
    expect(tools.map((t) => t.name)).toEqual(["read_file", "write_file", "edit_file", "glob", "grep"]);
    const describe = (name: string) => tools.find((t) => t.name === name)?.description ?? "";
    expect(describe("read_file")).toContain("At most 4 KiB");
    expect(TOOL_OUTPUT_MAX_BYTES).toBe(16 * 1024);
    expect(createFileTools(project.fs).find((t) => t.name === "read_file")?.description).toContain(
      "At most 16 KiB",
    );
    expect(describe("glob")).toContain(`at most ${GLOB_MAX_RESULTS}`);
    expect(describe("grep")).toContain(`default ${GREP_DEFAULT_HEAD_LIMIT}`);
    expect(describe("edit_file")).toContain("must have read the file");
  });

  it("shares the tracker it is given: a read by one set of tools lets another set edit", async () => {
    const tracker = new ReadTracker();
    project.put("project/a.txt", "x\n");
    const byName = (tools: Tool[], name: string) => tools.find((t) => t.name === name) as Tool;
    await runTool(byName(createFileTools(project.fs, { tracker }), "read_file"), { path: "a.txt" });
    expect(tracker.has(path.join(project.root, "a.txt"))).toBe(true);
    const edit = byName(createFileTools(project.fs, { tracker }), "edit_file");
    await runTool(edit, { path: "a.txt", old_string: "x", new_string: "y" });
    expect(readFileSync(path.join(project.root, "a.txt"), "utf8")).toBe("y\n");
    const unshared = byName(createFileTools(project.fs), "edit_file");
    await expect(runTool(unshared, { path: "a.txt", old_string: "y", new_string: "z" })).rejects.toThrow(
      /has not been read/,
    );
  });

  it("runs in a real Worker turn: read, edit, then a failure the model can read", async () => {
    project.put("project/src/config.ts", 'export const mode = "debug";\n');
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "toolu_read", name: "read_file", arguments: { path: "src/config.ts" } },
        ],
      },
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_edit",
            name: "edit_file",
            arguments: { path: "src/config.ts", old_string: '"debug"', new_string: '"release"' },
          },
          {
            type: "tool_call",
            id: "toolu_escape",
            name: "read_file",
            arguments: { path: "../outside/secret.txt" },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Switched to release." }] },
    );
    const worker = workerWith(createFileTools(project.fs));

    const result = await worker.run("Switch the config to release mode.");

    expect(result).toMatchObject({ status: "finished", text: "Switched to release." });
    expect(readFileSync(path.join(project.root, "src/config.ts"), "utf8")).toBe(
      'export const mode = "release";\n',
    );
    const [read, edit, breakout] = results(worker);
    expect(read).toMatchObject({ name: "read_file", content: '     1\texport const mode = "debug";' });
    expect(read?.isError).toBeUndefined();
    expect(edit?.content).toContain('-export const mode = "debug";\n+export const mode = "release";');
    expect(breakout).toMatchObject({ name: "read_file", isError: true });
    expect(breakout?.content).toMatch(/^read_file failed: read refused: .* is outside the scope/);
  });

  it("keeps read_file inline while a large grep result goes to the BlobStore", async () => {
    const body = Array.from({ length: 400 }, (_, i) => `match line ${i}`).join("\n");
    project.put("project/big.txt", `${body}\n`);
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "toolu_r", name: "read_file", arguments: { path: "big.txt" } },
          {
            type: "tool_call",
            id: "toolu_g",
            name: "grep",
            arguments: { pattern: "match", output_mode: "content" },
          },
        ],
      },
      { blocks: [{ type: "text", text: "done" }] },
    );
    const worker = workerWith(createFileTools(project.fs), new MemoryBlobStore());
    await worker.run("look");
    const [read, grep] = results(worker);
    expect(read?.content?.startsWith("     1\tmatch line 0")).toBe(true);
    expect(grep?.content?.startsWith("[blob:")).toBe(true);
  });
});
