import { describe, expect, it } from "vitest";
import { catalogue, lookupModel, parseModelRef } from "./catalogue.js";

const SCHEMES = ["anthropic", "openai-chat", "openai-responses", "gemini", "ollama"];

describe("catalogue", () => {
  const entries = Object.entries(catalogue).flatMap(([provider, entry]) =>
    Object.entries(entry.models).map(([id, model]) => ({ ref: `${provider}/${id}`, model })),
  );

  it("maps every provider to a scheme llm-worker speaks", () => {
    for (const entry of Object.values(catalogue)) expect(SCHEMES).toContain(entry.scheme);
  });

  it.each(entries)("has consistent limits and prices for $ref", ({ model }) => {
    expect(model.contextWindow).toBeGreaterThan(0);
    expect(model.maxOutputTokens).toBeGreaterThan(0);
    expect(model.maxOutputTokens).toBeLessThanOrEqual(model.contextWindow);
    const { input, output, cacheRead, cacheWrite } = model.prices;
    expect(input).toBeGreaterThanOrEqual(0);
    expect(output).toBeGreaterThanOrEqual(input);
    if (cacheRead !== undefined) expect(cacheRead).toBeLessThanOrEqual(input);
    if (cacheWrite !== undefined) expect(cacheWrite).toBeGreaterThanOrEqual(input);
  });

  it("prices Anthropic's cache at 1.25× input to write and 0.1× to read", () => {
    expect(catalogue.anthropic?.models["claude-sonnet-4-5"]?.prices).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
  });
});

describe("model references", () => {
  it("splits at the first slash, keeping slashes in the model id", () => {
    expect(parseModelRef("ollama/hf.co/org/model:q4")).toEqual({
      provider: "ollama",
      modelId: "hf.co/org/model:q4",
    });
    expect(parseModelRef("anthropic")).toBeUndefined();
    expect(parseModelRef("/model")).toBeUndefined();
    expect(parseModelRef("anthropic/")).toBeUndefined();
  });

  it("finds listed models, and knows the provider of unlisted ones", () => {
    expect(lookupModel("gemini/gemini-2.5-pro")?.model?.contextWindow).toBe(1_048_576);
    const unlisted = lookupModel("anthropic/claude-next");
    expect(unlisted?.providerEntry.scheme).toBe("anthropic");
    expect(unlisted?.model).toBeUndefined();
    expect(lookupModel("nobody/model")).toBeUndefined();
  });
});
