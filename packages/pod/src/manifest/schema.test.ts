import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { formatIssue } from "./manifest-error.js";
import { dottedKey, validateLayer } from "./schema.js";

const FILE = "/repo/.yoake/manifest.toml";

function problems(toml: string): string[] {
  const result = validateLayer(parse(toml), FILE);
  if (result.ok) throw new Error("expected the layer to be refused");
  return result.issues.map(formatIssue);
}

describe("validateLayer", () => {
  it("accepts a complete layer", () => {
    const result = validateLayer(
      parse(`
        [model]
        ref = "anthropic/claude-sonnet-5-5"
        base_url = "https://proxy.example.com/v1"
        context_window = 200000
        prices = { input = 3, output = 15, cache_read = 0.3 }

        [instructions]
        prompt = "Be brief."
        agents_md = false

        [generation]
        max_tokens = 8192
        temperature = 0.2
        top_p = 0.9
        reasoning = { effort = "high", budget_tokens = 4096 }

        [scope]
        allow = ["docs", { path = "src", access = "write" }]
        deny = [{ path = "secrets", access = "read", recursive = true }]

        [tools]
        approve = ["write_file"]
        disable = ["grep"]

        [limits]
        turns = 20
        tool_output_bytes = 8192
      `),
      FILE,
    );
    expect(result.ok).toBe(true);
  });

  it("names the file, the dotted key and what was expected for a wrong type", () => {
    expect(problems('[limits]\nturns = "ten"')).toEqual([
      `${FILE}: limits.turns: expected a number, got "ten"`,
    ]);
    expect(problems("[limits]\nturns = 2.5")).toEqual([
      `${FILE}: limits.turns: expected an integer, got 2.5`,
    ]);
    expect(problems("[instructions]\nagents_md = 1")).toEqual([
      `${FILE}: instructions.agents_md: expected true or false, got 1`,
    ]);
    expect(problems('model = "x"')).toEqual([`${FILE}: model: expected a table, got "x"`]);
  });

  it("lists the keys a table accepts when it meets an unknown one", () => {
    expect(problems("[limits]\nturn = 3")).toEqual([
      `${FILE}: limits.turn: unknown key; expected one of: turns, tool_output_bytes`,
    ]);
    expect(problems("[modle]\nref = 'x/y'")).toEqual([
      `${FILE}: modle: unknown key; expected one of: model, instructions, generation, scope, tools, limits, web, hooks, mcp, shell`,
    ]);
  });

  it("points into arrays of rules with their index", () => {
    expect(problems('[scope]\nallow = ["src", { path = "docs", access = "execute" }]')).toEqual([
      `${FILE}: scope.allow[1].access: expected one of "read", "write", got "execute"`,
    ]);
    expect(problems('[scope]\nallow = [{ path = "docs", recursiv = false }]')).toEqual([
      `${FILE}: scope.allow[0].recursiv: unknown key; expected one of: path, access, recursive`,
    ]);
    expect(problems("[scope]\ndeny = [3]")).toEqual([
      `${FILE}: scope.deny[0]: expected a string or a table, got 3`,
    ]);
    expect(problems("[scope]\ndeny = [{ access = 'read' }]")).toEqual([
      `${FILE}: scope.deny[0].path: is required (a string)`,
    ]);
  });

  it("explains ranges, formats and enums", () => {
    expect(problems("[generation]\ntemperature = 3")).toEqual([
      `${FILE}: generation.temperature: expected a number <= 2, got 3`,
    ]);
    expect(problems("[limits]\nturns = 0")).toEqual([`${FILE}: limits.turns: expected a number > 0, got 0`]);
    expect(problems('[model]\nbase_url = "localhost"')).toEqual([
      `${FILE}: model.base_url: expected a URL, got "localhost"`,
    ]);
    expect(problems('[model]\nref = "claude"')).toEqual([
      `${FILE}: model.ref: expected "provider/model", e.g. "anthropic/claude-sonnet-5-5"`,
    ]);
    expect(problems('[model]\nscheme = "openai"')).toEqual([
      `${FILE}: model.scheme: expected one of "anthropic", "openai-chat", "openai-responses", "gemini", "ollama", got "openai"`,
    ]);
    expect(problems("[tools]\napprove = ['']")).toEqual([
      `${FILE}: tools.approve[0]: expected a non-empty string, got ""`,
    ]);
  });

  it("reports every problem of a layer at once", () => {
    expect(problems('[limits]\nturns = "x"\n[tools]\nrun = true')).toHaveLength(2);
  });
});

describe("dottedKey", () => {
  it("joins names with dots and shows indices in brackets", () => {
    expect(dottedKey(["scope", "allow", 2, "path"])).toBe("scope.allow[2].path");
    expect(dottedKey([])).toBe("");
  });
});
