import { afterEach, describe, expect, it } from "vitest";
import { headlessFixture, runYoakeBinary as yoake } from "./cli-test-kit.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe("the yoake command as a child process", () => {
  it("reads the prompt from a pipe, prints the answer and exits 0", async () => {
    fixture = await headlessFixture();
    fixture.provider.enqueue({ blocks: [{ type: "text", text: "Piped and answered." }] });
    const out = await yoake(["-p", "Answer this:"], {
      cwd: fixture.project.dir,
      env: fixture.env,
      stdin: "what is piped\n",
    });
    expect(out).toEqual({ code: 0, stdout: "Piped and answered.\n", stderr: "" });
  });

  it("exits 2 with one line when the key is missing", async () => {
    fixture = await headlessFixture();
    const out = await yoake(["-p", "hi"], {
      cwd: fixture.project.dir,
      env: { ...fixture.env, ANTHROPIC_API_KEY: undefined },
    });
    expect(out).toEqual({
      code: 2,
      stdout: "",
      stderr: "yoake: no API key for claude-sonnet-5-5 (anthropic): set ANTHROPIC_API_KEY\n",
    });
  });

  it("Ctrl-C cancels the running turn: the run ends cancelled and the command exits 130", async () => {
    const f = await headlessFixture();
    fixture = f;
    // The answer starts streaming, then the provider goes silent.
    f.provider.enqueue({
      fault: "stall",
      response: { blocks: [{ type: "text", text: "Thinking about it..." }] },
      afterBytes: 400,
    });
    const out = await yoake(["-p", "hi"], {
      cwd: f.project.dir,
      env: f.env,
      started: (child) => {
        const poll = setInterval(() => {
          if (f.provider.requests.length === 0) return;
          clearInterval(poll);
          setTimeout(() => child.kill("SIGINT"), 200);
        }, 20);
      },
    });
    expect(out.code).toBe(130);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/^yoake: cancelled/m);
  });

  it("prints its version and help", async () => {
    fixture = await headlessFixture();
    const version = await yoake(["--version"], { cwd: fixture.project.dir, env: fixture.env });
    expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    const help = await yoake(["--help"], { cwd: fixture.project.dir, env: fixture.env });
    expect(help.code).toBe(0);
    for (const option of [
      "--prompt",
      "--output-format",
      "--model",
      "--max-turns",
      "--allow",
      "--deny",
      "--yes",
    ])
      expect(help.stdout).toContain(option);
    expect(help.stdout).toContain("demo");
  });

  it("stops quietly when the reader of its output goes away (yoake --help | head -1)", async () => {
    fixture = await headlessFixture();
    const help = await yoake(["--help"], {
      cwd: fixture.project.dir,
      env: fixture.env,
      started: (child) => child.stdout?.destroy(),
    });
    expect(help.stderr).toBe("");
    expect(help.code).toBe(0);
  });
});

describe("yoake demo -p", () => {
  it("runs the scripted tour on the real Pod and says what it showed", async () => {
    fixture = await headlessFixture();
    // No provider variables at all: the demo needs none.
    const env = { PATH: process.env.PATH, HOME: fixture.project.home };
    const out = await yoake(["demo", "-p"], { cwd: fixture.project.dir, env });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const text = out.stdout;
    expect(text).toMatch(/the model is SCRIPTED/);
    // The @ file reference.
    expect(text).toContain("@ reference resolved: [File: README.md]");
    // Parallel tool calls.
    expect(text).toContain("3 tool calls in one response: the Pod runs them in parallel");
    expect(text).toContain("⚙ read_file logs/server.log");
    // The edit and its diff, approved with a notice.
    expect(text).toContain("edit_file needs approval. The demo approves it");
    expect(text).toContain("-  en: (name) => `Helo, $" + "{name}!`,");
    expect(text).toContain("+  en: (name) => `Hello, $" + "{name}!`,");
    // A large output stored as a summary, read back with inspect.
    expect(text).toMatch(/stored in the blob store .*\n\s+\[blob:[0-9a-f-]+\] text \| 307 lines/);
    expect(text).toMatch(/⚙ inspect [0-9a-f-]+ lines:305-307/);
    expect(text).toContain("307 requests failed");
    // The pruned context.
    expect(text).toMatch(/✂ context pruned before request \d+: \d+ old tool result\(s\)/);
    expect(text).toContain("Along the way the Pod pruned my context");
    // The tests through bash: a failure, the fix, the tests again.
    expect(text).toContain("⚙ bash set -o pipefail; npm test");
    expect(text).toContain(
      "The tests fail (exit code 1): 2 failing, one request is singular; three requests are plural",
    );
    expect(text).toContain("+  return `$" + "{count} $" + "{count === 1 ? word : `$" + "{word}s`}`;");
    expect(text).toContain("Fixed: the tests pass now (2 passing)");
    // The plan, and a sub-agent with its own linked session log.
    expect(text).toContain("[~] Count the failures per language (sub-agent)");
    expect(text).toContain("[x] Report the languages to add");
    expect(text).toMatch(/307 lines mention an unsupported language; the first 8 ask for: [a-zA-Z-]+/);
    expect(text).toMatch(/\[sub-agent session [0-9a-f-]+, last hash [0-9a-f]{64}\]/);
    expect(text).toContain("end of the demo");
    // Not started by npm (a global install): the way on is said as the user runs yoake.
    expect(text).toContain("then `yoake` for the terminal UI or `yoake -p");
    expect(text).not.toContain("npx yoake");
  });
});
