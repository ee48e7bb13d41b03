/**
 * MCP over streamable HTTP: server-everything in its `streamableHttp` mode on a local port, and a
 * plain HTTP server for the failures.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EVERYTHING_ENTRY, freePort, mockWorker, toolResults } from "../../test/support/mcp-test-servers.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { McpConnectError } from "./mcp-connect-error.js";
import { connectMcp, type McpConnection } from "./mcp-connection.js";

let provider: MockProvider;
beforeEach(async () => {
  provider = await startMockProvider();
});
afterEach(() => provider.close());

let server: ChildProcess;
let url: string;
beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  server = spawn(process.execPath, [EVERYTHING_ENTRY, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    server.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("listening on port")) resolve();
    });
    server.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
});
afterAll(() => {
  server.kill();
});

describe("streamable HTTP", () => {
  let everything: McpConnection;
  beforeAll(async () => {
    everything = await connectMcp({ name: "remote", url, headers: { "x-yoake-test": "1" } });
  });
  afterAll(() => everything.close());

  it("lists the tools and runs them through a Worker turn", async () => {
    expect(everything.tools().map((t) => t.name)).toEqual(
      expect.arrayContaining(["remote__echo", "remote__get-sum", "remote__trigger-long-running-operation"]),
    );
    provider.enqueue(
      {
        blocks: [
          { type: "tool_call", name: "remote__echo", arguments: { message: "over HTTP" } },
          { type: "tool_call", name: "remote__get-sum", arguments: { a: 20, b: 22 } },
        ],
      },
      { blocks: [{ type: "text", text: "42" }] },
    );
    const worker = mockWorker(provider, { tools: everything.tools() });

    expect((await worker.run("Echo and add.")).status).toBe("finished");
    expect(toolResults(worker).map((r) => r.content)).toEqual([
      "Echo: over HTTP",
      "The sum of 20 and 22 is 42.",
    ]);
  });

  it("cancels a running call when the run is aborted", async () => {
    provider.enqueue({
      blocks: [
        {
          type: "tool_call",
          name: "remote__trigger-long-running-operation",
          arguments: { duration: 30, steps: 30 },
        },
      ],
    });
    const worker = mockWorker(provider, { tools: everything.tools() });
    const controller = new AbortController();
    worker.onToolStart(() => setTimeout(() => controller.abort(), 100));

    const started = Date.now();
    expect((await worker.run("Go.", { signal: controller.signal })).status).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(5000);

    // The session is still usable afterwards.
    provider.enqueue(
      { blocks: [{ type: "tool_call", name: "remote__echo", arguments: { message: "after" } }] },
      { blocks: [{ type: "text", text: "ok" }] },
    );
    expect((await worker.run("Echo.")).status).toBe("finished");
    expect(toolResults(worker).at(-1)?.content).toBe("Echo: after");
  });
});

describe("streamable HTTP failures", () => {
  let refusing: Server;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    refusing = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(401, { "content-type": "text/plain" }).end("bad token");
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => refusing.close(() => resolve())));

  it("sends the configured headers, and names the HTTP status the server answered", async () => {
    const port = (refusing.address() as AddressInfo).port;
    const err = await connectMcp({
      name: "locked",
      url: `http://127.0.0.1:${port}/mcp`,
      headers: { authorization: "Bearer not-valid" },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectError);
    expect(err).toMatchObject({ kind: "rejected", server: "locked" });
    expect((err as Error).message).toMatch(
      /^MCP server "locked" \(http:\/\/127\.0\.0\.1:\d+\/mcp\) answered HTTP 401: /,
    );
    expect(seen[0]?.authorization).toBe("Bearer not-valid");
  });

  it("says when nothing listens at the URL", async () => {
    const port = await freePort();
    const err = await connectMcp({ name: "nobody", url: `http://127.0.0.1:${port}/mcp` }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ kind: "unreachable" });
    expect((err as Error).message).toMatch(
      /^MCP server "nobody" \(.+\) could not be reached: .*ECONNREFUSED/,
    );
  });

  it("refuses a URL that is not http(s) before any request", async () => {
    for (const url of ["localhost:3001/mcp", "not a url"]) {
      const err = await connectMcp({ name: "typo", url }).catch((e: unknown) => e);
      expect(err).toMatchObject({
        kind: "invalid_config",
        message: `MCP server "typo": not an http(s) URL: ${url}`,
      });
    }
  });
});
