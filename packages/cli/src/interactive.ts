import type { ProjectTrustError } from "@yoake/pod";
import type { TrustChoice } from "./tui/components/trust-prompt.js";
import type { InteractiveOptions } from "./tui/index.js";

/**
 * Runs the terminal UI (`./tui/`) until the user leaves. It is imported on first use, so headless
 * runs and the printed demo never load ink or React.
 */
export async function startInteractive(options: InteractiveOptions): Promise<void> {
  const { runInteractive } = await importTuiForTerminal();
  await runInteractive(options);
}

/** Asks in the terminal whether to trust the project's manifest, before the UI opens (see `TrustPrompt`). */
export async function askProjectTrust(error: ProjectTrustError): Promise<TrustChoice> {
  const { runTrustPrompt } = await importTuiForTerminal();
  return runTrustPrompt(error);
}

const CI_VARIABLES = ["CI", "CONTINUOUS_INTEGRATION"] as const;

/**
 * Ink decides once, when it is loaded, whether it runs in CI (`CI` set), and then draws only a
 * final frame: a person at a terminal would look at a blank screen. Someone typing into a TTY is
 * not a CI job, so the variables are hidden while ink loads (and put back for hooks and servers).
 */
async function importTuiForTerminal(): Promise<typeof import("./tui/index.js")> {
  const saved = CI_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const [name] of saved) delete process.env[name];
  try {
    return await import("./tui/index.js");
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
