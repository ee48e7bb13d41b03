import { describe, expect, it } from "vitest";
import { ManifestError } from "./manifest-error.js";
import { parseOverrideAssignments } from "./overrides.js";

describe("parseOverrideAssignments", () => {
  it("builds nested tables from dotted keys and reads values as TOML", () => {
    expect(
      parseOverrideAssignments([
        "generation.temperature=0.2",
        "generation.reasoning.effort=high",
        'tools.approve=["write_file"]',
        "instructions.agents_md=false",
        "model.ref=openai/gpt-5",
      ]),
    ).toEqual({
      generation: { temperature: 0.2, reasoning: { effort: "high" } },
      tools: { approve: ["write_file"] },
      instructions: { agents_md: false },
      model: { ref: "openai/gpt-5" },
    });
  });

  it("refuses an assignment without a key", () => {
    expect(() => parseOverrideAssignments(["temperature"])).toThrow(ManifestError);
    expect(() => parseOverrideAssignments(["=1"])).toThrow('command line: expected key=value, got "=1"');
    expect(() => parseOverrideAssignments(["a..b=1"])).toThrow(ManifestError);
  });
});
