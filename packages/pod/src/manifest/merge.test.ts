import { describe, expect, it } from "vitest";
import { mergeLayers, normalizeLayer } from "./merge.js";
import type { ManifestLayer } from "./schema.js";

const HOME = "/home/me";

function layer(source: string, data: ManifestLayer) {
  return { source, layer: normalizeLayer(data, source, HOME) };
}

describe("normalizeLayer", () => {
  it("reads a bare path as read access, recursive, and remembers the source", () => {
    const normalized = normalizeLayer(
      { scope: { allow: ["docs"], deny: [{ path: "~/.ssh" }] } },
      "user.toml",
      HOME,
    );
    expect(normalized.scope).toEqual({
      allow: [{ path: "docs", access: "read", recursive: true, source: "user.toml" }],
      deny: [{ path: "/home/me/.ssh", access: "read", recursive: true, source: "user.toml" }],
    });
  });
});

describe("mergeLayers", () => {
  it("replaces scalars and arrays, merges tables by key, and records who set each key", () => {
    const { merged, keySources } = mergeLayers([
      layer("defaults", {
        generation: { temperature: 1, max_tokens: 4096 },
        tools: { approve: ["write_file", "edit_file"] },
      }),
      layer("user", { generation: { temperature: 0.2 }, tools: { approve: ["write_file"] } }),
      layer("project", { generation: { reasoning: { effort: "low" } } }),
    ]);
    expect(merged.generation).toEqual({ temperature: 0.2, max_tokens: 4096, reasoning: { effort: "low" } });
    expect(merged.tools?.approve).toEqual(["write_file"]);
    expect(keySources).toMatchObject({
      "generation.temperature": "user",
      "generation.max_tokens": "defaults",
      "generation.reasoning.effort": "project",
      "tools.approve": "user",
    });
  });

  it("adds scope rules up across layers instead of replacing them", () => {
    const { merged } = mergeLayers([
      layer("defaults", { scope: { allow: [{ path: ".", access: "write" }], deny: [".git"] } }),
      layer("user", { scope: { deny: ["~/.aws"] } }),
      layer("project", { scope: { deny: ["secrets"] } }),
    ]);
    expect(merged.scope?.allow?.map((rule) => rule.path)).toEqual(["."]);
    expect(merged.scope?.deny?.map((rule) => [rule.path, rule.source])).toEqual([
      [".git", "defaults"],
      ["/home/me/.aws", "user"],
      ["secrets", "project"],
    ]);
  });

  it("starts the model table afresh when a higher layer names another model", () => {
    const { merged, keySources } = mergeLayers([
      layer("defaults", { model: { ref: "anthropic/claude-sonnet-5-5" } }),
      layer("user", {
        model: { ref: "openai/gpt-5", base_url: "https://proxy.example.com/v1", context_window: 1 },
      }),
      layer("project", { model: { scheme: "ollama", id: "gemma3:1b" } }),
    ]);
    expect(merged.model).toEqual({ scheme: "ollama", id: "gemma3:1b" });
    expect(keySources["model.base_url"]).toBeUndefined();
    expect(keySources["model.id"]).toBe("project");
  });

  it("merges into the model table when a higher layer only adjusts it", () => {
    const { merged } = mergeLayers([
      layer("user", { model: { ref: "openai/gpt-5", prices: { input: 1, output: 8 } } }),
      layer("project", { model: { base_url: "https://proxy.example.com/v1", prices: { output: 9 } } }),
    ]);
    expect(merged.model).toEqual({
      ref: "openai/gpt-5",
      base_url: "https://proxy.example.com/v1",
      prices: { input: 1, output: 9 },
    });
  });

  it("leaves the layers it was given untouched", () => {
    const defaults: ManifestLayer = { generation: { temperature: 1 }, scope: { allow: ["."] } };
    const snapshot = structuredClone(defaults);
    mergeLayers([
      layer("defaults", defaults),
      layer("user", { generation: { temperature: 0 }, scope: { allow: ["x"] } }),
    ]);
    expect(defaults).toEqual(snapshot);
  });
});
