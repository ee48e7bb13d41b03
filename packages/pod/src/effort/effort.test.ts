import { getScheme } from "@yoake/llm-worker/internal";
import { describe, expect, it } from "vitest";
import { reasoningForEffort } from "./effort.js";

const body = (
  scheme: Parameters<typeof getScheme>[0],
  level: Parameters<typeof reasoningForEffort>[0],
  model: string,
) =>
  getScheme(scheme).buildHttpRequest(
    { items: [{ type: "message", role: "user", text: "hi" }], reasoning: reasoningForEffort(level, scheme) },
    { model, baseURL: "http://127.0.0.1:1", apiKey: "k" },
  ).body as {
    think?: unknown;
    thinking?: unknown;
    generationConfig: { thinkingConfig?: unknown };
  };

describe("reasoningForEffort, as each scheme sends it", () => {
  it("Ollama: think at the level, max is high", () => {
    expect(body("ollama", "low", "qwen3").think).toBe("low");
    expect(body("ollama", "max", "qwen3").think).toBe("high");
  });
  it("Anthropic and Gemini 2.5: max is a 32,000-token thinking budget", () => {
    expect(body("anthropic", "max", "claude-sonnet-4-5").thinking).toEqual({
      type: "enabled",
      budget_tokens: 32000,
    });
    expect(body("gemini", "max", "gemini-2.5-pro").generationConfig.thinkingConfig).toEqual({
      includeThoughts: true,
      thinkingBudget: 32000,
    });
  });
});
