import type { Item, OutputSchema } from "@yoake/llm-worker";
import type { Unsubscribe } from "@yoake/llm-worker/internal";
import type {
  McpServerStatus,
  PermissionDecision,
  PodEvent,
  PodEventOf,
  PodEventType,
  PodRunOptions,
  PodRunResult,
} from "@yoake/pod";
import { RunCostMeter } from "@yoake/pod";
import { ExitCode, type ExitCodeValue } from "../cli-error.js";
import type { CliIO, OutputStream } from "../io.js";
import { screenJson, screenText } from "../screen-text.js";
import type { OutputFormat } from "./output-format.js";
import { reportProgress } from "./progress.js";
import { type DeniedCall, failureOf, runSummary, type SummaryModel } from "./run-summary.js";

/**
 * What a headless run needs of its Pod: the in-process `Pod` is one, and so is a Pod served by
 * `yoake serve` and attached to (`RemotePod`).
 */
export interface HeadlessPod {
  run(input: string, options: PodRunOptions): Promise<PodRunResult>;
  respond(id: string, decision: PermissionDecision, options: PodRunOptions): Promise<PodRunResult>;
  listen(listener: (event: PodEvent) => void): Unsubscribe;
  on<T extends PodEventType>(type: T, handler: (event: PodEventOf<T>) => void): Unsubscribe;
  readonly history: readonly Item[];
  readonly sessionId?: string | undefined;
  readonly manifest: { readonly model: SummaryModel };
  /**
   * A served Pod, which other clients watch too: resolves with how the run went on once one of
   * them answered the pending permission request, or undefined when none of them can answer (no
   * terminal UI or editor is attached, or the last one left). Without it, nobody else can answer.
   */
  answeredElsewhere?(options: PodRunOptions): Promise<PodRunResult | undefined>;
  /** A served Pod: how many of its clients can answer a permission request now. */
  readonly approvers?: number;
  /** The in-process Pod's `[[mcp]]` servers: one still starting when the run ends is named. */
  mcpServers?(): readonly McpServerStatus[];
}

export interface HeadlessOptions {
  prompt: string;
  format: OutputFormat;
  /**
   * Ask for the answer as JSON of this schema: `text` then prints the validated object, `json`
   * puts it in the result's `structured_output`; an answer that does not validate fails the run.
   */
  output?: OutputSchema<unknown>;
  /**
   * Whether calls that need approval were approved up front (`--yes`, which empties
   * `tools.approve`; a served Pod's requests are approved once each). Without it, such calls are
   * denied: nobody is there to ask — except on a served Pod, where another client may answer.
   */
  approveAll: boolean;
  /** A W3C `traceparent` (the `TRACEPARENT` variable): the run's spans continue that trace. */
  traceparent?: string;
  /** Tool calls and info alerts on stderr. */
  verbose: boolean;
  signal?: AbortSignal;
}

/** The options of `yoake -p` for one run of `prompt`; Ctrl-C (`interrupt`) cancels it. */
export function commandHeadlessOptions(
  prompt: string,
  options: { outputFormat: OutputFormat; approveAll?: boolean; verbose?: boolean },
  interrupt: { signal: AbortSignal } | undefined,
): HeadlessOptions {
  return {
    prompt,
    format: options.outputFormat,
    approveAll: options.approveAll === true,
    verbose: options.verbose === true,
    ...(interrupt !== undefined && { signal: interrupt.signal }),
  };
}

/**
 * One headless run: submits the prompt (its `@path` references resolved by the Pod), answers
 * every permission request with a denial that tells the model why, and prints the outcome in
 * `format`. Returns the exit code: 0 finished, 1 failed or cancelled (the error on stderr).
 * The text answer and every line on stderr are screen text (`screenText`): what the model, its
 * tools or the project wrote shows its controls as placeholders. JSON output is left as data.
 */
export async function runHeadless(
  pod: HeadlessPod,
  options: HeadlessOptions,
  io: CliIO,
): Promise<ExitCodeValue> {
  const started = Date.now();
  const denied: DeniedCall[] = [];
  const stderr: OutputStream = {
    write: (text) => io.stderr.write(screenText(text)),
    ...(io.stderr.isTTY !== undefined && { isTTY: io.stderr.isTTY }),
  };
  const stopProgress = reportProgress(pod, stderr, {
    tools: options.verbose || stderr.isTTY === true,
    info: options.verbose,
  });
  const history = () => pod.history;
  const cost = new RunCostMeter(pod.manifest.model);
  const stopMeter = pod.listen(cost.observe);
  // The events' wire form comes with the protocol's schemas: loaded only when they are printed.
  const streamEvents = options.format === "stream-json" ? await import("./stream-event.js") : undefined;
  const stopStream = streamEvents
    ? pod.listen((event) => {
        const line = streamEvents.streamEventLine(event, history);
        if (line !== undefined) io.stdout.write(line);
      })
    : undefined;
  const runOptions = {
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.output !== undefined && { output: options.output }),
    ...(options.traceparent !== undefined && { traceparent: options.traceparent }),
  };
  let result: PodRunResult;
  /** Why the run stopped at a request nobody attached can answer (a served Pod's). */
  let unanswerable: string | undefined;
  try {
    result = await pod.run(options.prompt, runOptions);
    while (result.status === "paused" && result.permissionRequest !== undefined) {
      const request = result.permissionRequest;
      if (options.approveAll) {
        result = await pod.respond(request.id, "allow_once", runOptions);
        continue;
      }
      if (pod.answeredElsewhere !== undefined) {
        if (pod.approvers !== 0)
          stderr.write(
            `yoake: ${request.tool} waits for approval: answer it in another client of the served Pod (yoake here)\n`,
          );
        const answered = await pod.answeredElsewhere(runOptions);
        if (answered === undefined) {
          // Waiting would hang: say so now. The request stays pending in the served Pod.
          unanswerable = `${request.tool} needs approval and no client of the served Pod can give it: open yoake in this project to answer it (the request waits there), or rerun with --yes`;
          break;
        }
        result = answered;
        continue;
      }
      const reason = `${request.tool} needs the user's approval, which cannot be asked in headless mode; rerun with --yes to allow it`;
      // A command says why it asks: no sandbox, or an always-ask pattern.
      // A sub-agent's model says where its conversation would go.
      const why =
        request.command !== undefined
          ? `; ${request.command.reason}`
          : request.model !== undefined
            ? `; ${request.model.reason}`
            : "";
      stderr.write(`yoake: denied ${request.tool}: it needs approval${why} (rerun with --yes to allow it)\n`);
      denied.push({ tool: request.tool, callId: request.callId, reason });
      result = await pod.respond(request.id, { deny: reason }, runOptions);
    }
  } finally {
    stopStream?.();
    stopMeter();
    stopProgress();
  }
  // The run does not wait for MCP servers: one that never answered its handshake is named, or
  // its tools are missing without a word.
  for (const server of pod.mcpServers?.() ?? [])
    if (server.state === "starting")
      stderr.write(
        `yoake: warn: MCP server "${server.name}" (${server.target}) had not completed its handshake when the run ended: the run went without its tools\n`,
      );

  const summary = runSummary(result, {
    manifest: pod.manifest,
    durationMs: Date.now() - started,
    deniedCalls: denied,
    sessionId: pod.sessionId,
    costUsd: cost.costUsd,
  });
  // The run is paused, but not for a reason headless mode has: nobody attached can approve.
  if (unanswerable !== undefined) summary.error = { kind: "needs_approval", message: unanswerable };
  if (options.format === "text") {
    if (result.status === "finished")
      io.stdout.write(
        options.output ? `${screenJson(result.output)}\n` : screenText(withNewline(result.text)),
      );
  } else {
    io.stdout.write(`${screenJson(summary)}\n`);
  }
  if (unanswerable !== undefined) {
    stderr.write(`yoake: ${unanswerable}\n`);
    return ExitCode.runFailed;
  }
  const failure = failureOf(result);
  if (failure === undefined) return ExitCode.ok;
  stderr.write(`yoake: ${failure.message}\n`);
  return options.signal?.aborted === true ? ExitCode.interrupted : ExitCode.runFailed;
}

function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
