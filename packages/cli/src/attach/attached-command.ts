import type { AgentCommandOptions } from "../agent-command.js";
import { CliError, ExitCode, type ExitCodeValue } from "../cli-error.js";
import { customSlashCommands, expandHeadlessPrompt } from "../custom-commands/slash-command-files.js";
import { commandHeadlessOptions, runHeadless } from "../headless/run-headless.js";
import { startInteractive } from "../interactive.js";
import type { InterruptSource } from "../interrupt.js";
import type { CliIO } from "../io.js";
import { screenText } from "../screen-text.js";
import { attachToServedPod } from "./attach.js";

/** Options that shape a Pod as it starts: a served Pod has started already. */
const POD_OPTIONS: ReadonlyArray<[keyof AgentCommandOptions, string]> = [
  ["model", "--model"],
  ["maxTurns", "--max-turns"],
  ["effort", "--effort"],
  ["allow", "--allow"],
  ["allowWrite", "--allow-write"],
  ["deny", "--deny"],
  ["denyWrite", "--deny-write"],
  ["continue", "--continue"],
  ["resume", "--resume"],
  ["db", "--db"],
  ["outputSchema", "--output-schema"],
  ["trustProject", "--trust-project"],
];

/**
 * `yoake` and `yoake -p` on a project that `yoake serve` serves: attached to that Pod instead of
 * starting one. Undefined when no Pod serves the project (the caller starts its own).
 *
 * The terminal UI shows the conversation so far and follows the Pod's events, whoever's run they
 * are; leaving it (`/quit`, Ctrl+D) leaves the Pod and its run going. A headless run prints as it
 * would in-process; a call that needs approval is approved with `--yes`, else it waits for another
 * client of the Pod (the terminal UI, an editor) to answer it, and fails at once when none that
 * can is attached. Ctrl-C and Esc cancel through the protocol. What the Pod warned about when it
 * started is printed first, as a Pod of one's own prints it.
 */
export async function attachedCommand(
  cwd: string,
  prompt: string | undefined,
  options: AgentCommandOptions,
  io: CliIO,
  interrupts: InterruptSource | undefined,
): Promise<ExitCodeValue | undefined> {
  const interactive = prompt === undefined;
  const pod = await attachToServedPod(cwd, io.env, {
    clientName: interactive ? "yoake" : "yoake -p",
    answersApprovals: interactive,
  });
  if (pod === undefined) return undefined;
  try {
    const given = POD_OPTIONS.filter(([key]) => options[key] !== undefined && options[key] !== false);
    if (given.length > 0)
      throw new CliError(
        `${given.map(([, flag]) => flag).join(", ")} cannot change the Pod yoake serve runs for this project: leave ${given.length === 1 ? "it" : "them"} out to attach to it, or give --no-attach`,
      );
    const { projectRoot } = pod.manifest;
    const custom = await customSlashCommands(projectRoot, io.env);
    for (const warning of [...pod.warnings, ...custom.warnings])
      io.stderr.write(`yoake: warning: ${screenText(warning)}\n`);
    if (prompt === undefined) {
      await startInteractive({
        pod,
        title: `yoake · ${projectRoot} · attached to the Pod yoake serve runs`,
        customCommands: custom.commands,
      });
      const going = pod.runInProgress ? "its run goes on" : "it goes on";
      io.stdout.write(`Left the served Pod; ${going} (yoake here attaches to it again)\n`);
      return ExitCode.ok;
    }
    const interrupt = interrupts?.();
    try {
      return await runHeadless(
        pod,
        commandHeadlessOptions(expandHeadlessPrompt(prompt, custom.commands), options, interrupt),
        io,
      );
    } finally {
      interrupt?.dispose();
    }
  } finally {
    await pod.close();
  }
}
