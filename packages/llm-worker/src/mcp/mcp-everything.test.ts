/**
 * The reference server `@modelcontextprotocol/server-everything`, spawned over stdio, its tools
 * called by a scripted model (the mock provider) through real Worker turns.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  eventually,
  everythingConfig,
  mockWorker,
  toolResults,
} from "../../test/support/mcp-test-servers.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { recordedImages } from "../testing/recorded-images.js";
import { MemoryBlobStore } from "../tool-output/memory-blob-store.js";
import { connectMcp, type McpConnection } from "./mcp-connection.js";
import type { McpTool } from "./mcp-tools.js";

let provider: MockProvider;
beforeEach(async () => {
  provider = await startMockProvider();
});
afterEach(() => provider.close());

let everything: McpConnection;
beforeAll(async () => {
  everything = await connectMcp(everythingConfig());
});
afterAll(() => everything.close());

const PROVIDER_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("server-everything's tools as Worker tools", () => {
  it("lists every tool under the server's prefix, description and schema passed through", () => {
    const byName = new Map(everything.tools().map((t) => [t.name, t]));
    for (const name of [
      "everything__echo",
      "everything__get-sum",
      "everything__get-env",
      "everything__get-tiny-image",
      "everything__get-structured-content",
      "everything__trigger-long-running-operation",
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    for (const t of everything.tools()) {
      expect(t.name).toMatch(PROVIDER_TOOL_NAME);
      expect(t.server).toBe("everything");
      expect(t.name).toBe(`everything__${t.mcpName}`);
    }
    const echo = byName.get("everything__echo") as McpTool;
    expect(echo.description).toBe("Echoes back the input string");
    expect(echo.title).toBe("Echo Tool");
    expect(echo.annotations?.readOnlyHint).toBe(true);
    expect(echo.inputSchema).toEqual({
      type: "object",
      properties: { message: { type: "string", description: "Message to echo" } },
      required: ["message"],
    });
    expect(everything.serverInfo?.name).toBe("mcp-servers/everything");
  });

  it("runs echo, get-sum, structured content and an image through one Worker turn", async () => {
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "c1", name: "everything__echo", arguments: { message: "hello over MCP" } },
          { type: "tool_call", id: "c2", name: "everything__get-sum", arguments: { a: 2, b: 40 } },
          {
            type: "tool_call",
            id: "c3",
            name: "everything__get-structured-content",
            arguments: { location: "Chicago" },
          },
          { type: "tool_call", id: "c4", name: "everything__get-tiny-image", arguments: {} },
        ],
      },
      { blocks: [{ type: "text", text: "All four worked." }] },
    );
    const worker = mockWorker(provider, { tools: everything.tools() });

    const result = await worker.run("Try the everything server.");
    expect(result.status).toBe("finished");

    const [echo, sum, weather, image] = toolResults(worker);
    expect(echo).toMatchObject({ callId: "c1", content: "Echo: hello over MCP" });
    expect(sum).toMatchObject({ callId: "c2", content: "The sum of 2 and 40 is 42." });
    expect(weather?.content).toBe('{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}');
    expect(image?.content).toMatch(
      /^Here's the image you requested:\n\[image: image\/png, \d+\.\d KB\]\nThe image above is the MCP logo\.$/,
    );
    for (const r of [echo, sum, weather, image]) expect(r?.isError).toBeFalsy();

    // The provider saw the tools with their schemas, then the results.
    const first = provider.requests[0]?.body as { tools: { name: string; input_schema: unknown }[] };
    expect(first.tools.find((t) => t.name === "everything__get-sum")?.input_schema).toMatchObject({
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    const second = JSON.stringify(provider.requests[1]?.body);
    expect(second).toContain("The sum of 2 and 40 is 42.");
    // The image reaches the model as an image of the tool result, its base64 nowhere in the text.
    const request = provider.requests[1];
    if (request === undefined) throw new Error("no second request");
    expect(recordedImages(request)).toEqual([
      expect.objectContaining({ in: "tool_result", mediaType: "image/png" }),
    ]);
    expect(image?.content).not.toContain("iVBORw0KGgo");
    expect(image?.summary).not.toContain("iVBORw0KGgo");
  });

  it("answers wrong arguments at once and passes on the server's own errors", async () => {
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", id: "bad", name: "everything__get-sum", arguments: { a: "two" } },
          {
            type: "tool_call",
            id: "refused",
            name: "everything__get-resource-reference",
            arguments: { resourceType: "Text", resourceId: -1 },
          },
        ],
      },
      { blocks: [{ type: "text", text: "I will fix that." }] },
    );
    const worker = mockWorker(provider, { tools: everything.tools() });

    expect((await worker.run("Add two and nothing.")).status).toBe("finished");
    const [bad, refused] = toolResults(worker);
    expect(bad?.isError).toBe(true);
    expect(bad?.content).toContain("a: must be number");
    expect(bad?.content).toContain("(arguments): must have required property 'b'");
    expect(bad?.content).toContain("Call everything__get-sum again with corrected arguments.");
    expect(refused?.isError).toBe(true);
    expect(refused?.content).toMatch(/^everything__get-resource-reference failed: .*Invalid resourceId: -1/);
  });

  it("follows the server's tool list changes", async () => {
    // The server adds its conditional tools when the handshake completes and says so with
    // notifications/tools/list_changed; a fresh connection sees the refresh that follows.
    const fresh = await connectMcp(everythingConfig());
    try {
      const seen: (readonly McpTool[])[] = [];
      fresh.onToolsChanged((tools) => seen.push(tools));
      await eventually(() => seen.length > 0);
      expect(seen[0]?.map((t) => t.name)).toContain("everything__simulate-research-query");
      expect(fresh.tools()).toBe(seen.at(-1));

      const refreshed = await fresh.refresh();
      expect(seen.at(-1)).toBe(refreshed);
      expect(refreshed.map((t) => t.name)).toEqual(seen[0]?.map((t) => t.name));
    } finally {
      await fresh.close();
    }
  });
});

describe("large MCP results go to the BlobStore like any other", () => {
  it("stores a large JSON text as structured content, which inspect reads back", async () => {
    const marker = "the-value-the-model-looks-for";
    const withEnv = await connectMcp(
      everythingConfig({ name: "env", env: { MCP_TEST_MARKER: marker, MCP_TEST_PADDING: "p".repeat(2000) } }),
    );
    try {
      const store = new MemoryBlobStore();
      provider.enqueue({ blocks: [{ type: "tool_call", id: "env", name: "env__get-env", arguments: {} }] });
      provider.setHandler((request) => {
        const id = JSON.stringify(request.body).match(/\[blob:([0-9a-f-]{36})\]/)?.[1];
        if (provider.requests.length > 2 || id === undefined)
          return { blocks: [{ type: "text", text: "done" }] };
        return {
          blocks: [
            {
              type: "tool_call",
              name: "inspect",
              arguments: { blob_id: id, selector: "key:MCP_TEST_MARKER" },
            },
          ],
        };
      });
      const worker = mockWorker(provider, { tools: withEnv.tools(), blobStore: store });

      expect((await worker.run("What is MCP_TEST_MARKER?")).status).toBe("finished");
      const [env, inspected] = toolResults(worker);
      expect(env?.content).toMatch(/^\[blob:[0-9a-f-]{36}\] json_object \| \d+ keys\n── keys ──\n/);
      expect(Buffer.byteLength(env?.content ?? "")).toBeLessThanOrEqual(400);
      expect(env?.content).not.toContain("p".repeat(100));
      expect(store.size).toBe(1);
      expect(inspected?.content).toContain(marker);
    } finally {
      await withEnv.close();
    }
  });

  it("stores a long text result with a text summary", async () => {
    const store = new MemoryBlobStore();
    provider.enqueue(
      { blocks: [{ type: "tool_call", name: "everything__get-resource-links", arguments: { count: 10 } }] },
      { blocks: [{ type: "text", text: "ten links" }] },
    );
    const worker = mockWorker(provider, { tools: everything.tools(), blobStore: store });

    expect((await worker.run("Links please.")).status).toBe("finished");
    const [links] = toolResults(worker);
    expect(links?.content).toMatch(
      /^\[blob:([0-9a-f-]{36})\] text \| 11 lines\n── head ──\nHere are 10 resource links/,
    );
    const id = links?.content?.match(/\[blob:([0-9a-f-]{36})\]/)?.[1] ?? "";
    const blob = await store.load(id);
    expect(blob.kind === "text" && blob.text.split("\n")[10]).toMatch(/^\[resource link: Text Resource 10 /);
  });
});
