/**
 * The terminal UI as a person uses it: a real program (`fixtures/tui-main.ts`: a real Pod on a
 * temporary project, the mock provider with a scripted conversation) in a real terminal (tmux),
 * driven by keys and read from the screen.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { hasTmux, inputLine, TmuxScreen } from "./tui-tmux.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
if (!hasTmux) console.warn("tmux is not installed: the terminal UI tests are skipped (.ci/run installs it)");

describe.skipIf(!hasTmux)("the terminal UI in tmux", () => {
  const screen = new TmuxScreen("tui-fixture");
  afterAll(() => screen.stop());

  it("attaches a file with @, shows tool cards and an approval, cancels on Esc and goes on", async () => {
    screen.start(
      "node --conditions=@yoake/source --import tsx packages/cli/test/fixtures/tui-main.ts",
      repoRoot,
    );
    await screen.waitFor("○ ready · /help", 60_000);
    expect(screen.capture()).toContain("yoake test · the model is scripted");

    // The @ picker: the project's files, fuzzy-filtered, .gitignore respected.
    screen.type("explain @gre");
    let shown = await screen.waitFor("› src/greet.ts");
    expect(shown).not.toContain("greet-debug.log");
    screen.press("Tab");
    await screen.waitFor(inputLine("explain @src/greet.ts "));
    screen.type("please");
    screen.press("Enter");

    // A tool card, then the edit waiting for approval with its diff.
    await screen.waitFor("● read_file src/farewell.ts done");
    shown = await screen.waitFor("edit_file wants to run on src/greet.ts");
    expect(shown).toContain('+export const greet = (name: string) => "Hello there, " + name;');
    expect(shown).toContain("✻ Thinking");
    screen.press("y");
    await screen.waitFor("Done: greet now says Hello there, and farewell says Goodbye.");
    // Three responses of 1,200 tokens in and 60 out at $3 / $15 per million.
    shown = await screen.waitFor(/○ ready .*mock-model · 3\.6k in · 180 out · \$0\.0135/);
    expect(shown).toContain("● edit_file src/greet.ts done");

    // A response that stalls: Esc cancels it, and the session goes on with its history.
    screen.type("now the slow one");
    screen.press("Enter");
    await screen.waitFor("Thinking very slowly about");
    expect(screen.capture()).toContain("esc to cancel");
    screen.press("Escape");
    await screen.waitFor("Cancelled. The session goes on.");
    screen.type("are you still there");
    screen.press("Enter");
    await screen.waitFor("Still here: I remember 2 earlier prompts.");

    // Up brings back the last input.
    await screen.waitFor("○ ready");
    screen.press("Up");
    await screen.waitFor(inputLine("are you still there"));

    // Keys that come in one read (key repeat, a slow link) are applied one by one: Ctrl+U,
    // Backspace and Ctrl+W edit, and no raw control byte reaches the provider.
    screen.type("\x15hello wrold\x7f\x7f\x7f\x7fworld, fix thsi\x17this\x15hello world\r");
    await screen.waitFor('You sent "hello world".');

    // A paste is inserted, not sent, though it ends with a line break; Enter sends it.
    await screen.waitFor("○ ready");
    screen.paste("first pasted line\nsecond pasted line\n");
    await screen.waitFor(/│\s+second pasted line/);
    expect(screen.capture()).not.toContain('You sent "first pasted line');
    screen.type("end");
    screen.press("Enter");
    await screen.waitFor('You sent "first pasted line\\nsecond pasted line\\nend".');

    // A long paste shows as one line in the box and is sent whole.
    await screen.waitFor("○ ready");
    const rows = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`);
    screen.paste(rows.join("\n"));
    await screen.waitFor(inputLine("[pasted 12 lines]"));
    screen.press("Enter");
    // (ink wraps the long answer itself: its end is on a line of its own.)
    await screen.waitFor('row 11\\nrow 12".');

    // /quit leaves cleanly.
    await screen.waitFor("○ ready");
    screen.type("/quit");
    screen.press("Enter");
    shown = await screen.waitFor("[exit 0]");
    expect(shown).toContain("yoake-tui-exited");
  }, 180_000);
});
