import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { headlessFixturePerTest, toolResults } from "./cli-test-kit.js";

const setUp = headlessFixturePerTest();
let server: Server;
let origin: string;

beforeEach(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body><h2>Changelog</h2><p>Version <b>3.1</b> fixes the parser.</p></body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("yoake -p with web_fetch", () => {
  it("fetches a page the user's manifest allows, and refuses it when local addresses are not allowed", async () => {
    const f = await setUp();
    const config = path.join(f.env.XDG_CONFIG_HOME as string, "yoake");
    await mkdir(config, { recursive: true });
    const manifest = (local: boolean) =>
      writeFile(
        path.join(config, "manifest.toml"),
        `[web]\nallow_hosts = ["127.0.0.1"]\nallow_local = ${local}\n`,
      );
    const fetchCall = {
      blocks: [{ type: "tool_call" as const, name: "web_fetch", arguments: { url: `${origin}/changelog` } }],
    };

    await manifest(true);
    f.provider.enqueue(fetchCall, { blocks: [{ type: "text", text: "3.1 fixes the parser." }] });
    const out = await f.run(["-p", `what changed? see ${origin}/changelog`]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe("3.1 fixes the parser.\n");
    expect(toolResults(f.provider.requests[1]?.body)[0]?.content).toBe(
      `${origin}/changelog (HTTP 200)\n\n## Changelog\n\nVersion **3.1** fixes the parser.`,
    );

    await manifest(false);
    f.provider.enqueue(fetchCall, { blocks: [{ type: "text", text: "could not read it" }] });
    await f.run(["-p", "again"]);
    const refused = toolResults(f.provider.requests[3]?.body)[0];
    expect(refused?.is_error).toBe(true);
    expect(refused?.content).toContain("127.0.0.1 is a local network address");
  });

  it("turns on the provider's own web search with [web] provider_search", async () => {
    const f = await setUp();
    const config = path.join(f.env.XDG_CONFIG_HOME as string, "yoake");
    await mkdir(config, { recursive: true });
    await writeFile(
      path.join(config, "manifest.toml"),
      '[web]\nprovider_search = true\nprovider_search_domains = ["nodejs.org"]\n',
    );
    f.provider.enqueue({ blocks: [{ type: "text", text: "Node 24 is out." }] });
    const out = await f.run(["-p", "what is new in Node?"]);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toBe("Node 24 is out.\n");
    const body = f.provider.requests[0]?.body as { tools?: Array<{ type?: string }> } | undefined;
    const tools = body?.tools ?? [];
    expect(tools.filter((tool) => tool.type === "web_search_20250305")).toEqual([
      expect.objectContaining({ name: "web_search", allowed_domains: ["nodejs.org"] }),
    ]);
    // No host list: web_fetch stays off.
    expect(JSON.stringify(tools)).not.toContain("web_fetch");
  });
});
