import path from "node:path";
import type { PodOptions } from "@yoake/pod";
import { CliError, ExitCode, type ExitCodeValue } from "./cli-error.js";
import { customSlashCommands, expandHeadlessPrompt } from "./custom-commands/slash-command-files.js";
import { headlessPrompt } from "./headless/prompt-input.js";
import { type OutputFormat, runHeadless } from "./headless/run-headless.js";
import { startInteractive } from "./interactive.js";
import type { InterruptSource } from "./interrupt.js";
import type { CliIO } from "./io.js";
import { manifestOverrides, type OverrideOptions } from "./manifest-overrides.js";
import { openPod } from "./open-pod.js";
import { SwitchablePod } from "./switchable-pod.js";

/** The options of `yoake [options]`, parsed. */
export interface AgentCommandOptions extends OverrideOptions {
  /** `-p` given: its text, or `true` when the prompt comes from standard input alone. */
  prompt?: string | true;
  outputFormat: OutputFormat;
  cwd?: string;
  continue?: boolean;
  resume?: string;
  verbose?: boolean;
}

/**
 * `yoake [options]`: a Pod on the project around `--cwd`, then either one headless run (`-p`, or
 * a prompt piped on standard input) or the interactive UI.
 */
export async function agentCommand(
  options: AgentCommandOptions,
  io: CliIO,
  interrupts?: InterruptSource,
): Promise<ExitCodeValue> {
  const cwd = path.resolve(io.cwd, options.cwd ?? ".");
  const session = sessionChoice(options);
  // Without a keyboard on stdin the UI cannot be used: what is piped in is the prompt.
  const headless = options.prompt !== undefined || io.stdin.isTTY !== true;
  // Read first: a missing prompt is reported before a missing key.
  const prompt = headless
    ? await headlessPrompt(typeof options.prompt === "string" ? options.prompt : undefined, io.stdin)
    : undefined;
  const podOptions: PodOptions = {
    cwd,
    env: io.env,
    overrides: manifestOverrides(options, cwd),
    ...(session !== undefined && { session }),
  };
  const pod = await openPod(podOptions);
  const custom = await customSlashCommands(pod.manifest.projectRoot, io.env);
  // The UI shows the continued session's warnings (a crash, a torn line) as alerts itself.
  const restoredWarnings = prompt === undefined ? [] : (pod.restored?.warnings ?? []);
  for (const warning of [...pod.manifest.warnings, ...custom.warnings, ...restoredWarnings])
    io.stderr.write(`yoake: warning: ${warning}\n`);

  const interrupt = prompt === undefined ? undefined : interrupts?.();
  try {
    if (prompt === undefined) {
      const resumed = pod.restored === undefined ? "" : ` · session ${pod.sessionId}`;
      // /model and /resume reopen the Pod; the one in use at the end is the one to close.
      const switchable = new SwitchablePod(pod, podOptions, openPod);
      try {
        await startInteractive({
          pod: switchable,
          title: `yoake · ${pod.manifest.projectRoot}${resumed}`,
          customCommands: custom.commands,
        });
      } finally {
        if (switchable.current !== pod) await switchable.current.close();
      }
      return ExitCode.ok;
    }
    return await runHeadless(
      pod,
      {
        prompt: expandHeadlessPrompt(prompt, custom.commands),
        format: options.outputFormat,
        approveAll: options.approveAll === true,
        verbose: options.verbose === true,
        ...(interrupt !== undefined && { signal: interrupt.signal }),
      },
      io,
    );
  } finally {
    interrupt?.dispose();
    await pod.close();
  }
}

/** `--continue`: the project's latest session; `--resume <id>`: that one (or an unambiguous prefix). */
function sessionChoice(options: AgentCommandOptions): PodOptions["session"] {
  if (options.continue === true && options.resume !== undefined)
    throw new CliError("--continue and --resume exclude each other: give one");
  if (options.continue === true) return "latest";
  return options.resume;
}
