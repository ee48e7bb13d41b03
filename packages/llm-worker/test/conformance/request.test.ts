/**
 * What every scheme must do with the same `Request`, one row per scheme: where the request goes and
 * with which headers, where the generation settings land, that `providerOptions` win, and that what
 * another scheme produced (signatures, reasoning ids, encrypted content, server-tool payloads) is
 * left out. A new scheme is a new row. What only one scheme does is in its own `request.test.ts`.
 */
import { describe, expect, it } from "vitest";
import type { Item, SchemeName } from "../../src/llm-client/item.js";
import type { Request } from "../../src/llm-client/request.js";
import type { HttpRequest, Scheme } from "../../src/llm-client/scheme.js";
import { schemes } from "../../src/llm-client/schemes/index.js";

type Body = Record<string, unknown>;

interface Row {
  scheme: Scheme;
  env: Scheme["env"];
  framing: Scheme["framing"];
  /** The URL for base `https://gateway.example/v1/` (trailing slash) and model `m`. */
  url: string;
  /** The URL with the default base and model `m`. */
  defaultUrl: string;
  /** Headers sent without a key or extra headers. */
  headers: Record<string, string>;
  /** The header that carries key `sk-1`. */
  keyHeader: Record<string, string>;
  /** The model a request was sent for. */
  modelOf(http: HttpRequest): unknown;
  /** Where max tokens, temperature, top-p and stop sequences land (undefined: not supported). */
  settingsOf(body: Body): [unknown, unknown, unknown, unknown];
  /** A top-level key of the built body that holds a generation setting. */
  settingsKey: string;
  toolChoiceOf(body: Body): unknown;
  required: unknown;
}

const sse = { "content-type": "application/json", accept: "text/event-stream" };
const bearer = { authorization: "Bearer sk-1" };
const at = (body: Body, key: string): Body => body[key] as Body;

const ROWS: readonly Row[] = [
  {
    scheme: schemes.anthropic,
    env: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL" },
    framing: "sse",
    url: "https://gateway.example/v1/v1/messages",
    defaultUrl: "https://api.anthropic.com/v1/messages",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01" },
    keyHeader: { "x-api-key": "sk-1" },
    modelOf: (http) => (http.body as Body).model,
    settingsOf: (b) => [b.max_tokens, b.temperature, b.top_p, b.stop_sequences],
    settingsKey: "max_tokens",
    toolChoiceOf: (b) => b.tool_choice,
    required: { type: "any" },
  },
  {
    scheme: schemes["openai-chat"],
    env: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
    framing: "sse",
    url: "https://gateway.example/v1/chat/completions",
    defaultUrl: "https://api.openai.com/v1/chat/completions",
    headers: sse,
    keyHeader: bearer,
    modelOf: (http) => (http.body as Body).model,
    settingsOf: (b) => [b.max_completion_tokens, b.temperature, b.top_p, b.stop],
    settingsKey: "max_completion_tokens",
    toolChoiceOf: (b) => b.tool_choice,
    required: "required",
  },
  {
    scheme: schemes["openai-responses"],
    env: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" },
    framing: "sse",
    url: "https://gateway.example/v1/responses",
    defaultUrl: "https://api.openai.com/v1/responses",
    headers: sse,
    keyHeader: bearer,
    modelOf: (http) => (http.body as Body).model,
    // The Responses API has no stop sequences: they are not sent.
    settingsOf: (b) => [b.max_output_tokens, b.temperature, b.top_p, b.stop],
    settingsKey: "max_output_tokens",
    toolChoiceOf: (b) => b.tool_choice,
    required: "required",
  },
  {
    scheme: schemes.gemini,
    env: { apiKey: "GEMINI_API_KEY", baseURL: "GEMINI_BASE_URL" },
    framing: "json-or-sse",
    // A base that already names an API version keeps it.
    url: "https://gateway.example/v1/models/m:streamGenerateContent?alt=sse",
    defaultUrl: "https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent?alt=sse",
    headers: { "content-type": "application/json" },
    keyHeader: { "x-goog-api-key": "sk-1" },
    // Gemini names the model in the URL, not the body.
    modelOf: (http) => /models\/([^:]+):/.exec(http.url)?.[1],
    settingsOf: (b) => {
      const c = at(b, "generationConfig");
      return [c.maxOutputTokens, c.temperature, c.topP, c.stopSequences];
    },
    settingsKey: "generationConfig",
    toolChoiceOf: (b) => at(at(b, "toolConfig"), "functionCallingConfig").mode,
    required: "ANY",
  },
  {
    scheme: schemes.ollama,
    env: { apiKey: "OLLAMA_API_KEY", baseURL: "OLLAMA_HOST" },
    framing: "ndjson",
    url: "https://gateway.example/v1/api/chat",
    defaultUrl: "http://127.0.0.1:11434/api/chat",
    headers: { "content-type": "application/json" },
    keyHeader: bearer,
    modelOf: (http) => (http.body as Body).model,
    settingsOf: (b) => {
      const o = at(b, "options");
      return [o.num_predict, o.temperature, o.top_p, o.stop];
    },
    settingsKey: "options",
    // Ollama has no tool choice: tools are sent (or, for `none`, not) and the model decides.
    toolChoiceOf: (b) => (Array.isArray(b.tools) ? "required" : undefined),
    required: "required",
  },
];

it("covers every scheme", () => {
  expect(ROWS.map((r) => r.scheme.name).sort()).toEqual(Object.keys(schemes).sort());
});

const hi: Request = { items: [{ type: "message", role: "user", text: "hi" }] };
const bodyOf = (row: Row, request: Request): Body =>
  row.scheme.buildHttpRequest(request, { model: "m", baseURL: "" }).body as Body;

describe.each(ROWS.map((row) => [row.scheme.name, row] as const))("%s request", (_name, row) => {
  it("names its environment variables and framing", () => {
    expect(row.scheme.env).toEqual(row.env);
    expect(row.scheme.framing).toBe(row.framing);
  });

  it("posts under the configured base with the key, the caller's headers last", () => {
    const http = row.scheme.buildHttpRequest(hi, {
      model: "m",
      baseURL: "https://gateway.example/v1/",
      apiKey: "sk-1",
      headers: { "x-extra": "1", "content-type": "application/json; charset=utf-8" },
    });
    expect(http.url).toBe(row.url);
    expect(http.headers).toEqual({
      ...row.headers,
      ...row.keyHeader,
      "x-extra": "1",
      "content-type": "application/json; charset=utf-8",
    });
  });

  it("uses the default base URL and sends no key header without a key", () => {
    const http = row.scheme.buildHttpRequest(hi, { model: "m", baseURL: "" });
    expect(http.url).toBe(row.defaultUrl);
    expect(http.headers).toEqual(row.headers);
  });

  it("sends the request's model over the endpoint's", () => {
    expect(row.modelOf(row.scheme.buildHttpRequest(hi, { model: "m", baseURL: "" }))).toBe("m");
    const http = row.scheme.buildHttpRequest({ ...hi, model: "override" }, { model: "m", baseURL: "" });
    expect(row.modelOf(http)).toBe("override");
  });

  it("puts the generation settings where the provider reads them", () => {
    const body = bodyOf(row, {
      ...hi,
      maxOutputTokens: 123,
      temperature: 0.5,
      topP: 0.9,
      stopSequences: ["END"],
    });
    const stop = row.scheme.name === "openai-responses" ? undefined : ["END"];
    expect(row.settingsOf(body)).toEqual([123, 0.5, 0.9, stop]);
  });

  it("forces a tool call when asked, and sends no tools for tool choice none", () => {
    const tools = [{ name: "t", description: "d", inputSchema: { type: "object", properties: {} } }];
    expect(row.toolChoiceOf(bodyOf(row, { ...hi, tools, toolChoice: "required" }))).toEqual(row.required);
    expect(JSON.stringify(bodyOf(row, hi))).not.toContain('"t"');
  });

  it("merges providerOptions over the built body last, shallowly", () => {
    const body = bodyOf(row, {
      ...hi,
      maxOutputTokens: 123,
      providerOptions: { [row.settingsKey]: "from-options", x_custom: { a: 1 } },
    });
    expect(body[row.settingsKey]).toBe("from-options");
    expect(body.x_custom).toEqual({ a: 1 });
  });

  it("leaves out what another scheme produced that only it understands", () => {
    const other: SchemeName = row.scheme.name === "anthropic" ? "gemini" : "anthropic";
    const items: Item[] = [
      { type: "message", role: "user", text: "first question" },
      {
        type: "reasoning",
        text: "FOREIGN thought",
        signature: "FOREIGN-signature",
        itemId: "rs_FOREIGN",
        encryptedContent: "FOREIGN-encrypted",
        origin: other,
      },
      { type: "redacted_reasoning", data: "FOREIGN-redacted", origin: other },
      {
        type: "server_tool",
        role: "call",
        id: "srvtoolu_FOREIGN",
        name: "web_search",
        payload: { q: "FOREIGN" },
        origin: other,
      },
      { type: "message", role: "assistant", text: "first answer" },
      { type: "message", role: "user", text: "second question" },
    ];
    const sent = JSON.stringify(bodyOf(row, { items }));
    expect(sent).not.toContain("FOREIGN");
    for (const text of ["first question", "first answer", "second question"]) expect(sent).toContain(text);
  });
});
