/**
 * What the user is asked about a project manifest's hooks: each with its exact command and, in
 * plain words, where it would run: in the sandbox with the project read-only, or on the host,
 * unsandboxed, running project files the agent can rewrite (`sandbox = false`, or no sandbox
 * here, found by the real probe).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { whyNoSandboxHere } from "../shell/command-sandbox.js";
import { loadManifest } from "./load.js";
import { ProjectTrustError } from "./project-trust-error.js";

let base: string;
let repo: string;
let env: Record<string, string>;

function put(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const HOOKS = `
[[hooks]]
event = "turn_end"
command = "npm test --silent"

[[hooks]]
name = "guard"
event = "before_tool"
matcher = "bash"
command = "./scripts/guard.sh"
sandbox = false
`;

async function requestsFor(searchPath: string): Promise<string[]> {
  const probeEnv = { ...env, PATH: searchPath };
  const thrown = await loadManifest({
    cwd: repo,
    env: probeEnv,
    sandboxMissing: () => whyNoSandboxHere(probeEnv),
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(ProjectTrustError);
  return (thrown as ProjectTrustError).requests.map((request) => `${request.key}: ${request.description}`);
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-hook-trust-")));
  repo = path.join(base, "repo");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(path.join(base, "no-bwrap"));
  env = { HOME: path.join(base, "home"), XDG_STATE_HOME: path.join(base, "state") };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.skipIf(process.platform !== "linux")("a project's hooks in the trust prompt", () => {
  it("say which run in the sandbox, and which on your machine with the project's files, with the command", async () => {
    put(path.join(repo, ".yoake/manifest.toml"), HOOKS);
    expect(await requestsFor(process.env.PATH ?? "/usr/bin:/bin")).toEqual([
      'hooks[0]: run the shell command "npm test --silent" at turn_end, in the sandbox with the project read-only',
      'hooks[1]: run the shell command "./scripts/guard.sh" at before_tool of bash on your machine, unsandboxed (sandbox = false), with your rights: whatever project files it runs, the agent can rewrite first',
    ]);
  });

  it("without a working sandbox, say that every hook runs on your machine, and why", async () => {
    put(path.join(repo, ".yoake/manifest.toml"), HOOKS);
    expect(await requestsFor(path.join(base, "no-bwrap"))).toEqual([
      'hooks[0]: run the shell command "npm test --silent" at turn_end on your machine, unsandboxed (no sandbox works here: bubblewrap (bwrap) is not on PATH), with your rights: whatever project files it runs, the agent can rewrite first',
      'hooks[1]: run the shell command "./scripts/guard.sh" at before_tool of bash on your machine, unsandboxed (sandbox = false), with your rights: whatever project files it runs, the agent can rewrite first',
    ]);
  });

  it("when the user's manifest or the project's own turns the sandbox off, say so", async () => {
    put(path.join(env.HOME as string, ".config/yoake/manifest.toml"), "[shell]\nsandbox = false\n");
    put(path.join(repo, ".yoake/manifest.toml"), HOOKS);
    expect((await requestsFor(process.env.PATH ?? ""))[0]).toBe(
      'hooks[0]: run the shell command "npm test --silent" at turn_end on your machine, unsandboxed (your manifest turns the sandbox off (shell.sandbox = false)), with your rights: whatever project files it runs, the agent can rewrite first',
    );
    rmSync(path.join(env.HOME as string, ".config/yoake/manifest.toml"));
    put(path.join(repo, ".yoake/manifest.toml"), `[shell]\nsandbox = false\n${HOOKS}`);
    expect(await requestsFor(process.env.PATH ?? "")).toEqual([
      "shell.sandbox: run commands without the sandbox (each one then asks first) and every hook on your machine, unsandboxed",
      'hooks[0]: run the shell command "npm test --silent" at turn_end on your machine, unsandboxed (this manifest turns the sandbox off (shell.sandbox = false)), with your rights: whatever project files it runs, the agent can rewrite first',
      expect.stringMatching(/^hooks\[1\]: .* on your machine, unsandboxed \(sandbox = false\)/),
    ]);
  });

  it("a hook of the user's own manifest with sandbox = false needs no trust", async () => {
    put(
      path.join(env.HOME as string, ".config/yoake/manifest.toml"),
      '[[hooks]]\nevent = "turn_end"\ncommand = "notify-send done"\nsandbox = false\n',
    );
    const manifest = await loadManifest({ cwd: repo, env: { ...env, PATH: process.env.PATH ?? "" } });
    expect(manifest.hooks.map((hook) => [hook.command, hook.sandbox])).toEqual([["notify-send done", false]]);
  });
});
