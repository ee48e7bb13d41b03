/**
 * `@modelcontextprotocol/server-filesystem` over stdio, allowed one temporary directory, driven
 * by a scripted model through a Worker.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FILESYSTEM_ENTRY, mockWorker, toolResults } from "../../test/support/mcp-test-servers.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { MemoryBlobStore } from "../tool-output/memory-blob-store.js";
import { connectMcp, type McpConnection } from "./mcp-connection.js";

let provider: MockProvider;
beforeEach(async () => {
  provider = await startMockProvider();
});
afterEach(() => provider.close());

/** 60 numbered lines, about 2.5 KB: over the inline limit. */
const BIG = Array.from({ length: 60 }, (_, i) => `line ${i + 1}: the quick brown fox jumps`).join("\n");

let dir: string;
let fs: McpConnection;
beforeAll(async () => {
  // The server resolves symlinks (macOS /var → /private/var): give it the real path.
  dir = await realpath(await mkdtemp(join(tmpdir(), "yoake-mcp-fs-")));
  await writeFile(join(dir, "notes.txt"), "buy milk\ncall mom\n");
  await writeFile(join(dir, "big.log"), BIG);
  await mkdir(join(dir, "archive"));
  fs = await connectMcp({ name: "fs", command: process.execPath, args: [FILESYSTEM_ENTRY, dir] });
});
afterAll(async () => {
  await fs?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("server-filesystem's tools as Worker tools", () => {
  it("lists its tools under the fs prefix", () => {
    const names = fs.tools().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["fs__list_directory", "fs__read_text_file", "fs__write_file"]),
    );
    const read = fs.tools().find((t) => t.name === "fs__read_text_file");
    expect(read?.inputSchema).toMatchObject({ type: "object", required: ["path"] });
    expect(read?.inputSchema).not.toHaveProperty("$schema");
  });

  it("lists and reads the directory, and refuses a path outside it", async () => {
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "ls", name: "fs__list_directory", arguments: { path: dir } },
          {
            type: "tool_call",
            id: "cat",
            name: "fs__read_text_file",
            arguments: { path: join(dir, "notes.txt") },
          },
          { type: "tool_call", id: "out", name: "fs__read_text_file", arguments: { path: "/etc/hostname" } },
        ],
      },
      { blocks: [{ type: "text", text: "You need milk." }] },
    );
    const worker = mockWorker(provider, { tools: fs.tools() });

    expect((await worker.run("What is on my list?")).status).toBe("finished");
    const [ls, cat, out] = toolResults(worker);
    expect(ls?.content?.split("\n").sort()).toEqual(["[DIR] archive", "[FILE] big.log", "[FILE] notes.txt"]);
    // The file's text, not the `{ content }` wrapper of its structured copy.
    expect(cat?.content).toBe("buy milk\ncall mom\n");
    expect(out?.isError).toBe(true);
    expect(out?.content).toMatch(
      /^fs__read_text_file failed: Access denied - path outside allowed directories/,
    );
  });

  it("stores a large file as a text blob, summarized by lines", async () => {
    const store = new MemoryBlobStore();
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", name: "fs__read_text_file", arguments: { path: join(dir, "big.log") } },
        ],
      },
      { blocks: [{ type: "text", text: "read it" }] },
    );
    const worker = mockWorker(provider, { tools: fs.tools(), blobStore: store });

    expect((await worker.run("Read the log.")).status).toBe("finished");
    const [log] = toolResults(worker);
    expect(log?.content).toMatch(/^\[blob:[0-9a-f-]{36}\] text \| 60 lines\n── head ──\nline 1: /);
    expect(log?.content).toContain("── tail ──\nline 58: ");
    const id = log?.content?.match(/\[blob:([0-9a-f-]{36})\]/)?.[1] ?? "";
    expect(await store.load(id)).toEqual({ kind: "text", text: BIG });
  });

  it("writes a file the model asked for", async () => {
    const done = join(dir, "archive", "done.txt");
    // Two responses: the calls of one response run in parallel.
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", name: "fs__write_file", arguments: { path: done, content: "all done" } },
        ],
      },
      { blocks: [{ type: "tool_call", name: "fs__read_text_file", arguments: { path: done } }] },
      { blocks: [{ type: "text", text: "written" }] },
    );
    const worker = mockWorker(provider, { tools: fs.tools() });

    expect((await worker.run("Archive it.")).status).toBe("finished");
    const [write, read] = toolResults(worker);
    expect(write?.isError).toBeFalsy();
    expect(write?.content).toMatch(/Successfully wrote to .*done\.txt/);
    expect(read?.content).toBe("all done");
  });
});
