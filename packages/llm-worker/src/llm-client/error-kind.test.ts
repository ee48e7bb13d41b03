import { describe, expect, it } from "vitest";
import { errorKindFromCode, errorKindFromStatus } from "./error-kind.js";

describe("errorKindFromStatus", () => {
  it.each([
    [401, "", "authentication"],
    [403, "", "permission"],
    [404, "", "not_found"],
    [408, "", "timeout"],
    [429, "", "rate_limit"],
    [529, "", "overloaded"],
    [503, "", "overloaded"],
    [500, "", "server"],
    [400, "bad field", "invalid_request"],
    [400, "prompt is too long: 210000 tokens > 200000 maximum", "context_too_long"],
    [413, "", "context_too_long"],
  ] as const)("%i %s → %s", (status, message, kind) => {
    expect(errorKindFromStatus(status, message)).toBe(kind);
  });
});

describe("errorKindFromCode", () => {
  it("lets a known code win over a message that looks like a context error", () => {
    expect(errorKindFromCode("rate_limit_exceeded", "Request too large for gpt-4o on tokens per min")).toBe(
      "rate_limit",
    );
  });

  it("reads the message when the code is generic or unknown", () => {
    expect(errorKindFromCode("invalid_request_error", "prompt is too long")).toBe("context_too_long");
    expect(errorKindFromCode(undefined, "This model's maximum context length is 8192 tokens")).toBe(
      "context_too_long",
    );
  });

  it("falls back to the caller's kind for unknown codes", () => {
    expect(errorKindFromCode(undefined, "unexpected EOF", "server")).toBe("server");
    expect(errorKindFromCode("weird", "")).toBe("invalid_request");
    expect(errorKindFromCode("overloaded_error", "Overloaded")).toBe("overloaded");
  });
});
