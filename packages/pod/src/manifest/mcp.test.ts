/** The `[[mcp]]` section: validation, the cascade (replace by name, disable), and the resolved entries. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadManifest } from "./load.js";
import { formatIssue, ManifestError } from "./manifest-error.js";
import { validateLayer } from "./schema.js";

const FILE = "/repo/.yoake/manifest.toml";

function problems(toml: string): string[] {
  const result = validateLayer(parse(toml), FILE);
  if (result.ok) throw new Error("expected the layer to be refused");
  return result.issues.map(formatIssue);
}

describe("[[mcp]] validation", () => {
  it("accepts a stdio server, an HTTP server and a disabling entry", () => {
    const result = validateLayer(
      parse(`
        [[mcp]]
        name = "github"
        command = "npx"
        args = ["-y", "@modelcontextprotocol/server-github"]
        env = { GITHUB_PERSONAL_ACCESS_TOKEN = "x" }
        cwd = "tools"
        timeout_ms = 60000
        startup_timeout_ms = 10000

        [[mcp]]
        name = "docs"
        url = "https://mcp.example.com/mcp"
        headers = { authorization = "Bearer k" }

        [[mcp]]
        name = "fs"
        enabled = false
      `),
      FILE,
    );
    expect(result.ok).toBe(true);
  });

  it("names the file, the entry and what was expected", () => {
    expect(
      problems(`
        [[mcp]]
        name = "my server"
        command = ""
        args = "a b"
        timeout_ms = 0
        restart = true
      `),
    ).toEqual([
      `${FILE}: mcp[0].name: expected 1 to 32 of a-z A-Z 0-9 _ - (it prefixes the server's tool names)`,
      `${FILE}: mcp[0].command: expected a non-empty string, got ""`,
      `${FILE}: mcp[0].args: expected an array, got "a b"`,
      `${FILE}: mcp[0].timeout_ms: expected a number > 0, got 0`,
      `${FILE}: mcp[0].restart: unknown key; expected one of: name, command, args, env, pass_env, cwd, url, headers, enabled, timeout_ms, startup_timeout_ms`,
    ]);
  });

  it("wants exactly one of command and url, with the keys of that kind of server", () => {
    expect(problems(`[[mcp]]\nname = "a"`)).toEqual([
      `${FILE}: mcp[0].command: expected command (a stdio server) or url (an HTTP server)`,
    ]);
    expect(problems(`[[mcp]]\nname = "a"\ncommand = "x"\nurl = "http://localhost:1/mcp"`)).toEqual([
      `${FILE}: mcp[0].url: set either command (a stdio server) or url (an HTTP server), not both`,
    ]);
    expect(
      problems(
        `[[mcp]]\nname = "a"\nurl = "http://localhost:1/mcp"\nargs = ["x"]\n[[mcp]]\nname = "b"\ncommand = "x"\nheaders = {}`,
      ),
    ).toEqual([
      `${FILE}: mcp[0].args: applies only to a stdio server (command)`,
      `${FILE}: mcp[1].headers: applies only to an HTTP server (url)`,
    ]);
    expect(problems(`[[mcp]]\nname = "a"\nurl = "ftp://example.com"`)).toEqual([
      `${FILE}: mcp[0].url: expected a URL, got "ftp://example.com"`,
    ]);
  });

  it("refuses two entries of one file with the same name", () => {
    expect(problems(`[[mcp]]\nname = "a"\ncommand = "x"\n[[mcp]]\nname = "a"\ncommand = "y"`)).toEqual([
      `${FILE}: mcp[1].name: another [[mcp]] entry of this file is already named "a"`,
    ]);
  });
});

describe("[[mcp]] in the cascade", () => {
  let base: string;
  let home: string;
  let repo: string;
  let userFile: string;
  let projectFile: string;

  beforeEach(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-mcp-manifest-")));
    home = path.join(base, "home");
    repo = path.join(base, "repo");
    mkdirSync(path.join(repo, ".yoake"), { recursive: true });
    mkdirSync(path.join(home, ".config/yoake"), { recursive: true });
    userFile = path.join(home, ".config/yoake/manifest.toml");
    projectFile = path.join(repo, ".yoake/manifest.toml");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("adds every layer's servers; a same-named entry replaces the lower one whole, in its place", async () => {
    writeFileSync(
      userFile,
      `[[mcp]]\nname = "github"\ncommand = "gh-mcp"\nargs = ["--stdio"]\ncwd = "~/bin"\n` +
        `[[mcp]]\nname = "docs"\nurl = "https://docs.example.com/mcp"\n`,
    );
    writeFileSync(
      projectFile,
      `[[mcp]]\nname = "github"\ncommand = "./gh.sh"\ncwd = "scripts"\ntimeout_ms = 500\n`,
    );
    const manifest = await loadManifest({
      cwd: repo,
      env: { HOME: home },
      projectTrust: "trust-once",
      overrides: { mcp: [{ name: "local", url: "http://127.0.0.1:9/mcp", headers: { "x-key": "k" } }] },
    });
    expect(manifest.mcp).toEqual([
      {
        name: "github",
        transport: { type: "stdio", command: "./gh.sh", args: [], env: {}, cwd: path.join(repo, "scripts") },
        toolTimeoutMs: 500,
        source: projectFile,
      },
      {
        name: "docs",
        transport: { type: "http", url: "https://docs.example.com/mcp", headers: {} },
        source: userFile,
      },
      {
        name: "local",
        transport: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { "x-key": "k" } },
        source: "overrides",
      },
    ]);
  });

  it("expands ~/ in cwd, and lets a higher layer turn a server off by name", async () => {
    writeFileSync(
      userFile,
      `[[mcp]]\nname = "a"\ncommand = "x"\ncwd = "~/bin"\n[[mcp]]\nname = "b"\ncommand = "y"\n`,
    );
    writeFileSync(
      projectFile,
      `[[mcp]]\nname = "b"\nenabled = false\n[[mcp]]\nname = "c"\nenabled = false\n`,
    );
    const manifest = await loadManifest({ cwd: repo, env: { HOME: home } });
    expect(manifest.mcp).toEqual([
      {
        name: "a",
        transport: { type: "stdio", command: "x", args: [], env: {}, cwd: path.join(home, "bin") },
        source: userFile,
      },
    ]);
    expect(manifest.warnings).toEqual([
      `mcp[1] (from ${projectFile}) disables MCP server "c", which no lower layer declares`,
    ]);
  });

  it("has no servers by default, and reports a bad entry as a ManifestError", async () => {
    expect((await loadManifest({ cwd: repo, env: { HOME: home } })).mcp).toEqual([]);
    const error = await loadManifest({
      cwd: repo,
      env: { HOME: home },
      overrides: { mcp: [{ name: "a", command: "" }] },
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).message).toContain("overrides: mcp[0].command");
  });
});
