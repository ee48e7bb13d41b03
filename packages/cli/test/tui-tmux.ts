/**
 * Drives a program in a terminal of its own (tmux): keys in, screen out. For the terminal UI's
 * end-to-end tests; not a test file itself. Every wait polls the screen with a deadline.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { MockProvider } from "@yoake/llm-worker/testing";

const execFileAsync = promisify(execFile);

export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

/** One tmux server of its own (nothing of the user's tmux is touched) with one pane. */
export class TmuxScreen {
  private readonly socket: string;
  private readonly target = "ui";
  /** The server's socket file, which tmux leaves behind when the server stops. */
  private socketPath: string | undefined;

  constructor(name: string) {
    this.socket = `yoake-${name}-${process.pid}`;
  }

  /**
   * Runs `command` (a shell command line) in `cwd`, in a 120×50 terminal. The shell stays after
   * it with `[exit <status>]` on screen, so the status can be read and the screen still captured.
   */
  start(
    command: string,
    cwd: string,
    size: { columns: number; rows: number } = { columns: 120, rows: 50 },
  ): void {
    // Under CI=true ink draws only a final frame; a terminal session is not CI (yoake itself hides
    // the variable while ink loads, the test fixture does not).
    const line = `env -u CI -u CONTINUOUS_INTEGRATION ${command}; echo "[exit $?]"; sleep 120`;
    if (this.isRunning()) this.tmux("respawn-pane", "-k", "-t", this.target, "-c", cwd, line);
    else
      this.tmux(
        "new-session",
        "-d",
        "-s",
        this.target,
        "-x",
        String(size.columns),
        "-y",
        String(size.rows),
        "-c",
        cwd,
        line,
      );
    this.socketPath ??= this.tmux("display-message", "-p", "#{socket_path}").trim();
  }

  /** The screen and its scrollback: finished entries scroll up into the terminal's own history. */
  capture(): string {
    return this.tmux("capture-pane", "-p", "-J", "-t", this.target, "-S", "-400");
  }

  /** The rows of the screen and its scrollback as the terminal has them: wrapped lines not joined. */
  rows(): string[] {
    return this.tmux("capture-pane", "-p", "-t", this.target, "-S", "-400").split("\n");
  }

  /**
   * Appends every byte the program writes to its terminal from now on to `file`, as the terminal
   * receives it: escape sequences and all.
   */
  record(file: string): void {
    // A pipe still open from an earlier program is closed first.
    this.tmux("pipe-pane", "-t", this.target);
    this.tmux("pipe-pane", "-t", this.target, `cat >> '${file}'`);
  }

  /** The pane's title, which a program sets with OSC 0 or 2. */
  title(): string {
    return this.tmux("display-message", "-p", "-t", this.target, "#{pane_title}").trim();
  }

  /**
   * The terminal keeps what a program writes to the clipboard (OSC 52) as a paste buffer, so a
   * test can see whether one was written: `buffers` lists them.
   */
  keepClipboard(): void {
    this.tmux("set-option", "-g", "set-clipboard", "on");
  }

  buffers(): string {
    return this.tmux("list-buffers");
  }

  /** Resizes the terminal, as a person dragging its window does. */
  resize(columns: number, rows: number): void {
    this.tmux("resize-window", "-t", this.target, "-x", String(columns), "-y", String(rows));
  }

  /** Text as typed, one chunk. */
  type(text: string): void {
    this.tmux("send-keys", "-t", this.target, "-l", text);
  }

  /**
   * `text` pasted as a terminal pastes it: marked as a paste (bracketed) when the program asked
   * the terminal for that, as plain typed text when it did not.
   */
  paste(text: string): void {
    this.tmux("set-buffer", "-b", "yoake-paste", "--", text);
    this.tmux("paste-buffer", "-p", "-d", "-b", "yoake-paste", "-t", this.target);
  }

  /** Named keys: `Enter`, `Escape`, `Tab`, `Up`, `C-u`, ... */
  press(...keys: string[]): void {
    this.tmux("send-keys", "-t", this.target, ...keys);
  }

  /** Waits for the screen to show `expected`; generous by default, the machine may be busy. */
  async waitFor(expected: string | RegExp, timeoutMs = 30_000): Promise<string> {
    return this.waitUntil(
      (screen) => (typeof expected === "string" ? screen.includes(expected) : expected.test(screen)),
      String(expected),
      { timeoutMs },
    );
  }

  /**
   * Waits for the screen to satisfy `holds`; `what` names it in the error. By default the screen
   * is the scrollback too, with lines the terminal wrapped joined; `visibleOnly`: the rows on
   * screen, as they are.
   */
  async waitUntil(
    holds: (screen: string) => boolean,
    what: string,
    { timeoutMs = 30_000, visibleOnly = false }: { timeoutMs?: number; visibleOnly?: boolean } = {},
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const range = visibleOnly ? [] : ["-J", "-S", "-400"];
    let last = "";
    while (Date.now() < deadline) {
      // Asynchronously: the mock provider of the test may be serving from this very process.
      const args = ["-L", this.socket, "capture-pane", "-p", "-t", this.target, ...range];
      last = (await execFileAsync("tmux", args)).stdout;
      if (holds(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(`the screen never showed ${what}; it shows:\n${last}`);
  }

  /** Clears the screen and its scrollback, so the next waits see only what comes next. */
  clear(): void {
    this.tmux("send-keys", "-t", this.target, "-R");
    this.tmux("clear-history", "-t", this.target);
  }

  stop(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
    if (this.socketPath !== undefined) rmSync(this.socketPath, { force: true });
  }

  private isRunning(): boolean {
    return spawnSync("tmux", ["-L", this.socket, "has-session", "-t", this.target]).status === 0;
  }

  private tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }
}

/** The input box's line holding `text`: where typed text appears. */
export function inputLine(text: string): RegExp {
  return new RegExp(`│ › ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
}

/** The real `yoake` of this checkout. */
const YOAKE_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../bin/yoake.js");

/**
 * The shell command line that runs the real `yoake` with `args`, its home, config and state under
 * `base` (nothing of the user's is read or written) and `YOAKE_E2E_KEY` set for the mock.
 */
export function yoakeCommand(base: string, ...args: string[]): string {
  return [
    `HOME=${base}/home`,
    `XDG_CONFIG_HOME=${base}/config`,
    `XDG_STATE_HOME=${base}/state`,
    "YOAKE_E2E_KEY=test-key",
    "node",
    YOAKE_BIN,
    ...args,
  ].join(" ");
}

/**
 * Writes the user's manifest under `base` (see `yoakeCommand`) with the mock's Anthropic endpoint
 * as the model, and `extraLines` after it. The user's, not the project's: a project's base URL
 * would first ask for trust.
 */
export function writeMockUserManifest(base: string, mock: MockProvider, extraLines: string[] = []): void {
  mkdirSync(path.join(base, "config", "yoake"), { recursive: true });
  writeFileSync(
    path.join(base, "config", "yoake", "manifest.toml"),
    [
      "[model]",
      'scheme = "anthropic"',
      'id = "mock-model"',
      `base_url = "${mock.baseURLFor("anthropic")}"`,
      'api_key_env = "YOAKE_E2E_KEY"',
      ...extraLines,
      "",
    ].join("\n"),
  );
}
