import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, errorsOf, HELLO, mockClient, REQUEST } from "../../test/support/client-test-kit.js";
import { type MockProvider, startMockProvider } from "../testing/mock-provider.js";
import { secretRedactor } from "./error-presenter.js";
import type { SchemeName } from "./item.js";
import type { RetryNotice } from "./retry.js";

let mock: MockProvider;
beforeEach(async () => {
  mock = await startMockProvider({ writeSize: 24 });
});
afterEach(() => mock.close());

describe("error messages name the provider, the status and the key to check", () => {
  it.each([
    ["anthropic", "ANTHROPIC_API_KEY"],
    ["openai-chat", "OPENAI_API_KEY"],
    ["openai-responses", "OPENAI_API_KEY"],
    ["gemini", "GEMINI_API_KEY"],
  ] as const)("%s: a 401 names %s", async (scheme, variable) => {
    mock.enqueue({ fault: "status", status: 401, message: "invalid x-api-key" });
    const response = await mockClient(mock, scheme).complete(REQUEST);
    expect(response.error).toMatchObject({ kind: "authentication", status: 401 });
    expect(response.error?.message).toBe(`${scheme}: 401 invalid x-api-key — check ${variable}`);
  });

  it("a 403 names the variable the embedder says the key came from, and the provider it names", async () => {
    mock.enqueue({ fault: "status", status: 403, message: "no access to this model" });
    const response = await mockClient(mock, "openai-chat", {
      provider: "groq",
      apiKeyVariable: "GROQ_API_KEY",
    }).complete(REQUEST);
    expect(response.error?.message).toBe("groq: 403 no access to this model — check GROQ_API_KEY");
  });

  it("a server error says the status without a key hint; an error event names the provider", async () => {
    mock.enqueue({ fault: "status", status: 500, message: "boom" });
    const failed = await mockClient(mock, "anthropic", { retry: { maxRetries: 0 } }).complete(REQUEST);
    expect(failed.error?.message).toBe("anthropic: 500 boom");
    mock.enqueue({ fault: "reset" });
    const reset = await mockClient(mock, "ollama", { retry: { maxRetries: 0 } }).complete(REQUEST);
    expect(reset.error?.message).toMatch(/^ollama: the request failed: /);
  });

  it("retry notices carry the same message", async () => {
    mock.enqueue({ fault: "status", status: 529, message: "Overloaded" }, HELLO);
    const notices: RetryNotice[] = [];
    await mockClient(mock, "anthropic", { onRetry: (n) => notices.push(n) }).complete(REQUEST);
    expect(notices).toMatchObject([
      { retry: 1, error: { message: "anthropic: 529 Overloaded", status: 529 } },
    ]);
  });
});

describe("an error page with status 200 is reported as what it is", () => {
  it.each(["anthropic", "openai-chat", "openai-responses", "gemini", "ollama"] as SchemeName[])(
    "%s: an HTML page",
    async (scheme) => {
      mock.enqueue({ fault: "page", page: "html", title: "Access denied | api.example.com" });
      const events = await collect(mockClient(mock, scheme).stream(REQUEST));
      expect(errorsOf(events)).toHaveLength(1);
      expect(errorsOf(events)[0]?.message).toBe(
        `${scheme}: the server answered 200 with an HTML page instead of an event stream: Access denied | api.example.com`,
      );
      expect(mock.requests).toHaveLength(1);
    },
  );

  it.each(["anthropic", "openai-chat", "openai-responses", "gemini"] as SchemeName[])(
    "%s: a JSON error document",
    async (scheme) => {
      mock.enqueue({ fault: "page", page: "json", message: "upstream connect error" });
      const events = await collect(mockClient(mock, scheme, { retry: { maxRetries: 0 } }).stream(REQUEST));
      expect(errorsOf(events)[0]?.message).toBe(
        `${scheme}: the server answered 200 with a JSON document instead of an event stream: upstream connect error`,
      );
    },
  );

  it("a JSON overloaded error with 200 is retried like a 529", async () => {
    mock.enqueue({ fault: "page", page: "json", message: "Overloaded", code: "overloaded_error" }, HELLO);
    const response = await mockClient(mock, "anthropic").complete(REQUEST);
    expect(response.status).toBe("completed");
    expect(mock.requests).toHaveLength(2);
  });

  it("a whole JSON answer where a stream was expected is quoted", async () => {
    mock.enqueue({
      raw: '{"id":"chatcmpl-1","object":"chat.completion","choices":[]}',
      contentType: "application/json",
    });
    const response = await mockClient(mock, "openai-chat").complete(REQUEST);
    expect(response.error).toMatchObject({ kind: "stream" });
    expect(response.error?.message).toContain('instead of an event stream: {"id":"chatcmpl-1"');
  });
});

describe("a key the provider echoes is redacted", () => {
  const KEY = "sk-test-0123456789abcdefWXYZ";

  it("whole, in the message and the raw error", async () => {
    mock.enqueue({ fault: "status", status: 401, message: `Incorrect API key provided: ${KEY}.` });
    const response = await mockClient(mock, "openai-chat", { apiKey: KEY }).complete(REQUEST);
    expect(JSON.stringify(response.error)).not.toContain(KEY);
    expect(response.error?.message).toBe(
      "openai-chat: 401 Incorrect API key provided: [redacted]. — check OPENAI_API_KEY",
    );
  });

  it("masked, as gateways echo it, in an error event inside the stream", async () => {
    const body = `data: {"error":{"message":"Invalid proxy server token passed. Received API Key = sk-...WXYZ, Key Hash=ab12","type":"auth_error","code":"401"}}\n\n`;
    mock.enqueue({ raw: body });
    const events = await collect(mockClient(mock, "openai-chat", { apiKey: KEY }).stream(REQUEST));
    const text = JSON.stringify(events);
    expect(text).not.toContain("sk-...WXYZ");
    expect(errorsOf(events)[0]?.message).toContain("Received API Key = [redacted], Key Hash");
  });

  it("leaves text without the key alone, and never redacts a key too short to tell", () => {
    const redact = secretRedactor(KEY);
    expect(redact("no key here: sk-other")).toBe("no key here: sk-other");
    expect(redact(`a ${KEY} b sk-proj-****WXYZ c`)).toBe("a [redacted] b [redacted] c");
    expect(secretRedactor("abc")("abc")).toBe("abc");
  });
});
