import type { InteractiveOptions } from "./tui/index.js";

/**
 * Runs the terminal UI (`./tui/`) until the user leaves. It is imported on first use, so headless
 * runs and the printed demo never load ink or React.
 */
export async function startInteractive(options: InteractiveOptions): Promise<void> {
  const { runInteractive } = await import("./tui/index.js");
  await runInteractive(options);
}
