import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodeStream } from "../llm-client/decode.js";
import type { SchemeName } from "../llm-client/item.js";
import { collectResponse } from "../timeline/collect-response.js";
import { encodeScripted, type MockProvider, startMockProvider } from "./mock-provider.js";
import type { ScriptedResponse } from "./script.js";

const HELLO: ScriptedResponse = {
  blocks: [{ type: "text", text: "Hello from the mock provider" }],
  pieceSize: 4,
};

/** The path each scheme's requests take, as the schemes build them from `baseURLFor`. */
const PATHS: Record<SchemeName, string> = {
  anthropic: "/v1/messages",
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
  gemini: "/v1beta/models/gemini-test:streamGenerateContent",
  ollama: "/api/chat",
};

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider({ writeSize: 16 });
});
afterEach(() => mock.close());

function post(path: string, body: unknown = { model: "m" }, headers: Record<string, string> = {}) {
  return fetch(`${mock.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function* bodyOf(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, "utf8");
}

/** Counts the chunks the client received, to show the body really streamed. */
async function readChunks(response: globalThis.Response): Promise<{ text: string; chunks: number }> {
  let text = "";
  let chunks = 0;
  for await (const chunk of response.body ?? []) {
    text += Buffer.from(chunk).toString("utf8");
    chunks++;
  }
  return { text, chunks };
}

describe.each(Object.keys(PATHS) as SchemeName[])("%s route", (scheme) => {
  it("streams the scripted response in the scheme's wire format, in several writes", async () => {
    mock.enqueue(HELLO);
    const response = await post(PATHS[scheme]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      scheme === "ollama" ? "application/x-ndjson" : "text/event-stream",
    );
    const { text, chunks } = await readChunks(response);
    expect(text.length).toBe(encodeScripted(scheme, HELLO).length);
    expect(chunks).toBeGreaterThan(1);
    const decoded = await collectResponse(decodeStream(scheme, bodyOf(text)), scheme);
    expect(decoded).toMatchObject({ status: "completed", text: "Hello from the mock provider" });
  });

  it("renders an error status in the provider's error format", async () => {
    mock.enqueue({ fault: "status", status: 429, message: "slow down", headers: { "retry-after": "1" } });
    const response = await post(PATHS[scheme]);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("1");
    const body = (await response.json()) as Record<string, unknown>;
    const expected = {
      anthropic: { type: "error", error: { type: "rate_limit_error", message: "slow down" } },
      "openai-chat": { error: { message: "slow down", code: null } },
      "openai-responses": { error: { message: "slow down", code: null } },
      gemini: { error: { code: 429, message: "slow down", status: "RESOURCE_EXHAUSTED" } },
      ollama: { error: "slow down" },
    }[scheme];
    expect(body).toMatchObject(expected);
  });
});

describe("recording", () => {
  it("records path, query, headers, parsed body and model", async () => {
    mock.enqueue(HELLO, HELLO);
    await (await post("/v1/messages", { model: "claude-test", stream: true }, { "x-api-key": "k1" })).text();
    await (await post(`${PATHS.gemini}?alt=sse`, { contents: [] }, { "x-goog-api-key": "k2" })).text();
    expect(mock.requests).toMatchObject([
      {
        scheme: "anthropic",
        method: "POST",
        path: "/v1/messages",
        query: {},
        headers: { "x-api-key": "k1" },
        body: { model: "claude-test", stream: true },
        model: "claude-test",
      },
      {
        scheme: "gemini",
        path: PATHS.gemini,
        query: { alt: "sse" },
        headers: { "x-goog-api-key": "k2" },
        model: "gemini-test",
      },
    ]);
    expect(mock.requests[1]?.receivedAt).toBeGreaterThanOrEqual(mock.requests[0]?.receivedAt ?? Infinity);
  });

  it("gives each scheme a base URL its request builder completes to the right route", () => {
    expect(mock.baseURLFor("anthropic")).toBe(mock.url);
    expect(mock.baseURLFor("openai-chat")).toBe(`${mock.url}/v1`);
    expect(mock.baseURLFor("openai-responses")).toBe(`${mock.url}/v1`);
    expect(mock.baseURLFor("gemini")).toBe(mock.url);
    expect(mock.baseURLFor("ollama")).toBe(mock.url);
  });
});

describe("scripting", () => {
  it("plays the queue first, then the handler, which sees the request", async () => {
    mock.enqueue({ fault: "status", status: 500 });
    mock.setHandler((request) => ({
      blocks: [{ type: "text", text: `you asked for ${request.model}` }],
    }));
    expect((await post("/api/chat", { model: "first" })).status).toBe(500);
    const { text } = await readChunks(await post("/api/chat", { model: "second" }));
    const decoded = await collectResponse(decodeStream("ollama", bodyOf(text)), "ollama");
    expect(decoded.text).toBe("you asked for second");
  });

  it("says clearly when nothing was scripted, and when no API is at a path", async () => {
    const unscripted = await post("/v1/messages");
    expect(unscripted.status).toBe(400);
    expect(JSON.stringify(await unscripted.json())).toContain("nothing scripted for POST /v1/messages");
    const unknown = await post("/v2/elsewhere");
    expect(unknown.status).toBe(404);
  });

  it("answers a throwing handler with a 500 naming the error", async () => {
    mock.setHandler(() => {
      throw new Error("handler bug");
    });
    const response = await post("/v1/messages");
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("handler bug");
  });

  it("streams a raw body as given", async () => {
    mock.enqueue({ raw: "data: {}\n\n", headers: { "x-extra": "1" } });
    const response = await post("/v1/chat/completions");
    expect(response.headers.get("x-extra")).toBe("1");
    expect(await response.text()).toBe("data: {}\n\n");
  });
});

describe("faults", () => {
  it("sends garbage with a 200", async () => {
    mock.enqueue({ fault: "garbage" });
    const response = await post("/v1/messages");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<html>");
  });

  it("resets mid-body after the given bytes", async () => {
    mock.enqueue({ fault: "reset", response: HELLO, afterBytes: 40 });
    const response = await post("/v1/messages");
    let received = 0;
    const failure = await (async () => {
      for await (const chunk of response.body ?? []) received += chunk.length;
    })().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(received).toBe(40);
  });

  it("drops the connection before any headers", async () => {
    mock.enqueue({ fault: "reset" });
    await expect(post("/v1/messages")).rejects.toThrow();
  });

  it("stalls with the socket open, and close() still ends promptly", async () => {
    mock.enqueue({ fault: "stall", response: HELLO, afterBytes: 20 });
    const response = await post("/v1/messages");
    const reader = response.body?.getReader();
    let received = 0;
    while (received < 20) received += (await reader?.read())?.value?.length ?? 0;
    const next = await Promise.race([
      reader?.read().catch(() => "closed"),
      new Promise((resolve) => setTimeout(() => resolve("silent"), 50)),
    ]);
    expect(next).toBe("silent");
    expect(mock.openConnections).toBe(1);
    await mock.close();
    expect(mock.openConnections).toBe(0);
  });
});
