/**
 * The real `yoake` in a terminal (tmux) fed hostile bytes on every path to the screen: the model's
 * streamed text, a file name a cloned repository ships (shown by `glob`), a command's live output,
 * the approval box's diff and the edit's result diff, then `--continue`'s replay of all of it.
 * Every byte the program writes to its terminal is recorded: none is a control sequence it did not
 * make itself, the window title and the clipboard stay as they were, and the screen shows the
 * placeholders, wrapped where they end.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLIPBOARD_PAYLOAD,
  foreignControls,
  HOSTILE_TEXT,
  hidden,
  setClipboard,
  setTitle,
} from "./screen-bytes.js";
import { hasTmux, TmuxScreen, writeMockUserManifest, yoakeCommand } from "./tui-tmux.js";

/** A file name a repository can ship: it writes the clipboard when printed raw. */
const EVIL_NAME = `notes-${setClipboard()}.txt`;
/** A line whose escapes, once placeholders, push its last character onto the next row (120 columns). */
const WIDTH_LINE = `${setTitle("T")}${"w".repeat(115)}Z`;

describe.skipIf(!hasTmux)("untrusted bytes on the terminal UI's screen", () => {
  const screen = new TmuxScreen("tui-screen-text");
  let base: string;
  let project: string;
  let mock: MockProvider;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-e2e-screen-")));
    project = path.join(base, "cloned");
    mkdirSync(path.join(project, ".git"), { recursive: true });
    writeFileSync(path.join(project, EVIL_NAME), "planted\n");
    writeFileSync(path.join(project, "notes.md"), "old line\n");
    mock = await startMockProvider();
    writeMockUserManifest(base, mock);
  });
  afterAll(async () => {
    screen.stop();
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  });

  /**
   * Starts yoake with `args` once the terminal records what it is sent (yoake waits for an Enter
   * before it starts), so the file holds every byte yoake writes.
   */
  const startRecorded = async (raw: string, ...args: string[]): Promise<void> => {
    screen.start(`sh -c 'read line; exec env "$@"' sh ${yoakeCommand(base, ...args)}`, project);
    screen.keepClipboard();
    screen.record(raw);
    screen.press("Enter");
  };
  const ready = () =>
    screen.waitUntil((rows) => rows.includes("○ ready · /help"), "the status bar ready", {
      visibleOnly: true,
      timeoutMs: 60_000,
    });

  it("shows model text, file names, live output and diffs as placeholders, then again on --continue", async () => {
    const go = path.join(project, "go");
    mock.enqueue(
      {
        blocks: [
          { type: "text", text: HOSTILE_TEXT },
          { type: "tool_call", id: "toolu_glob", name: "glob", arguments: { pattern: "*.txt" } },
        ],
      },
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_bash",
            name: "bash",
            arguments: {
              command: `printf 'live-out \\033]0;BASH-TITLE\\007 \\033]52;c;${CLIPBOARD_PAYLOAD}\\007 \\033[8mBASH-HIDDEN\\n'; while [ ! -e go ]; do sleep 0.1; done; echo bash-done`,
            },
          },
        ],
      },
      {
        blocks: [{ type: "tool_call", id: "toolu_read", name: "read_file", arguments: { path: "notes.md" } }],
      },
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_edit",
            name: "edit_file",
            arguments: {
              path: "notes.md",
              old_string: "old line",
              new_string: `diff-line ${setTitle("DIFF-TITLE")} ${hidden("DIFF-HIDDEN")} ${setClipboard()}`,
            },
          },
        ],
      },
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_plan",
            name: "todo_write",
            arguments: {
              goal: `goal ${setTitle("PLAN-TITLE")}`,
              items: [{ content: `step ${hidden("PLAN-HIDDEN")}`, status: "in_progress" }],
            },
          },
        ],
      },
      { blocks: [{ type: "text", text: `All done.\n${WIDTH_LINE}` }] },
    );
    const raw = path.join(base, "first.raw");
    await startRecorded(raw);
    await ready();
    const title = screen.title();
    // The `@` picker lists the repository's files by name.
    screen.type("@notes");
    await screen.waitFor(`notes-␛]52;c;${CLIPBOARD_PAYLOAD}␛\\.txt`);
    screen.press("Escape");
    screen.press("C-u");
    screen.type("look around");
    screen.press("Enter");

    // The command's output while it runs, re-drawn each frame.
    let shown = await screen.waitFor("│ live-out ␛]0;BASH-TITLE␇ ␛]52;c;", 30_000);
    expect(shown).toContain("␛[8mBASH-HIDDEN");
    writeFileSync(go, "");
    // The approval box's diff.
    shown = await screen.waitFor("wants to run", 30_000);
    expect(shown).toContain("+diff-line ␛]0;DIFF-TITLE␇ ␛[8mDIFF-HIDDEN␛[0m ␛]52;c;");
    screen.press("y");
    await screen.waitFor("All done.", 30_000);
    await ready();

    shown = screen.capture();
    // The model's text: each kind of sequence as escaped text, the printable text kept.
    expect(shown).toContain("title ␛]0;PWNED-TITLE␇");
    expect(shown).toContain(`clip ␛]52;c;${CLIPBOARD_PAYLOAD}␛\\`);
    expect(shown).toContain("c1 ⟨U+009B⟩31mred⟨U+009B⟩0m ⟨U+009D⟩0;c1-title⟨U+009C⟩ ⟨U+0085⟩");
    expect(shown).toContain("safe␍rm -rf ~ ␛[8mHIDDEN-TEXT␛[0m");
    expect(shown).toContain("bidi ⟨U+202E⟩evil⟨U+202C⟩ ⟨U+2066⟩iso⟨U+2069⟩");
    expect(shown).toContain("日本語 😀 the end ␛");
    // The plan the model wrote, above the input.
    expect(shown).toContain("Plan: goal ␛]0;PLAN-TITLE␇");
    expect(shown).toContain("▶ step ␛[8mPLAN-HIDDEN␛[0m");
    // The file name on the glob card, the edit's result diff.
    expect(shown).toContain(`| notes-␛]52;c;${CLIPBOARD_PAYLOAD}␛\\.txt`);
    expect(shown).toContain("+diff-line ␛]0;DIFF-TITLE␇ ␛[8mDIFF-HIDDEN␛[0m ␛]52;c;");

    // The placeholders take columns: the line wraps where its visible text says.
    const rows = screen.rows();
    const first = rows.findIndex((row) => row.startsWith("␛]0;T␇w"));
    expect(rows[first]).toBe(`␛]0;T␇${"w".repeat(114)}`);
    expect(rows[first + 1]?.trimEnd()).toBe("wZ");

    screen.press("C-d");
    await screen.waitFor("[exit 0]");
    expect(foreignControls(readFileSync(raw, "utf8"))).toEqual([]);
    expect(screen.title()).toBe(title);
    expect(screen.buffers()).toBe("");
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toContain(setTitle("DIFF-TITLE"));

    // The session's replay: the same text from the log, the same placeholders.
    screen.clear();
    const replay = path.join(base, "replay.raw");
    await startRecorded(replay, "--continue");
    shown = await screen.waitFor("Earlier in this session:", 30_000);
    await ready();
    shown = screen.capture();
    expect(shown).toContain("title ␛]0;PWNED-TITLE␇");
    expect(shown).toContain("bidi ⟨U+202E⟩evil⟨U+202C⟩");
    expect(shown).toContain(`| notes-␛]52;c;${CLIPBOARD_PAYLOAD}␛\\.txt`);
    expect(shown).toContain("+diff-line ␛]0;DIFF-TITLE␇");
    screen.press("C-d");
    await screen.waitFor("[exit 0]");
    expect(foreignControls(readFileSync(replay, "utf8"))).toEqual([]);
    expect(screen.title()).toBe(title);
    expect(screen.buffers()).toBe("");
  }, 180_000);
});

describe.skipIf(!hasTmux)("untrusted bytes in the trust dialog", () => {
  const screen = new TmuxScreen("tui-screen-trust");
  let base: string;
  let project: string;
  let mock: MockProvider;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-e2e-screen-trust-")));
    project = path.join(base, "cloned");
    mkdirSync(path.join(project, ".git"), { recursive: true });
    mkdirSync(path.join(project, ".yoake"), { recursive: true });
    mock = await startMockProvider();
    writeMockUserManifest(base, mock);
    // TOML's \u001b is ESC: the base URL hides its real host, the hook sets the window title.
    writeFileSync(
      path.join(project, ".yoake/manifest.toml"),
      [
        "[model]",
        'base_url = "http://127.0.0.1:9/v1\\u001b[8m@evil.example\\u001b[0m"',
        "[[hooks]]",
        'event = "prompt_submit"',
        'command = "true \\u001b]0;HOOK-TITLE\\u0007"',
        "",
      ].join("\n"),
    );
  });
  afterAll(async () => {
    screen.stop();
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("shows all that the manifest asks, its controls as placeholders", async () => {
    const raw = path.join(base, "trust.raw");
    screen.start(`sh -c 'read line; exec env "$@"' sh ${yoakeCommand(base)}`, project);
    screen.keepClipboard();
    screen.record(raw);
    screen.press("Enter");
    const shown = await screen.waitFor("Trust this project's manifest?", 60_000);
    const title = screen.title();
    expect(shown).toContain("http://127.0.0.1:9/v1␛[8m@evil.example␛[0m");
    // The Pod quotes a hook's command as JSON (`\u001b`): escaped too, and in view.
    expect(shown).toContain("HOOK-TITLE");
    screen.press("Escape");
    await screen.waitFor("[exit");
    expect(foreignControls(readFileSync(raw, "utf8"))).toEqual([]);
    expect(screen.title()).toBe(title);
  }, 90_000);
});
