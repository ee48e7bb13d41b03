import path from "node:path";
import { findServedPod, type PodOptions } from "@yoake/pod";
import { CliError, ExitCode, type ExitCodeValue } from "./cli-error.js";
import { customSlashCommands, expandHeadlessPrompt } from "./custom-commands/slash-command-files.js";
import { openDatabaseStores } from "./database-stores.js";
import type { OutputFormat } from "./headless/output-format.js";
import { loadOutputSchema } from "./headless/output-schema-file.js";
import { headlessPrompt } from "./headless/prompt-input.js";
import { commandHeadlessOptions, runHeadless } from "./headless/run-headless.js";
import { askProjectTrust, startInteractive } from "./interactive.js";
import type { InterruptSource } from "./interrupt.js";
import type { CliIO } from "./io.js";
import { openPod } from "./open-pod.js";
import { checkWorkingDirectory, commandPodOptions, type PodShapingOptions } from "./pod-options.js";
import { openPodWithTrust } from "./project-trust.js";
import { screenText } from "./screen-text.js";
import { SwitchablePod } from "./switchable-pod.js";

/** The options of `yoake [options]`, parsed. */
export interface AgentCommandOptions extends PodShapingOptions {
  /** `-p` given: its text, or `true` when the prompt comes from standard input alone. */
  prompt?: string | true;
  outputFormat: OutputFormat;
  /** `--output-schema <file>`: the headless answer is JSON matching this JSON Schema. */
  outputSchema?: string;
  cwd?: string;
  /** `--db`: sessions and blobs in this PostgreSQL database (else `YOAKE_DATABASE_URL`, else files). */
  db?: string;
  verbose?: boolean;
  /** False (`--no-attach`): a Pod in this process even when `yoake serve` serves the project. */
  attach?: boolean;
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
  if (options.cwd !== undefined) checkWorkingDirectory(options.cwd, cwd);
  // Before the prompt is read: --continue with --resume is reported first.
  const shapedPodOptions = commandPodOptions(cwd, io.env, options);
  // Without a keyboard on stdin the UI cannot be used: what is piped in is the prompt.
  const headless = options.prompt !== undefined || io.stdin.isTTY !== true;
  // Read first: a missing prompt is reported before a missing key.
  const prompt = headless
    ? await headlessPrompt(typeof options.prompt === "string" ? options.prompt : undefined, io.stdin)
    : undefined;
  if (options.outputSchema !== undefined && prompt === undefined)
    throw new CliError("--output-schema applies to headless runs: give -p");
  // Only a project that a Pod serves loads the protocol (its schemas are a visible part of a start).
  if (options.attach !== false && (await findServedPod(cwd, io.env)) !== undefined) {
    const { attachedCommand } = await import("./attach/attached-command.js");
    const code = await attachedCommand(cwd, prompt, options, io, interrupts);
    if (code !== undefined) return code;
  }
  const output =
    options.outputSchema === undefined ? undefined : await loadOutputSchema(options.outputSchema, cwd);
  const databaseUrl = options.db ?? io.env.YOAKE_DATABASE_URL;
  const database =
    databaseUrl === undefined || databaseUrl === ""
      ? undefined
      : await openDatabaseStores(databaseUrl, cwd, io.env);
  const podOptions: PodOptions = { ...shapedPodOptions, ...database?.podOptions };
  const opened = await openPodWithTrust(podOptions, headless ? undefined : askProjectTrust).catch(
    async (error: unknown) => {
      await database?.close();
      throw error;
    },
  );
  const pod = opened.pod;
  const custom = await customSlashCommands(pod.manifest.projectRoot, io.env);
  // The manifest's warnings (a model the catalogue does not know, …) once per session: when it starts.
  const manifestWarnings = pod.restored === undefined ? pod.manifest.warnings : [];
  // The UI shows the continued session's warnings (a crash, a torn line) as alerts itself.
  const restoredWarnings = prompt === undefined ? [] : (pod.restored?.warnings ?? []);
  for (const warning of [...manifestWarnings, ...custom.warnings, ...restoredWarnings])
    io.stderr.write(`yoake: warning: ${screenText(warning)}\n`);

  const interrupt = prompt === undefined ? undefined : interrupts?.();
  try {
    if (prompt === undefined) {
      const resumed = pod.restored === undefined ? "" : ` · session ${pod.sessionId}`;
      // /model and /resume reopen the Pod; the one in use at the end is the one to close.
      const switchable = new SwitchablePod(pod, opened.options, openPod);
      try {
        await startInteractive({
          pod: switchable,
          title: `yoake · ${pod.manifest.projectRoot}${resumed}`,
          customCommands: custom.commands,
        });
      } finally {
        if (switchable.current !== pod) await switchable.current.close();
      }
      // A session with nothing in it was never written: there is nothing to resume.
      if (switchable.history.length > 0)
        io.stdout.write(
          `Session ${switchable.sessionId} · resume it with: yoake --resume ${switchable.sessionId}\n`,
        );
      return ExitCode.ok;
    }
    return await runHeadless(
      pod,
      {
        ...commandHeadlessOptions(expandHeadlessPrompt(prompt, custom.commands), options, interrupt),
        ...(output !== undefined && { output }),
        ...(io.env.TRACEPARENT !== undefined && { traceparent: io.env.TRACEPARENT }),
      },
      io,
    );
  } finally {
    interrupt?.dispose();
    await pod.close();
    await database?.close();
  }
}
