import { describe, expect, it } from "vitest";
import { describeErrorResponse, errorFromResponse } from "./http-error.js";

describe("errorFromResponse", () => {
  const error = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    errorFromResponse(
      status,
      "",
      new Headers(headers),
      typeof body === "string" ? body : JSON.stringify(body),
    ).toInfo();

  it("names the status when neither the body nor the status line says anything", () => {
    expect(error(503, "")).toMatchObject({ status: 503, message: "Service Unavailable" });
    expect(error(599, "").message).toBe("no details");
  });

  it("reads Anthropic's error body and request id", () => {
    const body = { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } };
    expect(error(401, body, { "request-id": "req_1" })).toEqual({
      kind: "authentication",
      message: "invalid x-api-key",
      code: "authentication_error",
      status: 401,
      requestId: "req_1",
      raw: body,
    });
  });

  it("reads OpenAI's error body and refines a 400 by its message", () => {
    const body = {
      error: {
        message: "This model's maximum context length is 128000 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    };
    const info = error(400, body, { "x-request-id": "req_2" });
    expect(info).toMatchObject({
      kind: "context_too_long",
      code: "context_length_exceeded",
      requestId: "req_2",
    });
  });

  it("reads Gemini's error object or array, and knows its bad-key 400", () => {
    const body = {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }],
      },
    };
    expect(error(400, [body])).toMatchObject({ kind: "authentication", code: "INVALID_ARGUMENT" });
    const overloaded = { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } };
    expect(error(503, overloaded)).toMatchObject({ kind: "overloaded", message: "The model is overloaded." });
  });

  it("reads Ollama's error string", () => {
    expect(error(404, { error: 'model "llama9" not found, try pulling it first' })).toMatchObject({
      kind: "not_found",
      message: 'model "llama9" not found, try pulling it first',
    });
  });

  it("keeps a body that is not JSON as raw, with the status text as the message", () => {
    const info = errorFromResponse(502, "Bad Gateway", new Headers(), "<html>bad gateway</html>").toInfo();
    expect(info).toMatchObject({
      kind: "server",
      status: 502,
      message: "Bad Gateway",
      raw: "<html>bad gateway</html>",
    });
    expect(errorFromResponse(503, "", new Headers(), "").message).toBe("Service Unavailable");
  });

  it("says when a rate limit lifts from retry-after-ms, retry-after seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-25T02:00:00.000Z");
    const limited = (headers: Record<string, string>) =>
      describeErrorResponse(429, "", new Headers(headers), "{}", now).error.resetAt;
    expect(limited({ "retry-after-ms": "1500" })).toBe("2026-11-25T02:00:01.500Z");
    expect(limited({ "retry-after": "30" })).toBe("2026-11-25T02:00:30.000Z");
    expect(limited({ "retry-after": "Wed, 25 Nov 2026 02:01:00 GMT" })).toBe("2026-11-25T02:01:00.000Z");
    expect(limited({})).toBeUndefined();
    // The provider's own reset header names the limit's reset; it wins over retry-after.
    expect(
      limited({ "retry-after": "30", "anthropic-ratelimit-requests-reset": "2026-11-25T02:05:00Z" }),
    ).toBe("2026-11-25T02:05:00.000Z");
  });
});
