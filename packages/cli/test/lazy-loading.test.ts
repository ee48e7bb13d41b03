/**
 * Each sub-command loads only what it runs: the real `yoake` command as a child process, with a
 * module hook that writes down every module it resolves.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { headlessFixture } from "./cli-test-kit.js";
import { hasTmux, TmuxScreen } from "./tui-tmux.js";

const BIN = fileURLToPath(new URL("../bin/yoake.js", import.meta.url));

const RECORDER = fileURLToPath(new URL("./support/record-modules.mjs", import.meta.url));

const scratch = mkdtempSync(path.join(tmpdir(), "yoake-lazy-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let runs = 0;

/** A fresh file for one run's list of modules. */
function recordFile(): string {
  runs += 1;
  return path.join(scratch, `modules-${runs}.txt`);
}

function loaded(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/** Runs `yoake <args>` with the recorder; returns its exit code and the modules it resolved. */
function recordedRun(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stderr: string; modules: string[] }> {
  const file = recordFile();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", RECORDER, BIN, ...args], {
      cwd,
      env: { ...env, YOAKE_RECORD_MODULES: file },
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr, modules: loaded(file) }));
    child.stdin.end();
  });
}

const of = (modules: string[], fragment: string) => modules.filter((url) => url.includes(fragment));
const INK = "/node_modules/ink/";
const REACT = "/node_modules/react/";
const ACP = "/node_modules/@agentclientprotocol/";
const POD = "/packages/pod/";
const ON_FIRST_USE = [
  "diff",
  "gpt-tokenizer",
  "yaml",
  "smol-toml",
  "picomatch",
  "tinyglobby",
  "ignore",
  "turndown",
].map((name) => `/node_modules/${name}/`);

describe("what each sub-command loads", () => {
  it("--version and --help load the argument parser, and neither the Pod nor any UI", async () => {
    const fixture = await headlessFixture();
    try {
      for (const flag of ["--version", "--help"]) {
        const run = await recordedRun([flag], fixture.project.dir, fixture.env);
        expect(run.code).toBe(0);
        expect(of(run.modules, "/node_modules/commander/")).not.toEqual([]);
        for (const heavy of [POD, "/packages/llm-worker/", INK, REACT, ACP])
          expect(of(run.modules, heavy)).toEqual([]);
      }
    } finally {
      await fixture.close();
    }
  });

  it("-p loads the Pod, and neither ink, React, the Agent Client Protocol nor what only tools or long sessions use", async () => {
    const fixture = await headlessFixture();
    try {
      fixture.provider.enqueue({ blocks: [{ type: "text", text: "Answered." }] });
      const run = await recordedRun(["-p", "hi"], fixture.project.dir, fixture.env);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(of(run.modules, POD)).not.toEqual([]);
      // diff only once a file changes; session ids are our own UUID v7, not the uuid package's;
      // the tokenizer once a prompt could near the compaction trigger; YAML for a file with front
      // matter; the matchers for a search; turndown for a web page.
      for (const heavy of [INK, REACT, ACP, ...ON_FIRST_USE, "/node_modules/uuid/"])
        expect(of(run.modules, heavy)).toEqual([]);
      // The model's request goes out through fetch: node:http and node:https are web_fetch's.
      expect(run.modules.filter((url) => url === "node:http" || url === "node:https")).toEqual([]);
      // No Pod serves the project: the protocol (its schemas) is not loaded to find that out.
      for (const protocol of [
        "/packages/pod/src/protocol/messages.ts",
        "/packages/pod/src/protocol/wire-events.ts",
      ])
        expect(of(run.modules, protocol)).toEqual([]);
    } finally {
      await fixture.close();
    }
  });

  it.skipIf(!hasTmux)("the terminal UI loads ink, and not the Agent Client Protocol", async () => {
    const fixture = await headlessFixture();
    const screen = new TmuxScreen("lazy-loading");
    const file = recordFile();
    try {
      const variables = { ...fixture.env, YOAKE_RECORD_MODULES: file };
      const assignments = Object.entries(variables)
        .filter((entry): entry is [string, string] => entry[1] !== undefined)
        .map(([name, value]) => `${name}='${value}'`);
      screen.start(
        ["env", "-i", ...assignments, process.execPath, "--import", RECORDER, BIN].join(" "),
        fixture.project.dir,
      );
      await screen.waitFor("○ ready", 20_000);
      screen.press("C-d");
      await screen.waitFor("[exit 0]", 20_000);
      const modules = loaded(file);
      expect(of(modules, INK)).not.toEqual([]);
      expect(of(modules, ACP)).toEqual([]);
    } finally {
      screen.stop();
      await fixture.close();
    }
  });
});

/** Runs a module of `source` under Node, through the workspace's sources, with the recorder. */
function recordedScript(source: string): Promise<{ code: number | null; stderr: string; modules: string[] }> {
  const file = recordFile();
  const args = ["--conditions=@yoake/source", "--import", "tsx", "--import", RECORDER, "--input-type=module"];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, "-e", source], {
      cwd: path.dirname(BIN),
      env: { ...process.env, YOAKE_RECORD_MODULES: file },
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr, modules: loaded(file) }));
  });
}

describe("what the library loads", () => {
  it("importing @yoake/llm-worker, creating a client and storing a blob loads neither zod, uuid, MCP nor node:http", async () => {
    const run = await recordedScript(
      [
        'const { createClient, createInspectTool, FsBlobStore } = await import("@yoake/llm-worker");',
        'createClient({ scheme: "anthropic", model: "claude-sonnet-4-5", apiKey: "unused" });',
        `const store = new FsBlobStore(${JSON.stringify(path.join(scratch, "blobs"))});`,
        "createInspectTool(store);",
        'await store.store({ kind: "text", text: "a stored result" });',
      ].join("\n"),
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(of(run.modules, "/packages/llm-worker/src/index.ts")).not.toEqual([]);
    // node:http (its agents, sockets and streams) only names a status in an error message.
    for (const heavy of ["/node_modules/zod/", "/node_modules/uuid/", "/node_modules/@modelcontextprotocol/"])
      expect(of(run.modules, heavy)).toEqual([]);
    expect(run.modules.filter((url) => url === "node:http")).toEqual([]);
    // Ids come from Web Crypto's global; node:crypto only hashes an id another scheme cannot take.
    expect(run.modules.filter((url) => url === "node:crypto")).toEqual([]);
  });
});
