/** The `[[hooks]]` section: validation, the union across layers, and the resolved entries. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_HOOK_TIMEOUT_MS } from "./defaults.js";
import { loadManifest } from "./load.js";
import { formatIssue, ManifestError } from "./manifest-error.js";
import { validateLayer } from "./schema.js";

const FILE = "/repo/.yoake/manifest.toml";

function problems(toml: string): string[] {
  const result = validateLayer(parse(toml), FILE);
  if (result.ok) throw new Error("expected the layer to be refused");
  return result.issues.map(formatIssue);
}

describe("[[hooks]] validation", () => {
  it("accepts every event, with and without the optional keys", () => {
    const result = validateLayer(
      parse(`
        [[hooks]]
        event = "prompt_submit"
        command = "./check-prompt.sh"

        [[hooks]]
        event = "before_tool"
        command = "./guard.sh"
        matcher = "write_file|edit_*"
        timeout_ms = 5000
        name = "guard"

        [[hooks]]
        event = "after_tool"
        command = "true"
        matcher = "*"

        [[hooks]]
        event = "turn_end"
        command = "npm test --silent"

        [[hooks]]
        event = "turn_end"
        command = "notify-send done"
        sandbox = false
      `),
      FILE,
    );
    expect(result.ok).toBe(true);
  });

  it("names the file, the entry and what was expected", () => {
    expect(
      problems(`
        [[hooks]]
        event = "before_edit"
        command = ""
        timeout_ms = -1
        shell = "zsh"
        sandbox = "no"
      `),
    ).toEqual([
      `${FILE}: hooks[0].event: expected one of "prompt_submit", "before_tool", "after_tool", "turn_end", got "before_edit"`,
      `${FILE}: hooks[0].command: expected a non-empty string, got ""`,
      `${FILE}: hooks[0].timeout_ms: expected a number > 0, got -1`,
      `${FILE}: hooks[0].sandbox: expected true or false, got "no"`,
      `${FILE}: hooks[0].shell: unknown key; expected one of: event, command, matcher, timeout_ms, name, pass_env, sandbox`,
    ]);
  });

  it("refuses a command that is missing, a bad matcher, and a matcher on a non-tool event", () => {
    expect(problems(`[[hooks]]\nevent = "turn_end"`)).toEqual([
      `${FILE}: hooks[0].command: is required (a string)`,
    ]);
    expect(problems(`[[hooks]]\nevent = "before_tool"\ncommand = "x"\nmatcher = "write file"`)).toEqual([
      `${FILE}: hooks[0].matcher: expected tool names separated by "|", with * as a wildcard, e.g. "write_file|edit_*"`,
    ]);
    expect(problems(`[[hooks]]\nevent = "turn_end"\ncommand = "x"\nmatcher = "x"`)).toEqual([
      `${FILE}: hooks[0].matcher: matcher applies only to before_tool and after_tool hooks`,
    ]);
  });
});

describe("[[hooks]] in the cascade", () => {
  let base: string;
  let home: string;
  let repo: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-hooks-manifest-")));
    home = path.join(base, "home");
    repo = path.join(base, "repo");
    mkdirSync(path.join(repo, ".yoake"), { recursive: true });
    mkdirSync(path.join(home, ".config/yoake"), { recursive: true });
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("adds every layer's hooks up, lowest first, each naming its source", async () => {
    const userFile = path.join(home, ".config/yoake/manifest.toml");
    const projectFile = path.join(repo, ".yoake/manifest.toml");
    writeFileSync(userFile, `[[hooks]]\nevent = "after_tool"\ncommand = "logger"\n`);
    writeFileSync(
      projectFile,
      `[[hooks]]\nevent = "before_tool"\ncommand = "./guard.sh"\nmatcher = "write_file"\nname = "guard"\ntimeout_ms = 500\nsandbox = false\n`,
    );
    const manifest = await loadManifest({
      cwd: repo,
      env: { HOME: home },
      projectTrust: "trust-once",
      overrides: { hooks: [{ event: "turn_end", command: "echo done" }] },
    });
    expect(manifest.hooks).toEqual([
      {
        name: "logger",
        event: "after_tool",
        command: "logger",
        timeoutMs: DEFAULT_HOOK_TIMEOUT_MS,
        sandbox: true,
        source: userFile,
      },
      {
        name: "guard",
        event: "before_tool",
        command: "./guard.sh",
        matcher: "write_file",
        timeoutMs: 500,
        sandbox: false,
        source: projectFile,
      },
      {
        name: "echo done",
        event: "turn_end",
        command: "echo done",
        timeoutMs: 60_000,
        sandbox: true,
        source: "overrides",
      },
    ]);
  });

  it("has no hooks by default, and reports a bad entry as a ManifestError", async () => {
    expect((await loadManifest({ cwd: repo, env: { HOME: home } })).hooks).toEqual([]);
    const error = await loadManifest({
      cwd: repo,
      env: { HOME: home },
      overrides: { hooks: [{ event: "before_tool", command: "" }] },
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).message).toContain("overrides: hooks[0].command");
  });
});
