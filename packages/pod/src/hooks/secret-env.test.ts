import { describe, expect, it } from "vitest";
import { isSecretVariable, withoutSecrets } from "./secret-env.js";

describe("isSecretVariable", () => {
  it("names the catalogue's and the schemes' key variables, and names with a secret word", () => {
    for (const name of [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "GEMINI_API_KEY",
      "OLLAMA_API_KEY",
      "GITHUB_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "DB_PASSWORD",
      "GPG_PASSPHRASE",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "NPM_CONFIG__AUTH",
      "ANTHROPIC_AUTH_TOKEN",
      "stripe_secret",
    ])
      expect(isSecretVariable(name), name).toBe(true);
    for (const name of [
      "PATH",
      "HOME",
      "LANG",
      "KEYBOARD_LAYOUT",
      "TOKENIZERS_PARALLELISM",
      "ANTHROPIC_BASE_URL",
    ])
      expect(isSecretVariable(name), name).toBe(false);
  });

  it("also names the model's own key variable, whatever it is called", () => {
    expect(isSecretVariable("MY_LLM", new Set(["MY_LLM"]))).toBe(true);
    expect(isSecretVariable("MY_LLM")).toBe(false);
  });
});

describe("withoutSecrets", () => {
  it("drops secrets except those passed by name", () => {
    const env = { PATH: "/bin", ANTHROPIC_API_KEY: "sk-ant", GITHUB_TOKEN: "ghp", MY_LLM: "k" };
    expect(withoutSecrets(env, { keyVariables: new Set(["MY_LLM"]) })).toEqual({ PATH: "/bin" });
    expect(withoutSecrets(env, { pass: ["GITHUB_TOKEN"] })).toEqual({
      PATH: "/bin",
      GITHUB_TOKEN: "ghp",
      MY_LLM: "k",
    });
  });
});
