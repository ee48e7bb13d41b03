import { render } from "ink";
import { type CustomSlashCommand, setCustomSlashCommands } from "./commands/slash-commands.js";
import { App } from "./components/app.js";
import { listProjectFiles, localFileTree } from "./files/project-files.js";
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from "./input/key-stream.js";
import type { PodLike } from "./pod-like.js";
import { subagentsOf } from "./state/restored-subagents.js";

/** How to start the terminal UI. */
export interface InteractiveOptions {
  pod: PodLike;
  /** The first line shown: the project, a resumed session, or the demo's notice that the model is scripted. */
  title?: string;
  /**
   * Where the `@` picker lists files when the Pod offers no file tree (`pod.fs`): the Pod's
   * project root when known, else this, else the working directory.
   */
  cwd?: string;
  /** Custom slash commands (`.yoake/commands/`, the user's): completed, listed in `/help`, expanded when sent. */
  customCommands?: readonly CustomSlashCommand[];
  /** Earlier inputs, oldest first, for Up. */
  inputHistory?: readonly string[];
  /** For tests and embedding; default the process's own. */
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * Runs the interactive terminal UI on a Pod until the user leaves (`/quit`, Ctrl+D, or Ctrl+C
 * with nothing running). Resolves once the screen is restored; the caller closes the Pod.
 */
export async function runInteractive(options: InteractiveOptions): Promise<void> {
  const { pod } = options;
  setCustomSlashCommands(options.customCommands ?? []);
  const stdout = options.stdout ?? process.stdout;
  // Pasted text is then marked as such, so a paste ending in a line break is not sent.
  const bracketedPaste = stdout.isTTY === true;
  const endBracketedPaste = (): void => {
    if (bracketedPaste) stdout.write(DISABLE_BRACKETED_PASTE);
  };
  if (bracketedPaste) stdout.write(ENABLE_BRACKETED_PASTE);
  // Also when the process ends without leaving the UI (a crash): the shell must not get marked pastes.
  process.once("exit", endBracketedPaste);
  // Raw before the first frame, not in ink's effect after it: a key typed while the UI loads would
  // otherwise pass the terminal's line discipline, which turns Enter into a line feed (a new line
  // in the box instead of a send).
  const stdin = options.stdin ?? process.stdin;
  if (stdin.isTTY === true) stdin.setRawMode(true);
  const tree = pod.fs ?? localFileTree(pod.manifest?.projectRoot ?? options.cwd ?? process.cwd());
  // A continued conversation's sub-agents are read from their logs before the first frame prints it.
  const subagents = await subagentsOf(pod, pod.history ?? []);
  const instance = render(
    <App
      pod={pod}
      loadFiles={() => listProjectFiles(tree)}
      {...(options.title !== undefined && { title: options.title })}
      {...(options.inputHistory !== undefined && { inputHistory: options.inputHistory })}
      {...(subagents !== undefined && { restoredSubagents: subagents })}
    />,
    {
      exitOnCtrlC: false,
      // Shift+Enter can only be told from Enter with the kitty keyboard protocol; ink asks the terminal.
      kittyKeyboard: { mode: "auto" },
      ...(options.stdin !== undefined && { stdin: options.stdin }),
      ...(options.stdout !== undefined && { stdout: options.stdout }),
      ...(options.stderr !== undefined && { stderr: options.stderr }),
    },
  );
  try {
    await instance.waitUntilExit();
  } finally {
    process.removeListener("exit", endBracketedPaste);
    endBracketedPaste();
  }
}
