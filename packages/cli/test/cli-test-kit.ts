import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach } from "vitest";
import type { CliIO, InputStream } from "../src/io.js";
import { main } from "../src/main.js";

/** A scratch project with `.yoake/` (so it is its own project root) and the given files. */
export interface TempProject {
  /** The project directory. */
  dir: string;
  /** A directory beside it, outside the project. */
  outside: string;
  /** Config and state of the run, so the user's own are never read. */
  home: string;
  remove(): Promise<void>;
}

export async function tempProject(files: Record<string, string> = {}): Promise<TempProject> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "yoake-cli-test-")));
  const dir = path.join(root, "project");
  const outside = path.join(root, "outside");
  const home = path.join(root, "home");
  await mkdir(path.join(dir, ".yoake"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await mkdir(home, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return { dir, outside, home, remove: () => rm(root, { recursive: true, force: true }) };
}

/** The environment of a run against `provider`: keys and base URLs of every scheme, an isolated home. */
export function testEnv(project: TempProject, provider: MockProvider): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: project.home,
    XDG_CONFIG_HOME: path.join(project.home, "config"),
    XDG_STATE_HOME: path.join(project.home, "state"),
    ANTHROPIC_API_KEY: "test-anthropic-key",
    ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
    OPENAI_API_KEY: "test-openai-key",
    OPENAI_BASE_URL: provider.baseURLFor("openai-responses"),
    GEMINI_API_KEY: "test-gemini-key",
    GEMINI_BASE_URL: provider.baseURLFor("gemini"),
    OLLAMA_HOST: provider.baseURLFor("ollama"),
  };
}

export interface RunOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunInput {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Piped standard input; absent: a terminal (nothing is read). */
  stdin?: string;
}

/** Runs `yoake <argv>` in-process with captured streams. */
export async function runYoake(argv: readonly string[], input: RunInput): Promise<RunOutcome> {
  let stdout = "";
  let stderr = "";
  const stdin: InputStream =
    input.stdin === undefined
      ? { isTTY: true, async *[Symbol.asyncIterator]() {} }
      : Readable.from([input.stdin]);
  const io: CliIO = {
    stdin,
    stdout: {
      write: (text) => {
        stdout += text;
        return true;
      },
    },
    stderr: {
      write: (text) => {
        stderr += text;
        return true;
      },
    },
    env: input.env,
    cwd: input.cwd,
  };
  const exitCode = await main(argv, io);
  return { exitCode, stdout, stderr };
}

/** A mock provider and a project, torn down together. */
export async function headlessFixture(files: Record<string, string> = {}): Promise<{
  provider: MockProvider;
  project: TempProject;
  env: Record<string, string | undefined>;
  run(argv: readonly string[], stdin?: string): Promise<RunOutcome>;
  close(): Promise<void>;
}> {
  const provider = await startMockProvider();
  const project = await tempProject(files);
  const env = testEnv(project, provider);
  return {
    provider,
    project,
    env,
    run: (argv, stdin) => runYoake(argv, { cwd: project.dir, env, ...(stdin !== undefined && { stdin }) }),
    close: async () => {
      await provider.close();
      await project.remove();
    },
  };
}

/** The text of every user-side text block of an Anthropic request body, in order. */
export function userTexts(body: unknown): string[] {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; text?: string }>)
      if (block.type === "text" && block.text !== undefined) texts.push(block.text);
  }
  return texts;
}

/** The tool results of an Anthropic request body. */
export function toolResults(
  body: unknown,
): Array<{ tool_use_id: string; content?: string; is_error?: boolean }> {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const results: Array<{ tool_use_id: string; content?: string; is_error?: boolean }> = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string }>)
      if (block.type === "tool_result")
        results.push(block as unknown as { tool_use_id: string; content?: string; is_error?: boolean });
  }
  return results;
}

const BIN = fileURLToPath(new URL("../bin/yoake.js", import.meta.url));

export interface ChildOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `yoake` command as a child process, as a person or a script would. */
export function runYoakeBinary(
  args: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string | undefined>;
    stdin?: string;
    /** Called once the child is running, e.g. to signal it. */
    started?: (child: ChildProcess) => void;
  },
): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: options.env });
    options.started?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

export type HeadlessFixture = Awaited<ReturnType<typeof headlessFixture>>;

/**
 * Call at the top level of a test file: `setUp(files)` makes a headless fixture that is closed
 * after the test.
 */
export function headlessFixturePerTest(): (files?: Record<string, string>) => Promise<HeadlessFixture> {
  let current: HeadlessFixture | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (files = {}) => {
    current = await headlessFixture(files);
    return current;
  };
}
