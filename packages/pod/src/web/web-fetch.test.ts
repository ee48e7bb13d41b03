/**
 * `web_fetch` through a real Pod, the mock provider and a real HTTP server on 127.0.0.1 (allowed
 * explicitly by the test's manifest), and its refusals of local addresses when they are not.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "../../test/support/pod-test-kit.js";

const bed = usePodTestbed();
let server: Server;
let origin: string;
let port: number;
const seenHeaders: IncomingHttpHeaders[] = [];

const PAGE = `<!doctype html><html><head><title>T</title><style>body{}</style></head><body>
<h1>Release 2.0</h1><script>alert("x")</script><p>Read the <a href="/docs">docs</a>.</p><ul><li>fast</li><li>small</li></ul>
</body></html>`;

beforeEach(async () => {
  seenHeaders.length = 0;
  server = createServer((request, response) => {
    seenHeaders.push(request.headers);
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: Record<string, string> = {},
    ) => {
      response.writeHead(status, { "content-type": type, "set-cookie": "session=abc", ...headers });
      response.end(body);
    };
    switch (request.url) {
      case "/page":
        return send(200, "text/html; charset=utf-8", PAGE);
      case "/moved":
        return send(302, "text/plain", "", { location: "/page" });
      case "/to-localhost":
        return send(302, "text/plain", "", { location: `http://localhost:${port}/page` });
      case "/big":
        return send(200, "text/plain", "line of text\n".repeat(30_000));
      case "/image":
        return send(200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      default:
        return send(404, "text/plain", "not here");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface SentResult {
  content: string;
  is_error?: boolean;
}
const resultsOf = (json: string): SentResult[] =>
  (JSON.parse(json) as { messages: Array<{ content: unknown }> }).messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<{ type: string }>).filter((b) => b.type === "tool_result")
      : [],
  ) as unknown as SentResult[];

describe("web_fetch", () => {
  it("fetches an allowed local server as markdown, follows a redirect, sends no cookie, stores a big page", async () => {
    const { mock, createPod, sent } = bed();
    const urls = ["/page", "/moved", "/to-localhost", "/big", "/image", "/nothing"];
    mock.enqueue(
      ...urls.map((url, i) => toolCall("web_fetch", { url: `${origin}${url}` }, `toolu_${i}`)),
      answer("read"),
    );
    const pod = await createPod({ web: { allow_hosts: ["127.0.0.1"], allow_local: true } });
    await pod.run("read the release page");
    const results = resultsOf(sent(urls.length));

    expect(results[0]?.content).toBe(
      `${origin}/page (HTTP 200)\n\n# Release 2.0\n\nRead the [docs](/docs).\n\n-   fast\n-   small`,
    );
    expect(results[1]?.content).toContain(`${origin}/page (HTTP 200)\n\n# Release 2.0`);
    expect(results[2]).toMatchObject({ is_error: true });
    expect(results[2]?.content).toContain("localhost is not in the manifest's web.allow_hosts");
    // Larger than the tool output limit: kept in the BlobStore, the model gets a summary to inspect.
    expect(results[3]?.content).toMatch(/^\[blob:/);
    expect(results[4]?.content).toContain("image/png, not a page that can be read as text");
    expect(results[5]).toMatchObject({ is_error: true });
    expect(results[5]?.content).toContain("(HTTP 404)");
    // The second request (after the redirect) carried no cookie either, and nothing secret.
    for (const headers of seenHeaders) {
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain("test-key");
    }
    await pod.close();
  });

  it("refuses local addresses unless allowed: an IP literal, and a name that resolves to one", async () => {
    const { mock, createPod, sent } = bed();
    const urls = [
      `${origin}/page`,
      `http://localhost:${port}/page`,
      "http://[::1]/",
      "http://169.254.169.254/latest/meta-data",
      "file:///etc/passwd",
    ];
    mock.enqueue(...urls.map((url, i) => toolCall("web_fetch", { url }, `toolu_${i}`)), answer("no"));
    const pod = await createPod({ web: { allow_hosts: ["*"] } });
    await pod.run("fetch them");
    const results = resultsOf(sent(urls.length));
    expect(results.map((r) => r.is_error)).toEqual([true, true, true, true, true]);
    expect(results[0]?.content).toContain("127.0.0.1 is a local network address");
    expect(results[1]?.content).toMatch(/localhost \((127\.0\.0\.1|::1)\) is a local network address/);
    expect(results[2]?.content).toContain("::1 is a local network address");
    expect(results[3]?.content).toContain("169.254.169.254 is a local network address");
    expect(results[4]?.content).toContain("only http and https URLs are fetched");
    expect(seenHeaders).toHaveLength(0);
    await pod.close();
  });

  it("is not offered without allowed hosts", async () => {
    const { mock, createPod, sent } = bed();
    mock.enqueue(answer("hi"));
    const pod = await createPod();
    await pod.run("hello");
    expect(sent(0)).not.toContain('"name":"web_fetch"');
    await pod.close();
  });
});
