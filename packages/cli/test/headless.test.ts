import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { headlessFixture, runYoake, toolResults, userTexts } from "./cli-test-kit.js";

type Fixture = Awaited<ReturnType<typeof headlessFixture>>;
let fixture: Fixture | undefined;

async function setUp(files: Record<string, string> = {}): Promise<Fixture> {
  fixture = await headlessFixture(files);
  return fixture;
}

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const answer = (text: string) => ({
  blocks: [{ type: "text" as const, text }],
  usage: { inputTokens: 1_000_000, outputTokens: 100_000 },
});
const toolCall = (id: string, name: string, args: Record<string, unknown>) => ({
  blocks: [{ type: "tool_call" as const, id, name, arguments: args }],
});

describe("output formats", () => {
  it("text prints the final answer alone on stdout and exits 0", async () => {
    const f = await setUp({ "a.txt": "alpha\n" });
    f.provider.enqueue(toolCall("toolu_1", "read_file", { path: "a.txt" }), answer("The file says alpha."));
    const out = await f.run(["-p", "What does a.txt say?"]);
    expect(out).toMatchObject({ exitCode: 0, stdout: "The file says alpha.\n" });
    expect(out.stderr).toBe("");
    expect(f.provider.requests).toHaveLength(2);
    expect(toolResults(f.provider.requests[1]?.body)[0]?.content).toContain("alpha");
  });

  it("json prints one object with the answer, usage, cost at catalogue prices and the model", async () => {
    const f = await setUp();
    f.provider.enqueue(answer("Done."));
    const out = await f.run(["-p", "hi", "--output-format", "json"]);
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0] ?? "");
    expect(result).toMatchObject({
      event: "result",
      status: "finished",
      isError: false,
      text: "Done.",
      turns: 1,
      usage: { inputTokens: 1_000_000, outputTokens: 100_000 },
      model: "anthropic/claude-sonnet-5-5",
    });
    // claude-sonnet-5-5 lists $2 in and $10 out per million tokens.
    expect(result.costUsd).toBeCloseTo(2 + 1, 6);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("stream-json prints one line per protocol event, then the result", async () => {
    const f = await setUp({ "a.txt": "alpha\n" });
    f.provider.enqueue(toolCall("toolu_1", "read_file", { path: "a.txt" }), answer("alpha it is"));
    const out = await f.run(["-p", "read a.txt", "--output-format", "stream-json"]);
    expect(out.exitCode).toBe(0);
    const events = out.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string; [key: string]: unknown });
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("run_start");
    expect(names).toContain("tool_call_done");
    expect(names.indexOf("tool_start")).toBeLessThan(names.indexOf("tool_result"));
    expect(events.find((e) => e.event === "tool_result")).toMatchObject({
      callId: "toolu_1",
      name: "read_file",
      isError: false,
    });
    expect(names.at(-2)).toBe("run_end");
    expect(events.at(-1)).toMatchObject({ event: "result", status: "finished", text: "alpha it is" });
    const deltas = events.filter((e) => e.event === "text_delta").map((e) => e.text);
    expect(deltas.join("")).toBe("alpha it is");
    // The same text again in *_complete events would be noise: the protocol leaves them out.
    expect(names).not.toContain("text_complete");
  });

  it("a failed run exits 1 with the provider's error on stderr, and json says why", async () => {
    const f = await setUp();
    f.provider.setHandler(() => ({ fault: "status", status: 400, message: "prompt is malformed" }));
    const text = await f.run(["-p", "hi"]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toContain("prompt is malformed");
    const json = await f.run(["-p", "hi", "--output-format", "json"]);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "failed",
      isError: true,
      text: "",
      error: { kind: "invalid_request" },
    });
  });
});

describe("the prompt", () => {
  it("comes from standard input when -p has no text, or no -p is given", async () => {
    const f = await setUp();
    f.provider.setHandler(() => answer("ok"));
    expect((await f.run(["-p"], "from stdin\n")).exitCode).toBe(0);
    expect((await f.run([], "piped, no -p")).exitCode).toBe(0);
    expect(userTexts(f.provider.requests[0]?.body)).toEqual(["from stdin"]);
    expect(userTexts(f.provider.requests[1]?.body)).toEqual(["piped, no -p"]);
  });

  it("is the -p text, a blank line, then standard input when both are given", async () => {
    const f = await setUp();
    f.provider.enqueue(answer("reviewed"));
    const out = await f.run(["-p", "Review this diff:"], "+ added line\n");
    expect(out.exitCode).toBe(0);
    expect(userTexts(f.provider.requests[0]?.body)).toEqual(["Review this diff:\n\n+ added line"]);
  });

  it("is required: none at all is a usage error (exit 2) before any request", async () => {
    const f = await setUp();
    const out = await f.run(["-p"], "  \n");
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/^yoake: no prompt/);
    expect(f.provider.requests).toHaveLength(0);
  });

  it("resolves @path references into attached files", async () => {
    const f = await setUp({ "notes/todo.md": "- ship the demo\n" });
    f.provider.enqueue(answer("one item"));
    const out = await f.run(["-p", "Summarize @notes/todo.md please"]);
    expect(out.exitCode).toBe(0);
    const texts = userTexts(f.provider.requests[0]?.body);
    expect(texts[0]).toBe("Summarize @notes/todo.md please");
    expect(texts[1]).toBe("<system>\n[File: notes/todo.md]\n- ship the demo\n\n</system>");
  });

  it("warns on stderr about a reference that does not resolve, and still runs", async () => {
    const f = await setUp();
    f.provider.enqueue(answer("nothing there"));
    const out = await f.run(["-p", "read @missing.md"]);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toMatch(/^yoake: warn: .*missing\.md/m);
  });
});

describe("overrides of the manifest", () => {
  it("--max-turns stops a run that keeps calling tools (exit 1)", async () => {
    const f = await setUp({ "a.txt": "a\n" });
    let n = 0;
    f.provider.setHandler(() => toolCall(`toolu_${++n}`, "read_file", { path: "a.txt" }));
    const out = await f.run(["-p", "loop", "--max-turns", "2"]);
    expect(out.exitCode).toBe(1);
    expect(f.provider.requests).toHaveLength(2);
    expect(out.stderr).toMatch(/^yoake: .*2/m);
  });

  it("--model picks the provider, its wire format and its key variable", async () => {
    const f = await setUp();
    f.provider.enqueue(answer("from openai"));
    const out = await f.run(["-p", "hi", "--model", "openai/gpt-5", "--output-format", "json"]);
    expect(out.exitCode).toBe(0);
    expect(f.provider.requests[0]).toMatchObject({ path: "/v1/responses", model: "gpt-5" });
    expect(f.provider.requests[0]?.headers.authorization).toBe("Bearer test-openai-key");
    expect(JSON.parse(out.stdout)).toMatchObject({ text: "from openai", model: "openai/gpt-5" });
  });

  it("--deny keeps a file from the agent; --allow lets it read outside the project", async () => {
    const f = await setUp({ "secret.txt": "hunter2\n" });
    await writeFile(path.join(f.project.outside, "shared.txt"), "shared notes\n");
    const outsideFile = path.join(f.project.outside, "shared.txt");
    f.provider.setHandler((request) => {
      const results = toolResults(request.body);
      if (results.length === 0)
        return {
          blocks: [
            { type: "tool_call", id: "toolu_secret", name: "read_file", arguments: { path: "secret.txt" } },
            { type: "tool_call", id: "toolu_shared", name: "read_file", arguments: { path: outsideFile } },
          ],
        };
      return answer("read");
    });

    expect((await f.run(["-p", "read both"])).exitCode).toBe(0);
    const before = toolResults(f.provider.requests[1]?.body);
    expect(before.find((r) => r.tool_use_id === "toolu_secret")?.content).toContain("hunter2");
    expect(before.find((r) => r.tool_use_id === "toolu_shared")).toMatchObject({ is_error: true });

    expect((await f.run(["-p", "read both", "--deny", "secret.txt", "--allow", "../outside"])).exitCode).toBe(
      0,
    );
    const after = toolResults(f.provider.requests[3]?.body);
    const secret = after.find((r) => r.tool_use_id === "toolu_secret");
    expect(secret).toMatchObject({ is_error: true });
    expect(secret?.content).not.toContain("hunter2");
    expect(secret?.content).toContain("deny");
    expect(after.find((r) => r.tool_use_id === "toolu_shared")?.content).toContain("shared notes");
  });

  it("an invalid --model is a usage error naming the key", async () => {
    const f = await setUp();
    const out = await f.run(["-p", "hi", "--model", "nowhere/model-x"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/^yoake: invalid manifest: overrides: model\.ref: unknown provider/);
  });
});

describe("approvals in headless mode", () => {
  const writeThenAnswer = (fixture: Fixture) =>
    fixture.provider.setHandler((request) =>
      toolResults(request.body).length === 0
        ? toolCall("toolu_write", "write_file", { path: "out.txt", content: "written\n" })
        : answer("done"),
    );

  it("denies a call that needs approval, tells the model and the user why, and goes on", async () => {
    const f = await setUp();
    writeThenAnswer(f);
    const out = await f.run(["-p", "write out.txt", "--output-format", "json"]);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe("yoake: denied write_file: it needs approval (rerun with --yes to allow it)\n");
    const result = toolResults(f.provider.requests[1]?.body)[0];
    expect(result).toMatchObject({ tool_use_id: "toolu_write", is_error: true });
    expect(result?.content).toContain("--yes");
    expect(JSON.parse(out.stdout).deniedCalls).toEqual([
      expect.objectContaining({ tool: "write_file", callId: "toolu_write" }),
    ]);
    await expect(readFile(path.join(f.project.dir, "out.txt"))).rejects.toThrow();
  });

  it("--yes approves every call", async () => {
    const f = await setUp();
    writeThenAnswer(f);
    const out = await f.run(["-p", "write out.txt", "--yes"]);
    expect(out).toMatchObject({ exitCode: 0, stderr: "", stdout: "done\n" });
    expect(await readFile(path.join(f.project.dir, "out.txt"), "utf8")).toBe("written\n");
  });
});

describe("sessions", () => {
  const messagesOf = (body: unknown) =>
    (
      (body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> })
        .messages ?? []
    ).map((m) => `${m.role}: ${m.content.map((c) => c.text ?? c.type).join(" ")}`);

  it("--continue goes on with the project's latest session, --resume with the one named", async () => {
    const f = await setUp();
    f.provider.setHandler((request) => answer(`answer ${f.provider.requests.indexOf(request) + 1}`));
    const first = JSON.parse((await f.run(["-p", "first question", "--output-format", "json"])).stdout);
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const fresh = JSON.parse((await f.run(["-p", "unrelated", "--output-format", "json"])).stdout);
    expect(fresh.sessionId).not.toBe(first.sessionId);
    expect(messagesOf(f.provider.requests[1]?.body)).toEqual(["user: unrelated"]);

    const continued = JSON.parse(
      (await f.run(["-p", "and then?", "--continue", "--output-format", "json"])).stdout,
    );
    expect(continued.sessionId).toBe(fresh.sessionId);
    expect(messagesOf(f.provider.requests[2]?.body)).toEqual([
      "user: unrelated",
      "assistant: answer 2",
      "user: and then?",
    ]);

    const resumed = await f.run(["-p", "back to the first", "--resume", first.sessionId.slice(0, 13)]);
    expect(resumed.exitCode).toBe(0);
    expect(messagesOf(f.provider.requests[3]?.body)).toEqual([
      "user: first question",
      "assistant: answer 1",
      "user: back to the first",
    ]);
  });

  it("warns about a model the catalogue does not know once per session, never when the manifest describes it", async () => {
    const f = await setUp();
    f.provider.setHandler(() => answer("ok"));
    const unknown = ["--model", "anthropic/claude-custom"];
    const first = await f.run(["-p", "hi", ...unknown]);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toContain(
      'model "anthropic/claude-custom" (from overrides) is not in the built-in catalogue',
    );
    const continued = await f.run(["-p", "again", "--continue", ...unknown]);
    expect(continued).toMatchObject({ exitCode: 0, stderr: "" });

    // The user's manifest gives the model's window and prices: naming it keeps them, and no warning.
    const userManifest = path.join(f.project.home, "config", "yoake", "manifest.toml");
    await mkdir(path.dirname(userManifest), { recursive: true });
    await writeFile(
      userManifest,
      '[model]\nref = "anthropic/claude-custom"\ncontext_window = 100000\nprices = { input = 1, output = 2 }\n',
    );
    const described = await f.run(["-p", "hi", "--output-format", "json", ...unknown]);
    expect(described.stderr).toBe("");
    // answer(): 1M tokens in and 100k out, at $1 and $2 per million.
    expect(JSON.parse(described.stdout)).toMatchObject({ model: "anthropic/claude-custom", costUsd: 1.2 });
  });

  it("a session that cannot be opened is one line and exit 2, before any request", async () => {
    const f = await setUp();
    const none = await f.run(["-p", "hi", "--continue"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^yoake: cannot open the session: .*no sessions yet\n$/);
    const unknown = await f.run(["-p", "hi", "--resume", "0190b2c4-0000-7000-8000-000000000000"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^yoake: cannot open the session: [^\n]*\n$/);
    const both = await f.run(["-p", "hi", "--continue", "--resume", "x"]);
    expect(both).toMatchObject({
      exitCode: 2,
      stderr: "yoake: --continue and --resume exclude each other: give one\n",
    });
    expect(f.provider.requests).toHaveLength(0);
  });
});

describe("configuration errors", () => {
  it("a missing key is one line naming the variable to set, exit 2, no request", async () => {
    const f = await setUp();
    const out = await runYoake(["-p", "hi", "--model", "gemini/gemini-2.5-flash"], {
      cwd: f.project.dir,
      env: { ...f.env, GEMINI_API_KEY: undefined },
    });
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toBe("yoake: no API key for gemini-2.5-flash (gemini): set GEMINI_API_KEY\n");
    expect(f.provider.requests).toHaveLength(0);
  });

  it("an unknown option or a bad number is a usage error (exit 2)", async () => {
    const f = await setUp();
    expect((await f.run(["--no-such-option"])).exitCode).toBe(2);
    const bad = await f.run(["-p", "hi", "--max-turns", "zero"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--max-turns");
  });

  it("--cwd must name an existing directory: one line, exit 2, nothing created, no request", async () => {
    const f = await setUp({ "notes.txt": "a file\n" });
    const missing = path.join(f.project.dir, "no", "such", "dir");
    const gone = await f.run(["-p", "hi", "--cwd", missing]);
    expect(gone).toEqual({ exitCode: 2, stdout: "", stderr: `yoake: --cwd ${missing}: no such directory\n` });
    expect(existsSync(path.join(f.project.dir, "no"))).toBe(false);
    const file = await f.run(["-p", "hi", "--cwd", "notes.txt"]);
    expect(file).toEqual({ exitCode: 2, stdout: "", stderr: "yoake: --cwd notes.txt: not a directory\n" });
    expect(f.provider.requests).toHaveLength(0);
  });

  it("--output-format accepts only text, json and stream-json", async () => {
    const f = await setUp();
    const out = await f.run(["-p", "hi", "--output-format", "xml"]);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain("text, json, stream-json");
  });
});
