import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadManifest } from "./manifest/load.js";
import { clientForModel } from "./pod-client.js";

let mock: MockProvider;
let base: string;

beforeEach(async () => {
  mock = await startMockProvider();
  mock.setHandler(() => ({ blocks: [{ type: "text", text: "hi" }] }));
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-pod-client-")));
});

afterEach(async () => {
  await mock.close();
  rmSync(base, { recursive: true, force: true });
});

/** Resolves `ref` as a user would name it, then sends one request with a client made from `env`. */
async function send(
  ref: string,
  env: Record<string, string>,
  model: Record<string, string> = {},
): Promise<{ status: string; error?: unknown }> {
  const manifest = await loadManifest({
    cwd: base,
    env: { HOME: base },
    overrides: { model: { ref, ...model } },
  });
  const client = clientForModel(manifest.model, { HOME: base, ...env });
  return client.complete({ items: [{ type: "message", role: "user", text: "hello" }] });
}

const port = () => new URL(mock.url).port;

describe("the endpoint a key is sent to", () => {
  it("ANTHROPIC_BASE_URL replaces Anthropic's host", async () => {
    const response = await send("anthropic/claude-sonnet-4-5", {
      ANTHROPIC_API_KEY: "k1",
      ANTHROPIC_BASE_URL: mock.url,
    });
    expect(response.status).toBe("completed");
    expect(mock.requests[0]).toMatchObject({ path: "/v1/messages", headers: { "x-api-key": "k1" } });
  });

  it("OPENAI_BASE_URL replaces OpenAI's host", async () => {
    const response = await send("openai/gpt-5", {
      OPENAI_API_KEY: "k2",
      OPENAI_BASE_URL: mock.baseURLFor("openai-responses"),
    });
    expect(response.status).toBe("completed");
    expect(mock.requests[0]).toMatchObject({
      path: "/v1/responses",
      headers: { authorization: "Bearer k2" },
    });
  });

  it.each(["GOOGLE_GEMINI_BASE_URL", "GEMINI_BASE_URL"])("%s replaces Gemini's host", async (variable) => {
    const response = await send("gemini/gemini-2.5-flash", { GEMINI_API_KEY: "k3", [variable]: mock.url });
    expect(response.status).toBe("completed");
    expect(mock.requests[0]?.headers["x-goog-api-key"]).toBe("k3");
  });

  it("GOOGLE_GEMINI_BASE_URL, the SDK's name, wins over GEMINI_BASE_URL", async () => {
    const response = await send("gemini/gemini-2.5-flash", {
      GEMINI_API_KEY: "k3",
      GOOGLE_GEMINI_BASE_URL: mock.url,
      GEMINI_BASE_URL: "http://127.0.0.1:9",
    });
    expect(response.status).toBe("completed");
  });

  it.each([
    ["host:port", () => `127.0.0.1:${port()}`],
    ["a URL", () => `http://127.0.0.1:${port()}`],
    ["a URL with a trailing slash", () => `http://127.0.0.1:${port()}/`],
    [":port alone (the local host)", () => `:${port()}`],
    ["a host name and port without a scheme", () => `localhost:${port()}`],
  ])("OLLAMA_HOST as %s wins over the catalogue's localhost:11434", async (_form, value) => {
    const response = await send("ollama/gemma3:1b", { OLLAMA_HOST: value() });
    expect(response.status).toBe("completed");
    expect(mock.requests[0]?.path).toBe("/api/chat");
  });

  it("OLLAMA_HOST as a bare host means Ollama's port 11434", async (context) => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? "");
      response.writeHead(500).end();
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(11434, "127.0.0.1", () => resolve(true));
    });
    if (!listening) context.skip();
    try {
      await send("ollama/gemma3:1b", { OLLAMA_HOST: "127.0.0.1" });
      expect(seen[0]).toBe("/api/chat");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a manifest's base_url wins over the variable", async () => {
    const response = await send(
      "anthropic/claude-sonnet-4-5",
      { ANTHROPIC_API_KEY: "k1", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
      { base_url: mock.url },
    );
    expect(response.status).toBe("completed");
    expect(mock.requests).toHaveLength(1);
  });
});
