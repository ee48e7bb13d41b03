/**
 * The real `yoake` in a terminal (tmux) against the mock provider, for what a person coming from
 * Claude Code looks for: a custom `/command` (completed, listed in `/help`, `$ARGUMENTS` filled in),
 * `/effort` and the status bar, the plan above the input, and a sub-agent nested under its `task`
 * card with its tool calls folded.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, type ScriptedResponse, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTmux, inputLine, TmuxScreen, writeMockUserManifest, yoakeCommand } from "./tui-tmux.js";

const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });
const call = (name: string, args: unknown): ScriptedResponse => ({
  blocks: [{ type: "tool_call", name, arguments: args }],
});

describe.skipIf(!hasTmux)("yoake in tmux: commands, effort, the plan and sub-agents", () => {
  const screen = new TmuxScreen("tui-agent");
  let base: string;
  let project: string;
  let mock: MockProvider;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-agent-e2e-")));
    project = path.join(base, "greeter");
    const put = (relative: string, content: string): void => {
      mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
      writeFileSync(path.join(project, relative), content);
    };
    mock = await startMockProvider();
    put(".git/HEAD", "ref: refs/heads/main\n");
    put("src/greet.ts", "export const greet = (name: string) => 'Hello, ' + name;\n");
    put(
      ".yoake/commands/review.md",
      "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS carefully.\n",
    );
    writeMockUserManifest(base, mock);
  });
  afterAll(async () => {
    screen.stop();
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  });

  /**
   * The turn has ended once the status bar on screen is back to ready (the answer shows a little
   * before); the scrollback may hold an earlier frame's status bar, so only the rows on screen count.
   */
  const ready = () =>
    screen.waitUntil((rows) => rows.includes("○ ready · /help"), "the status bar ready", {
      visibleOnly: true,
    });
  const lastBody = (): string => JSON.stringify(mock.requests.at(-1)?.body);

  it("a custom command, /effort, the plan panel and a nested sub-agent", async () => {
    mock.enqueue(
      answer("Reviewed by command."),
      answer("Thought hard."),
      call("todo_write", {
        goal: "Ship the greeter",
        items: [
          { content: "add a farewell", status: "in_progress" },
          { content: "write its test", status: "pending" },
        ],
      }),
      answer("Planned."),
      // The parent delegates; the child globs, then answers; the parent answers last.
      call("task", { description: "look around", prompt: "List the source files." }),
      call("glob", { pattern: "src/**" }),
      answer("One file: src/greet.ts."),
      answer("The child found one file."),
    );
    screen.start(yoakeCommand(base), project);
    let shown = await screen.waitFor("○ ready · /help", 15_000);

    // /effort: in the status bar at once. First, before any turn: a command typed the instant a
    // turn's answer shows may still find the turn ending (it says to wait, which is right).
    expect(shown).not.toContain("effort high");
    screen.type("/effort high");
    screen.press("Enter");
    await screen.waitFor("Effort: high");
    await screen.waitFor("mock-model · effort high");

    // The custom command: listed in /help, completed with Tab, $ARGUMENTS filled in.
    screen.type("/help");
    screen.press("Enter");
    shown = await screen.waitFor("/review <file>");
    expect(shown).toMatch(/\/review <file>\s+Review a file \(project\)/);
    screen.type("/rev");
    await screen.waitFor(inputLine("/rev"));
    screen.press("Tab");
    await screen.waitFor(inputLine("/review "));
    screen.type("src/greet.ts");
    screen.press("Enter");
    await screen.waitFor("Reviewed by command.");
    await ready();
    expect(lastBody()).toContain("Review src/greet.ts carefully.");
    expect(lastBody()).toContain('"budget_tokens":16384');

    // /effort was set first (above): the next prompt carries its thinking budget.
    screen.type("think");
    screen.press("Enter");
    await screen.waitFor("Thought hard.");
    await ready();
    expect(lastBody()).toContain('"thinking":{"type":"enabled","budget_tokens":16384}');

    // The plan: above the input box, after the answer.
    screen.type("plan it");
    screen.press("Enter");
    await screen.waitFor("Planned.");
    await ready();
    shown = await screen.waitFor("☐ write its test");
    expect(shown).toContain("Plan: Ship the greeter (0/2 done)");
    expect(shown).toContain("▶ add a farewell");
    const plan = shown.lastIndexOf("Plan: Ship the greeter");
    expect(plan).toBeGreaterThan(shown.lastIndexOf("Planned."));
    expect(plan).toBeLessThan(shown.lastIndexOf("╭"));

    // The sub-agent: nested under the task card, its glob folded to one line.
    screen.type("delegate");
    screen.press("Enter");
    shown = await screen.waitFor("The child found one file.");
    shown = await screen.waitFor("⎿ sub-agent: look around · 1 tool call · finished");
    const card = shown.lastIndexOf("● task");
    const child = shown.lastIndexOf("⎿ sub-agent: look around");
    expect(card).toBeGreaterThan(-1);
    expect(child).toBeGreaterThan(card);
    expect(shown.indexOf("● glob", child)).toBeGreaterThan(child);
    expect(shown.indexOf("One file: src/greet.ts.", child)).toBeGreaterThan(child);
    // The child's own request carried its task, not the parent's conversation.
    expect(JSON.stringify(mock.requests.at(-3)?.body)).toContain("List the source files.");
    expect(JSON.stringify(mock.requests.at(-3)?.body)).not.toContain("plan it");

    screen.press("C-d");
    await screen.waitFor("[exit 0]");
  }, 90_000);
});
