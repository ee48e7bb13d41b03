/**
 * The real `yoake` in a terminal (tmux) running a `bash` call of the mock model: the command's
 * output streams into its tool card while it runs, and Esc kills it (and what it started).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTmux, TmuxScreen, writeMockUserManifest, yoakeCommand } from "./tui-tmux.js";

/** The command's last process sleeps this long: the host looks for it by this argument. */
const MARK = "7733";

function marked(): number {
  let count = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8") === `sleep\u0000${MARK}\u0000`) count++;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}

describe.skipIf(!hasTmux)("bash in the terminal UI", () => {
  const screen = new TmuxScreen("tui-bash");
  let base: string;
  let project: string;
  let mock: MockProvider;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-e2e-bash-")));
    project = path.join(base, "proj");
    mkdirSync(path.join(project, ".git"), { recursive: true });
    mock = await startMockProvider();
    writeMockUserManifest(base, mock);
  });
  afterAll(async () => {
    screen.stop();
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("streams a command's output into its card, and Esc kills the command", async () => {
    mock.enqueue({
      blocks: [
        {
          type: "tool_call",
          name: "bash",
          arguments: { command: `echo tick-one; echo tick-two; (sleep ${MARK}) & sleep ${MARK}` },
        },
      ],
    });
    screen.start(yoakeCommand(base), project);
    await screen.waitFor("○ ready · /help", 60_000);
    screen.type("run it");
    screen.press("Enter");
    // The command never ends by itself: what the card shows came while it ran.
    const running = await screen.waitFor(/│ tick-two/, 20_000);
    expect(running).toMatch(/◐ bash echo tick-one.* running/);
    expect(running).toContain("│ tick-one");
    while (marked() < 2) await new Promise((resolve) => setTimeout(resolve, 50));

    screen.press("Escape");
    await screen.waitFor("Cancelled. The session goes on.", 20_000);
    // The sandbox goes down with the command: wait for the kernel, no time assertion.
    while (marked() > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(marked()).toBe(0);
    screen.type("/quit");
    screen.press("Enter");
    await screen.waitFor("[exit 0]");
  }, 90_000);

  it("keeps the last lines of a command's output on its card once it has ended", async () => {
    mock.enqueue(
      {
        blocks: [
          { type: "tool_call", name: "bash", arguments: { command: "echo out-first; echo out-last" } },
        ],
      },
      { blocks: [{ type: "text", text: "The command ran." }] },
    );
    screen.start(yoakeCommand(base), project);
    await screen.waitFor("○ ready · /help", 60_000);
    screen.type("run it");
    screen.press("Enter");
    const done = await screen.waitFor("The command ran.", 30_000);
    expect(done).toMatch(/● bash echo out-first.* done/);
    expect(done).toContain("│ out-first");
    expect(done).toContain("│ out-last");
    screen.type("/quit");
    screen.press("Enter");
    await screen.waitFor("[exit 0]");
  }, 90_000);
});
