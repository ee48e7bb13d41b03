/**
 * How the terminal UI draws in a small terminal (tmux, 60×16): long and tall messages, a long
 * input (many lines, or one very long line), a resize. The fixture answers every prompt by quoting
 * it (`YOAKE_TUI_FIXTURE=echo`).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { hasTmux, TmuxScreen } from "./tui-tmux.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixture =
  "YOAKE_TUI_FIXTURE=echo node --conditions=@yoake/source --import tsx packages/cli/test/fixtures/tui-main.ts";
const boxTops = (screen: string) => screen.split("\n").filter((line) => line.startsWith("╭")).length;

describe.skipIf(!hasTmux)("the terminal UI drawn in a small terminal", () => {
  const screen = new TmuxScreen("tui-render");
  afterAll(() => screen.stop());

  it("keeps long and tall messages inside the terminal, caps the input box, and redraws on a resize", async () => {
    screen.start(fixture, repoRoot, { columns: 60, rows: 16 });
    await screen.waitFor("○ ready", 60_000);

    // A message wider than the terminal: its echo wraps inside it, every line under the text.
    screen.type(`${"z".repeat(150)}\r`);
    await screen.waitFor("You sent");
    const echo = await screen.waitUntil((shown) => shown.includes("› zzz"), "the echo", {
      visibleOnly: true,
    });
    const rows = echo.split("\n");
    const first = rows.findIndex((line) => line.startsWith("› z"));
    const end = rows.indexOf("", first);
    const message = rows.slice(first, end);
    expect(message.slice(1).filter((line) => !line.startsWith("  z"))).toEqual([]);
    expect(message.join("").replace(/[› ]/g, "")).toBe("z".repeat(150));

    // A 30-line input: the box keeps to half the terminal and scrolls; the status line stays.
    await screen.waitFor("○ ready");
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    screen.type(lines.join("\n"));
    const boxed = await screen.waitUntil(
      (shown) => shown.includes("│   line 30") && shown.includes("○ ready"),
      "the end of the input with the status line",
      { visibleOnly: true },
    );
    expect(boxed).toMatch(/↑ \d+ more line\(s\)/);
    expect(boxed).not.toContain("line 1 ");
    // Sent, the whole message is in the transcript, its last line too.
    screen.press("Enter");
    // Waited for whole: the answer may be drawn a frame before the message above it settles.
    const sent = await screen.waitFor(/ {2}line 29\n {2}line 30\n\nStill here[\s\S]*line 30"\./);
    expect(sent).toMatch(/ {2}line 29\n {2}line 30\n\nStill here/);

    // A 6,000-character line with no break (a pasted paragraph): capped by the rows it wraps to,
    // the box whole on screen with the status line under it.
    await screen.waitFor("○ ready");
    screen.paste("y".repeat(6_000));
    const capped = await screen.waitUntil(
      (shown) => /↑ \d+ more line\(s\)/.test(shown) && shown.includes("○ ready"),
      "the long line capped, with the status line",
      { visibleOnly: true },
    );
    expect(boxTops(capped)).toBe(1);
    screen.press("C-u");
    await screen.waitFor("Ask anything");

    // Narrower, then wider: one input box, the new one, on screen and in the scrollback alike
    // (the terminal reflows the old frame, which ink then cannot erase).
    await screen.waitFor("○ ready");
    screen.type("a draft");
    await screen.waitFor("│ › a draft");
    screen.resize(40, 16);
    await screen.waitUntil((shown) => /│ › a draft +│\n╰─{38}╯/.test(shown), "the box redrawn 40 wide");
    screen.resize(80, 16);
    const wide = await screen.waitUntil(
      (shown) => /│ › a draft +│\n╰─{78}╯/.test(shown),
      "the box redrawn 80 wide",
    );
    expect(boxTops(wide)).toBe(1);
    expect(wide).toContain('line 30".');
    screen.press("C-u");
    screen.type("/quit\r");
    await screen.waitFor("[exit 0]");
  }, 180_000);
});
