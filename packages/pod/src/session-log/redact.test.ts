import { describe, expect, it } from "vitest";
import { isSecretKey, redactSecrets } from "./redact.js";

describe("isSecretKey", () => {
  it.each([
    "apiKey",
    "api_key",
    "x-api-key",
    "APIKey",
    "apikey",
    "API_KEY",
    "openaiApiKey",
    "accessToken",
    "refresh_token",
    "token",
    "secret",
    "clientSecret",
    "Authorization",
    "proxy-authorization",
    "password",
    "db_passwd",
    "headers",
    "extraHeaders",
    "Cookie",
    "credentials",
    "apiKeyEnv",
  ])("%s names a secret", (key) => {
    expect(isSecretKey(key)).toBe(true);
  });

  it.each([
    "maxOutputTokens",
    "reasoningTokens",
    "monkey",
    "keyboard",
    "model",
    "baseURL",
    "contextWindow",
    "scope",
    "author",
    "path",
  ])("%s does not", (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});

describe("redactSecrets", () => {
  it("drops secret keys at any depth, with everything under them, and lists what it dropped", () => {
    const config = {
      model: { id: "m", apiKey: "sk-live-123", maxOutputTokens: 100, apiKeyEnv: "ANTHROPIC_API_KEY" },
      headers: { "x-api-key": "sk-live-123", "anthropic-version": "2023-06-01" },
      servers: [{ name: "mcp", env: { GITHUB_TOKEN: "ghp_abc", PATH: "/bin" } }],
      cwd: "/repo",
    };
    const { value, dropped } = redactSecrets(config);
    expect(value).toEqual({
      model: { id: "m", maxOutputTokens: 100 },
      servers: [{ name: "mcp", env: { PATH: "/bin" } }],
      cwd: "/repo",
    });
    expect(dropped).toEqual(["model.apiKey", "model.apiKeyEnv", "headers", "servers[0].env.GITHUB_TOKEN"]);
    expect(JSON.stringify(value)).not.toMatch(/sk-live|ghp_|2023-06-01/);
    // The input is not changed.
    expect(config.model.apiKey).toBe("sk-live-123");
  });

  it("strips credentials from URLs: user info, and query parameters named like secrets", () => {
    const { value, dropped } = redactSecrets({
      baseURL: "https://user:hunter2@gateway.example/v1?key=AIza123&alt=sse",
      plain: "https://api.example/v1",
    });
    expect(value).toEqual({ baseURL: "https://gateway.example/v1?alt=sse", plain: "https://api.example/v1" });
    expect(dropped).toEqual(["baseURL@userinfo", "baseURL?key"]);
  });

  it("drops values that carry a credential scheme, whatever their key", () => {
    const { value, dropped } = redactSecrets({ note: "Bearer abc.def", list: ["Basic dXNlcjpw", "ok"] });
    expect(value).toEqual({ list: ["ok"] });
    expect(dropped).toEqual(["note", "list[0]"]);
  });

  it("keeps plain data as it is", () => {
    const data = { a: 1, b: [true, null, "x"], c: { d: "text with the word token in it" } };
    expect(redactSecrets(data)).toEqual({ value: data, dropped: [] });
  });
});
