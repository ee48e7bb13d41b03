/**
 * The real `yoake` command in a terminal (tmux), on a project whose manifest points at the mock
 * provider this test serves: a prompt with an `@` completion, a tool card, Esc mid-turn, then
 * `yoake --continue` resuming the saved session with its whole history.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeScripted, type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTmux, inputLine, TmuxScreen, writeMockUserManifest, yoakeCommand } from "./tui-tmux.js";

/** Where the `n`th text delta event of an Anthropic stream ends. */
function endOfTextDelta(body: string, n: number): number {
  let end = 0;
  for (let i = 0; i < n; i++) end = body.indexOf("\n\n", body.indexOf('"text_delta"', end)) + 2;
  return end;
}

describe.skipIf(!hasTmux)("yoake in tmux", () => {
  const screen = new TmuxScreen("tui-yoake");
  let base: string;
  let project: string;
  let mock: MockProvider;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-e2e-")));
    project = path.join(base, "greeter");
    const put = (relative: string, content: string): void => {
      mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
      writeFileSync(path.join(project, relative), content);
    };
    mock = await startMockProvider();
    put(".git/HEAD", "ref: refs/heads/main\n");
    put(".gitignore", "dist/\n");
    put("src/greet.ts", "export const greet = (name: string) => 'Hello, ' + name;\n");
    put("dist/greet.js", "exports.greet = () => 'built';\n");
    writeMockUserManifest(base, mock, ["context_window = 200000", "prices = { input = 3, output = 15 }"]);
  });
  afterAll(async () => {
    screen.stop();
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  });

  const command = (...args: string[]): string => yoakeCommand(base, ...args);

  it("runs a turn with a tool card, cancels one with Esc, and resumes the session with --continue", async () => {
    const usage = { inputTokens: 1000, outputTokens: 50 };
    const slow = encodeScripted("anthropic", {
      blocks: [{ type: "text", text: "Let me think about it slowly." }],
    });
    mock.enqueue(
      {
        usage,
        blocks: [
          { type: "text", text: "Reading it." },
          { type: "tool_call", name: "read_file", arguments: { path: "src/greet.ts" } },
        ],
      },
      { usage, blocks: [{ type: "text", text: "It greets people by name." }] },
      // Headers and the first three pieces of text ("Let me think about it sl"), then silence.
      { fault: "stall", response: slow, afterBytes: endOfTextDelta(slow, 3) },
    );
    mock.setHandler((request) => {
      const sent = JSON.stringify(request.body);
      const remembered = ["what does", "take your time"].filter((prompt) => sent.includes(prompt)).length;
      return {
        usage,
        blocks: [{ type: "text", text: `Welcome back: I remember ${remembered} earlier prompts.` }],
      };
    });

    screen.start(command(), project);
    let shown = await screen.waitFor("○ ready · /help", 15_000);
    expect(shown).toContain(`yoake · ${project}`);

    screen.type("what does @gre");
    shown = await screen.waitFor("› src/greet.ts");
    expect(shown).not.toContain("dist/greet.js");
    screen.press("Tab");
    await screen.waitFor(inputLine("what does @src/greet.ts "));
    screen.type("do");
    screen.press("Enter");
    shown = await screen.waitFor("It greets people by name.");
    expect(shown).toContain("● read_file src/greet.ts done");

    screen.type("take your time");
    screen.press("Enter");
    await screen.waitFor("Let me think about");
    screen.press("Escape");
    await screen.waitFor("Cancelled. The session goes on.");
    // Ctrl+C on an empty input asks once more; then yoake leaves and says how to come back.
    screen.press("C-c");
    await screen.waitFor("Press Ctrl+C again to exit");
    screen.press("C-c");
    shown = await screen.waitFor("[exit 0]");
    expect(shown).toMatch(/Session (\S+) · resume it with: yoake --resume \1\n/);

    // The session log holds the conversation, the cancelled turn included.
    screen.clear();
    screen.start(command("--continue"), project);
    shown = await screen.waitFor("Earlier in this session:", 15_000);
    expect(shown).toMatch(/yoake · .* · session \S+/);
    expect(shown).toContain("› what does @src/greet.ts do");
    expect(shown).toContain("● read_file src/greet.ts done");
    screen.type("still there?");
    screen.press("Enter");
    await screen.waitFor("Welcome back: I remember 2 earlier prompts.");
    screen.press("C-d");
    await screen.waitFor("[exit 0]");
  }, 60_000);
});
