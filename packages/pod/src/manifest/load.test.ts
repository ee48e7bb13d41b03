import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScopeError } from "../scope/scope-error.js";
import { ScopedFs } from "../scope/scoped-fs.js";
import { DEFAULT_PROMPT } from "./defaults.js";
import { findProjectRoot, loadManifest, userManifestPath } from "./load.js";
import { ManifestError } from "./manifest-error.js";
import { parseOverrideAssignments } from "./overrides.js";

let base: string;
let home: string;
let xdg: string;
let repo: string;

function put(file: string, content: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const userFile = () => path.join(xdg, "yoake/manifest.toml");
const projectFile = () => path.join(repo, ".yoake/manifest.toml");
const load = (cwd = repo, overrides?: Parameters<typeof loadManifest>[0]["overrides"]) =>
  loadManifest({
    cwd,
    env: { HOME: home, XDG_CONFIG_HOME: xdg },
    // These tests are about the cascade; trust has tests of its own (trust.test.ts).
    projectTrust: "trust-once",
    ...(overrides ? { overrides } : {}),
  });

async function loadError(promise: Promise<unknown>): Promise<ManifestError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ManifestError);
  return error as ManifestError;
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-manifest-")));
  home = path.join(base, "home");
  xdg = path.join(base, "xdg");
  repo = path.join(home, "code/repo");
  mkdirSync(path.join(repo, "src/deep"), { recursive: true });
  mkdirSync(path.join(repo, ".git"));
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("loadManifest cascade", () => {
  it("resolves the built-in defaults when no file exists", async () => {
    const manifest = await load();
    expect(manifest.projectRoot).toBe(repo);
    expect(manifest.model).toMatchObject({
      ref: "anthropic/claude-sonnet-5-5",
      provider: "anthropic",
      scheme: "anthropic",
      id: "claude-sonnet-5-5",
      apiKeyEnv: "ANTHROPIC_API_KEY",
      contextWindow: 1_000_000,
      prices: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 },
    });
    expect(manifest.instructions.systemPrompt).toBe(DEFAULT_PROMPT);
    expect(manifest.tools).toEqual({ approve: ["write_file", "edit_file"], disable: [] });
    expect(manifest.limits).toEqual({ turns: 50, toolOutputBytes: 16_384 });
    expect(manifest.layers).toEqual([
      { kind: "defaults", source: "defaults", loaded: true },
      { kind: "user", source: userFile(), loaded: false },
      { kind: "project", source: projectFile(), loaded: false },
    ]);
    expect(manifest.warnings).toEqual([]);
  });

  it("layers defaults < user < project < overrides", async () => {
    put(
      userFile(),
      '[generation]\ntemperature = 0.5\nmax_tokens = 1000\n[tools]\napprove = ["write_file"]\n',
    );
    put(projectFile(), "[generation]\ntemperature = 0.3\n[limits]\nturns = 10\n");
    const manifest = await load(repo, { limits: { turns: 3 } });
    expect(manifest.generation).toEqual({ temperature: 0.3, maxOutputTokens: 1000 });
    expect(manifest.tools.approve).toEqual(["write_file"]);
    expect(manifest.limits.turns).toBe(3);
    expect(manifest.keySources).toMatchObject({
      "generation.temperature": projectFile(),
      "generation.max_tokens": userFile(),
      "limits.turns": "overrides",
      "limits.tool_output_bytes": "defaults",
    });
    expect(manifest.layers.map((layer) => [layer.kind, layer.loaded])).toEqual([
      ["defaults", true],
      ["user", true],
      ["project", true],
      ["overrides", true],
    ]);
  });

  it("unions scope rules across layers, each naming its file", async () => {
    put(userFile(), '[scope]\ndeny = ["~/.ssh"]\n');
    put(projectFile(), '[scope]\nallow = [{ path = "/opt/shared", access = "read" }]\ndeny = ["secrets"]\n');
    const { scope } = await load();
    expect(scope.root).toBe(repo);
    expect(scope.allow).toEqual([
      { path: ".", access: "write", recursive: true, source: "defaults" },
      { path: "/opt/shared", access: "read", recursive: true, source: projectFile() },
    ]);
    expect(scope.deny.map((rule) => [rule.path, rule.access, rule.source])).toEqual([
      [".git", "write", "defaults"],
      [".yoake", "write", "defaults"],
      [path.join(home, ".ssh"), "read", userFile()],
      ["secrets", "read", projectFile()],
    ]);
  });

  it("expands [shell] reveal from ~ and adds every layer's paths up", async () => {
    put(userFile(), '[shell]\nreveal = ["~/.gitconfig"]\n');
    put(projectFile(), '[shell]\nreveal = ["/opt/creds"]\n');
    expect((await load()).shell.reveal).toEqual([path.join(home, ".gitconfig"), "/opt/creds"]);
    put(projectFile(), '[shell]\nreveal = ["relative/path"]\n');
    const error = await loadError(load());
    expect(error.message).toContain('expected an absolute or "~/" path');
  });

  it("takes command-line assignments as the top layer", async () => {
    const manifest = await load(
      repo,
      parseOverrideAssignments(["model.ref=openai/gpt-5", "generation.top_p=0.5"]),
    );
    expect(manifest.model).toMatchObject({ scheme: "openai-responses", id: "gpt-5", contextWindow: 400_000 });
    expect(manifest.generation.topP).toBe(0.5);
  });

  it("falls back to ~/.config when XDG_CONFIG_HOME is unset or relative", () => {
    expect(userManifestPath({}, "/home/me")).toBe("/home/me/.config/yoake/manifest.toml");
    expect(userManifestPath({ XDG_CONFIG_HOME: "rel" }, "/home/me")).toBe(
      "/home/me/.config/yoake/manifest.toml",
    );
    expect(userManifestPath({ XDG_CONFIG_HOME: "/cfg" }, "/home/me")).toBe("/cfg/yoake/manifest.toml");
  });

  it("reads the user config from HOME when XDG_CONFIG_HOME is unset", async () => {
    put(path.join(home, ".config/yoake/manifest.toml"), "[limits]\nturns = 7\n");
    const manifest = await loadManifest({ cwd: repo, env: { HOME: home } });
    expect(manifest.limits.turns).toBe(7);
  });
});

describe("project root", () => {
  it("is the nearest directory holding .yoake/, searched upward", async () => {
    put(projectFile(), "[limits]\nturns = 9\n");
    const manifest = await load(path.join(repo, "src/deep"));
    expect(manifest.projectRoot).toBe(repo);
    expect(manifest.limits.turns).toBe(9);
  });

  it("prefers .yoake/ over a nearer .git", async () => {
    const nested = path.join(repo, "vendor/lib");
    mkdirSync(path.join(nested, ".git"), { recursive: true });
    mkdirSync(path.join(repo, ".yoake"));
    expect(await findProjectRoot(nested, home)).toBe(repo);
  });

  it("falls back to the git root, then to the working directory", async () => {
    expect(await findProjectRoot(path.join(repo, "src/deep"), home)).toBe(repo);
    const loose = path.join(base, "loose/dir");
    mkdirSync(loose, { recursive: true });
    expect(await findProjectRoot(loose, home)).toBe(loose);
  });

  it("never makes the home directory the project from below it", async () => {
    mkdirSync(path.join(home, ".git"));
    mkdirSync(path.join(home, ".yoake"));
    const notes = path.join(home, "notes");
    mkdirSync(notes);
    expect(await findProjectRoot(notes, home)).toBe(notes);
    expect(await findProjectRoot(home, home)).toBe(home);
  });
});

describe("AGENTS.md", () => {
  it("is appended to the system prompt from the project root", async () => {
    put(path.join(repo, "AGENTS.md"), "Run npm test before you finish.\n");
    put(projectFile(), '[instructions]\nprompt = "Be brief."\n');
    const { instructions } = await load(path.join(repo, "src"));
    expect(instructions.agentsMd).toEqual({
      path: path.join(repo, "AGENTS.md"),
      text: "Run npm test before you finish.\n",
    });
    expect(instructions.systemPrompt).toBe(
      "Be brief.\n\n# Project instructions (AGENTS.md)\n\nRun npm test before you finish.\n",
    );
  });

  it("is left out when instructions.agents_md is false", async () => {
    put(path.join(repo, "AGENTS.md"), "ignored");
    put(projectFile(), "[instructions]\nagents_md = false\n");
    const { instructions } = await load();
    expect(instructions.agentsMd).toBeUndefined();
    expect(instructions.systemPrompt).toBe(DEFAULT_PROMPT);
  });
});

describe("model", () => {
  it("takes an inline scheme and id, and replaces the lower layers' model table", async () => {
    put(userFile(), '[model]\nref = "openai/gpt-5"\ncontext_window = 1000\n');
    put(
      projectFile(),
      '[model]\nscheme = "openai-chat"\nid = "llama3"\nbase_url = "http://localhost:8080/v1"\n' +
        "prices = { input = 0, output = 0 }\n",
    );
    const { model, warnings } = await load();
    expect(model).toEqual({
      scheme: "openai-chat",
      id: "llama3",
      baseURL: "http://localhost:8080/v1",
      prices: { input: 0, output: 0 },
    });
    expect(warnings).toEqual([]);
  });

  it("lets a manifest adjust a catalogue model", async () => {
    put(projectFile(), '[model]\nref = "ollama/qwen3:8b"\ncontext_window = 40960\n');
    const { model } = await load();
    expect(model).toEqual({
      ref: "ollama/qwen3:8b",
      provider: "ollama",
      scheme: "ollama",
      id: "qwen3:8b",
      defaultBaseURL: "http://localhost:11434",
      contextWindow: 40_960,
    });
  });

  it("warns about a model the catalogue does not list, and about a cap above the model's", async () => {
    put(projectFile(), '[model]\nref = "anthropic/claude-next"\n');
    expect((await load()).warnings).toEqual([
      `model "anthropic/claude-next" (from ${projectFile()}) is not in the built-in catalogue: its context window and prices are unknown unless model.context_window and model.prices are set`,
    ]);
    put(projectFile(), '[model]\nref = "anthropic/claude-haiku-4-5"\n[generation]\nmax_tokens = 100000\n');
    expect((await load()).warnings).toEqual([
      `generation.max_tokens (100000, from ${projectFile()}) is above the 64000 output tokens claude-haiku-4-5 allows`,
    ]);
  });

  it("names the file and key of an unknown provider", async () => {
    put(projectFile(), '[model]\nref = "acme/model-1"\n');
    const error = await loadError(load());
    expect(error.issues).toEqual([
      {
        source: projectFile(),
        key: "model.ref",
        message:
          'unknown provider in "acme/model-1"; expected one of anthropic, openai, gemini, ollama, or set model.scheme and model.id instead',
      },
    ]);
  });

  it("refuses a model named twice, or half named", async () => {
    put(projectFile(), '[model]\nref = "openai/gpt-5"\nid = "gpt-5"\n');
    expect((await loadError(load())).issues[0]?.key).toBe("model.id");
    put(projectFile(), '[model]\nscheme = "ollama"\n');
    expect((await loadError(load())).message).toBe(
      `invalid manifest: ${projectFile()}: model.id: expected model.ref = "provider/model", or both model.scheme and model.id`,
    );
  });
});

describe("model fallback", () => {
  it("resolves each entry like a model: a reference, or a table naming a server", async () => {
    put(
      projectFile(),
      '[model]\nref = "anthropic/claude-haiku-4-5"\nfallback = [\n  "openai/gpt-5",\n' +
        '  { scheme = "openai-chat", id = "llama3", base_url = "http://localhost:8080/v1", api_key_env = "LOCAL_KEY" },\n]\n',
    );
    const { model, warnings } = await load();
    expect(model.fallback).toEqual([
      expect.objectContaining({ ref: "openai/gpt-5", scheme: "openai-responses", id: "gpt-5" }),
      { scheme: "openai-chat", id: "llama3", baseURL: "http://localhost:8080/v1", apiKeyEnv: "LOCAL_KEY" },
    ]);
    expect(warnings).toEqual([]);
  });

  it("names the entry of a bad fallback", async () => {
    put(
      projectFile(),
      '[model]\nref = "anthropic/claude-haiku-4-5"\nfallback = ["openai/gpt-5", "acme/x"]\n',
    );
    expect((await loadError(load())).issues).toEqual([
      expect.objectContaining({ source: projectFile(), key: "model.fallback.1.ref" }),
    ]);
  });
});

describe("errors", () => {
  it("reports the problems of every file at once, each with its file, key and expectation", async () => {
    put(userFile(), "[limits]\nturns = -1\n");
    put(projectFile(), '[scope]\nallow = [{ path = "src", access = "all" }]\n');
    const error = await loadError(load(repo, { generation: { temperature: "hot" } } as never));
    expect(error.message).toBe(
      [
        "invalid manifest:",
        `  ${userFile()}: limits.turns: expected a number > 0, got -1`,
        `  ${projectFile()}: scope.allow[0].access: expected one of "read", "write", got "all"`,
        `  overrides: generation.temperature: expected a number, got "hot"`,
      ].join("\n"),
    );
  });

  it("gives the line and column of a TOML syntax error", async () => {
    put(projectFile(), "[limits]\nturns = \n");
    const error = await loadError(load());
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.source).toBe(projectFile());
    expect(error.issues[0]?.message).toMatch(/^invalid TOML at line 2, column \d+: /);
  });
});

describe("the README", () => {
  it("shows a complete manifest that loads", async () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const example = /```toml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain("[limits]");
    put(projectFile(), example ?? "");
    const manifest = await load();
    expect(manifest.layers[2]?.loaded).toBe(true);
    expect(manifest.generation).toEqual({
      maxOutputTokens: 16000,
      temperature: 0.2,
      topP: 0.95,
      reasoning: { effort: "medium" },
    });
    expect(manifest.scope.deny.map((rule) => rule.path)).toContain("secrets");
    expect(manifest.scope.secretFiles?.map((rule) => rule.pattern)).toContain(".env.*");
    expect(manifest.hooks[0]?.passEnv).toEqual(["GITHUB_TOKEN"]);
  });
});

describe("the default scope", () => {
  it("lets the agent edit the project but not its own manifest or the git history", async () => {
    put(projectFile(), "[limits]\nturns = 5\n");
    const fs = await ScopedFs.create((await load()).scope);
    await fs.writeFile("src/new.ts", "export {};\n");
    expect(await fs.readFile(".yoake/manifest.toml")).toContain("turns = 5");
    await expect(fs.writeFile(".yoake/manifest.toml", '[scope]\nallow = ["/"]\n')).rejects.toBeInstanceOf(
      ScopeError,
    );
    await expect(fs.writeFile(".git/HEAD", "x")).rejects.toThrow(
      'deny write ".git" (recursive, from defaults)',
    );
    await expect(fs.readFile(path.join(home, "secret"))).rejects.toBeInstanceOf(ScopeError);
  });
});
